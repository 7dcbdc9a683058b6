// RAUC updates of the booted twin through the dashboard's API, for scripts/test-image.mjs: a bundle
// made from the image's own slot image with a higher version (image/rauc/make-bundle.sh, the
// development CA), uploaded by an admin, the reboot asked for, and the new slot committed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ADMIN = { username: 'farm-admin', password: 'Tall-Orange-Printer-Quietly-42' };

async function api(port, method, route, { token, json, bytes } = {}) {
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

export function makeBundle({ root, rootfs, version, out }) {
  const ca = path.join(root, 'build/rauc-dev-ca');
  execFileSync(
    path.join(root, 'image/rauc/make-bundle.sh'),
    ['--board', 'amd64', '--version', version, '--rootfs', rootfs, '--cert', path.join(ca, 'signing.cert.pem')].concat([
      '--key',
      path.join(ca, 'signing.key.pem'),
      '--keyring',
      path.join(ca, 'ca.cert.pem'),
      '--out',
      out,
    ]),
    { stdio: 'inherit' },
  );
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

/** Uploads the bundle and waits until it is installed; then asks for the reboot. */
export async function installAndReboot(port, token, bundle) {
  const t0 = Date.now();
  const upload = await api(port, 'POST', '/api/system/update', { token, bytes: readFileSync(bundle) });
  assert.ok(upload.status < 300, `upload: ${JSON.stringify(upload)}`);
  let state = await updateState(port, token);
  while (state.busy && Date.now() - t0 < 20 * 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 5000));
    state = await updateState(port, token);
  }
  assert.equal(state.reboot_required, true, `installed, waiting for the reboot: ${JSON.stringify(state)}`);
  const installSeconds = (Date.now() - t0) / 1000;
  const reboot = await api(port, 'POST', '/api/system/update/reboot', { token });
  assert.equal(reboot.status, 202, JSON.stringify(reboot));
  return { installSeconds, before: state };
}
