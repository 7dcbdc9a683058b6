// The Pi image's arm64 root, checked without a Pi (rpi-root.mjs opens it under qemu-user-static):
// what the build put in place (units enabled, RAUC's config and keyring, fstab, the first-boot
// pieces, nothing that must be each box's own), then its programs run: Node 20 from Debian, the
// project's native addons loaded, the slicer's CLI slicing a cube, and both services started as
// their units' ExecStart= and Environment= say, answering /api/health on 127.0.0.1.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ArmRoot } from './rpi-root.mjs';

const repo = path.resolve(import.meta.dirname, '../..');
/** The services checked, with the variable that moves them off the ports the host may use. */
const SERVICES = [
  { unit: 'printyard-slicer.service', portVariable: 'PRINTYARD_SLICER_REST_PORT' },
  { unit: 'printyard-dashboard.service', portVariable: 'PRINTYARD_DASHBOARD_PORT' },
];
/** Folders of a unit's specifiers, moved under the check's temp folder (the root is read-only). */
const STATE = '/tmp/printyard-check';
const SPECIFIERS = { '%S': `${STATE}/state`, '%E': `${STATE}/etc`, '%C': `${STATE}/cache` };

function read(root, file) {
  return readFileSync(root.path(file), 'utf8');
}

/** The files laid down by the build: units, RAUC, fstab, first boot, and what each box makes itself. */
function checkFiles(root, keyring) {
  const units = root.path('/etc/systemd/system');
  const wants = readdirSync(units).filter((d) => d.endsWith('.wants'));
  const enabled = wants.flatMap((d) => readdirSync(path.join(units, d)));
  for (const unit of [
    'printyard.target',
    'printyard-first-boot.service',
    'printyard-health-gate.service',
    'printyard-slicer.service',
    'printyard-dashboard.service',
  ]) {
    assert.ok(enabled.includes(unit), `${unit} enabled (has ${enabled.join(' ')})`);
  }
  for (const unit of ['printyard-data.service', 'printyard-node-red.service'])
    assert.ok(existsSync(root.path(`/usr/lib/systemd/system/${unit}`)), unit);
  assert.equal(
    read(root, '/etc/rauc/system.conf'),
    readFileSync(path.join(repo, 'image/rauc/system-rpi.conf'), 'utf8'),
    "RAUC's config is system-rpi.conf",
  );
  assert.match(read(root, '/etc/rauc/system.conf'), /\[slot\.boot\.1\][^[]*parent=rootfs\.1/);
  if (keyring) assert.equal(read(root, '/etc/rauc/keyring.pem'), readFileSync(keyring, 'utf8'), "the keyring is the build's CA");
  else assert.match(read(root, '/etc/rauc/keyring.pem'), /BEGIN CERTIFICATE/);
  for (const tool of ['tryboot-backend', 'health-gate', 'health-gate.mjs']) assert.ok(existsSync(root.path(`/usr/lib/printyard/rauc/${tool}`)), tool);
  const fstab = read(root, '/etc/fstab');
  assert.match(fstab, /^PARTLABEL=data\s+\/var\/lib\/printyard\s+ext4\s/m, 'the data partition');
  assert.match(fstab, /^PARTLABEL=boot\s+\/boot\/autoboot\s+vfat\s/m, "autoboot.txt's partition");
  assert.doesNotMatch(fstab, /^\S+\s+\/\s/m, 'no fstab line for / (the kernel mounts the slot ro: cmdline.txt)');
  for (const file of ['data-partition', 'first-boot']) assert.ok(existsSync(root.path(`/usr/lib/printyard/${file}`)), file);
  assert.equal(read(root, '/etc/machine-id'), '', 'machine id empty (each boot gets one)');
  assert.deepEqual(
    readdirSync(root.path('/etc/ssh')).filter((f) => f.startsWith('ssh_host_')),
    [],
    'no SSH host keys',
  );
  assert.equal(JSON.parse(read(root, '/usr/lib/printyard/image.json')).board, 'rpi');
  assert.match(read(root, '/etc/passwd'), /^printyard:/m, 'the printyard user (made at build time)');
  const kernels = readdirSync(root.path('/boot')).filter((f) => f.startsWith('vmlinuz-'));
  assert.equal(kernels.length, 1, `one kernel (${kernels.join(' ')})`);
  return {
    enabled: enabled.filter((u) => u.startsWith('printyard')),
    kernel: kernels[0],
    machineIdLink: readlinkSync(root.path('/var/lib/dbus/machine-id')),
  };
}

/** Loads each native addon the services use, with the arm64 Node of the image. */
const ADDONS_SCRIPT = `
const { createRequire } = require('node:module');
const app = createRequire('/opt/printyard/package.json');
const from = (pkg) => createRequire(app.resolve(pkg));
const out = {};
const serial = app.resolve('@serialport/bindings-cpp/package.json');
out.serialport = Object.keys(createRequire(serial)('node-gyp-build')(require('node:path').dirname(serial))).sort();
const { Epoll } = app('epoll');
new Epoll(() => {}).close();
out.epoll = 'epoll fd opened and closed';
out.onoff = { accessible: app('onoff').Gpio.accessible };
out.uws = typeof from('hyper-express')('uWebSockets.js').App;
out.sharp = from('ndarray-pixels')('sharp').versions;
process.stdout.write(JSON.stringify(out));
`;

function checkNode(root) {
  const version = root.run(['/usr/bin/node', '--version']).stdout.trim();
  assert.match(version, /^v20\./, 'Node 20');
  const debian = root.run(['dpkg-query', '-W', 'nodejs']).stdout.trim().split('\t')[1];
  const arch = root.run(['/usr/bin/node', '-p', 'process.arch']).stdout.trim();
  assert.equal(arch, 'arm64');
  const addons = root.run(['/usr/bin/node', '-e', ADDONS_SCRIPT]);
  const loaded = JSON.parse(addons.stdout);
  assert.ok(loaded.serialport.includes('open'), `serialport's binding (${loaded.serialport})`);
  assert.equal(loaded.uws, 'function');
  assert.ok(loaded.sharp.vips, 'sharp with libvips');
  return { node: version, package: `nodejs ${debian}`, arch, addons: loaded, addonSeconds: addons.seconds };
}

/** A 10 mm cube as ASCII STL, 12 facets. */
function cubeStl(size = 10) {
  const v = (x, y, z) => [x * size, y * size, z * size].join(' ');
  const quads = [
    [
      [0, 0, 0],
      [0, 1, 0],
      [1, 1, 0],
      [1, 0, 0],
    ],
    [
      [0, 0, 1],
      [1, 0, 1],
      [1, 1, 1],
      [0, 1, 1],
    ],
    [
      [0, 0, 0],
      [1, 0, 0],
      [1, 0, 1],
      [0, 0, 1],
    ],
    [
      [0, 1, 0],
      [0, 1, 1],
      [1, 1, 1],
      [1, 1, 0],
    ],
    [
      [0, 0, 0],
      [0, 0, 1],
      [0, 1, 1],
      [0, 1, 0],
    ],
    [
      [1, 0, 0],
      [1, 1, 0],
      [1, 1, 1],
      [1, 0, 1],
    ],
  ];
  const facet = (a, b, c) => `facet normal 0 0 0\nouter loop\nvertex ${v(...a)}\nvertex ${v(...b)}\nvertex ${v(...c)}\nendloop\nendfacet\n`;
  return `solid cube\n${quads.map(([a, b, c, d]) => facet(a, b, c) + facet(a, c, d)).join('')}endsolid cube\n`;
}

function checkSlice(root) {
  root.run(['mkdir', '-p', `${STATE}/slice`]);
  root.run(['sh', '-c', `cat > ${STATE}/slice/cube.stl`], { input: cubeStl() });
  const cli = '/opt/printyard/dist/appliance/slicer/cli/printyard-slice.js';
  const out = `${STATE}/slice/cube.gcode`;
  const args = ['--printer', 'generic-marlin-0.4', '--filament', 'generic-pla', '--process', '0.20mm-standard', '--quiet'];
  const r = root.run(['/usr/bin/node', cli, `${STATE}/slice/cube.stl`, '-o', out, ...args]);
  const gcode = readFileSync(root.path(out), 'utf8');
  const moves = gcode.split('\n').filter((l) => /^G1 .*E/.test(l)).length;
  assert.ok(moves > 100, `extruding moves in the G-code (${moves})`);
  return { seconds: r.seconds, bytes: gcode.length, extrudingMoves: moves, summary: r.stderr.trim() };
}

/** ExecStart=, Environment= and User= of a unit of the image, its specifiers moved to STATE. */
function unitCommand(root, unit) {
  const text = read(root, `/usr/lib/systemd/system/${unit}`);
  const values = (key) => [...text.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1].trim());
  const expand = (s) => s.replace(/%[SEC]/g, (spec) => SPECIFIERS[spec]);
  const env = Object.fromEntries(values('Environment').map((kv) => expand(kv).split(/=(.*)/s).slice(0, 2)));
  const [exec] = values('ExecStart');
  assert.ok(exec, `${unit} has ExecStart=`);
  return { argv: expand(exec).split(/\s+/), env, user: values('User')[0] };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function health(port, deadline) {
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5000) });
      const body = await r.json();
      if (r.ok) return body;
      last = `${r.status} ${JSON.stringify(body)}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new Error(`no /api/health on port ${port}: ${last}`);
}

async function checkServices(root) {
  const version = JSON.parse(read(root, '/opt/printyard/package.json')).version;
  const results = {};
  for (const { unit, portVariable } of SERVICES) {
    const { argv, env, user } = unitCommand(root, unit);
    // The folders systemd would make (StateDirectory=…): those of the unit's paths, a file's parent.
    const paths = Object.entries(env).filter(([, value]) => value.startsWith(STATE));
    const folders = new Set(paths.map(([name, value]) => (name.endsWith('_FILE') ? path.dirname(value) : value)));
    root.run(['install', '-d', '-o', user, '-g', user, ...folders]);
    const port = await freePort();
    const t0 = Date.now();
    const child = root.start(argv, { env: { ...env, [portVariable]: String(port) }, user });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    try {
      const answer = await health(port, Date.now() + 240_000);
      assert.equal(answer.ok, true, `${unit}: ${JSON.stringify(answer)}`);
      if ('version' in answer) assert.equal(answer.version, version);
      results[unit] = { user, port, healthSeconds: (Date.now() - t0) / 1000, health: answer };
    } catch (err) {
      throw new Error(`${unit} (${argv.join(' ')}): ${err.message}\n${output.slice(-4000)}`);
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }
  }
  return results;
}

/** Every check of the arm64 root of `image`; `keyring` is the CA the build was given (or none). */
export async function checkRpiRoot(image, { keyring } = {}) {
  const root = ArmRoot.open(image);
  try {
    const files = checkFiles(root, keyring);
    const node = checkNode(root);
    const slice = checkSlice(root);
    const services = await checkServices(root);
    return { files, node, slice, services };
  } finally {
    root.close();
  }
}
