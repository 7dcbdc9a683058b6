// RAUC updates of the booted twin through the dashboard's API, for scripts/test-image.mjs: bundles
// made from the image's own slot image with a chosen version (image/rauc/make-bundle.sh, the
// development CA), uploaded by an admin, their install followed, the reboot asked for.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const ADMIN = { username: 'farm-admin', password: 'Tall-Orange-Printer-Quietly-42' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function api(port, method, route, { token, json, bytes } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let body;
  if (json) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (bytes) {
    headers['content-type'] = 'application/octet-stream';
    body = bytes;
  }
  const url = `http://127.0.0.1:${port}${route}`;
  const send = () => fetch(url, { method, headers, body, signal: AbortSignal.timeout(600_000) });
  let res;
  try {
    res = await send();
  } catch (err) {
    // The keep-alive connection of the earlier checks may have been closed by the box while the
    // bundle was being made (undici: "other side closed"); one retry on a new connection. Every
    // request here is safe to repeat: setup accepts 409, the upload is refused while one is pending.
    if (err?.cause?.code !== 'UND_ERR_SOCKET') throw err;
    res = await send();
  }
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/** Builds a signed bundle of `rootfs` with `version` (async: bundles are made while the VM boots). */
export async function makeBundle({ root, rootfs, version, out }) {
  const ca = path.join(root, 'build/rauc-dev-ca');
  const args = ['--board', 'amd64', '--version', version, '--rootfs', rootfs, '--out', out];
  for (const [flag, file] of [
    ['--cert', 'signing.cert.pem'],
    ['--key', 'signing.key.pem'],
    ['--keyring', 'ca.cert.pem'],
  ]) {
    args.push(flag, path.join(ca, file));
  }
  await promisify(execFile)(path.join(root, 'image/rauc/make-bundle.sh'), args, { maxBuffer: 16 * 1024 * 1024 });
  return out;
}

/** Creates the first admin and logs in; returns the session token. */
export async function adminToken(port) {
  const setup = await api(port, 'POST', '/api/auth/setup', { json: ADMIN });
  assert.ok(setup.status === 201 || setup.status === 409, `setup: ${JSON.stringify(setup)}`);
  const login = await api(port, 'POST', '/api/auth/login', { json: ADMIN });
  assert.equal(login.status, 200, `login: ${JSON.stringify(login)}`);
  return login.body.token;
}

export async function updateState(port, token) {
  const state = await api(port, 'GET', '/api/system/update', { token });
  assert.equal(state.status, 200, JSON.stringify(state));
  return state.body;
}

/**
 * The update state once `done(state)` holds, asked every `everyMs` for at most `timeoutMs`; a box
 * that is rebooting (no answer, or no dashboard yet) is asked again.
 */
export async function waitForState(port, token, done, { timeoutMs, everyMs = 5000, what }) {
  const deadline = Date.now() + timeoutMs;
  let last = null;
  while (Date.now() < deadline) {
    try {
      last = await updateState(port, token);
      if (done(last)) return last;
    } catch (err) {
      last = { unreachable: err instanceof Error ? err.message : String(err) };
    }
    await sleep(everyMs);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s; last state ${JSON.stringify(last)}`);
}

/** Uploads a bundle; the dashboard answers once RAUC has accepted it and the install goes on. */
export async function upload(port, token, bundle) {
  const res = await api(port, 'POST', '/api/system/update', { token, bytes: readFileSync(bundle) });
  assert.ok(res.status < 300, `upload: ${JSON.stringify(res)}`);
  return res.body;
}

/** Uploads the bundle and waits until it is installed; returns the seconds from upload to installed. */
export async function install(port, token, bundle) {
  const t0 = Date.now();
  await upload(port, token, bundle);
  const state = await waitForState(port, token, (s) => !s.busy, { timeoutMs: 20 * 60_000, what: 'the install' });
  assert.equal(state.reboot_required, true, `installed, waiting for the reboot: ${JSON.stringify(state)}`);
  return { installSeconds: (Date.now() - t0) / 1000, state };
}

export async function requestReboot(port, token) {
  const reboot = await api(port, 'POST', '/api/system/update/reboot', { token });
  assert.equal(reboot.status, 202, JSON.stringify(reboot));
}

/** What the box says about one slot: RAUC's name, bootname, version and boot status. */
export function slot(state, bootname) {
  return state.slots.find((s) => s.bootname === bootname) ?? null;
}

/** The slot an update goes to from `bootname`: the other of the twin's two. */
export function otherSlot(bootname) {
  return bootname === 'A' ? 'B' : 'A';
}

/**
 * The data partition came through: the box id and host name of the first boot's report, and the
 * admin's session token of before still accepted.
 */
export async function assertDataKept({ port, token, firstSystem }, report) {
  assert.equal(report.system.boxId, firstSystem.boxId, 'the same box id');
  assert.equal(report.system.hostname, firstSystem.hostname, 'the same host name');
  const state = await api(port, 'GET', '/api/system/update', { token });
  assert.equal(state.status, 200, `the admin's token of before: ${JSON.stringify(state)}`);
  return { boxId: report.system.boxId, hostname: report.system.hostname, tokenValid: true };
}

/** Every Printyard unit of a boot's report: active/running for services, active/exited for oneshots. */
export function assertUnitsReady(report) {
  for (const unit of report.units.units.filter((u) => u.load === 'loaded')) {
    const expected = /slicer|dashboard|node-red/.test(unit.unit) ? 'running' : 'exited';
    assert.equal(`${unit.active}/${unit.sub}`, `active/${expected}`, `${unit.unit}: ${JSON.stringify(unit)}`);
  }
  return Object.fromEntries(report.units.units.map((u) => [u.unit, u.readySecondsAfterStart]));
}
