#!/usr/bin/env node
// Installs what is missing before a build, a start or a test run: npm packages (when
// node_modules is absent or older than the lockfile) and, with --debian, the Debian packages the
// tests and benchmarks need. Uses only Node built-ins: it runs before anything is installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Debian packages the test suite and the benchmarks use, with the command that proves each. */
export const DEBIAN_PACKAGES = [
  { pkg: 'python3-shapely', probe: ['/usr/bin/python3', '-c', 'import shapely'] },
  { pkg: 'python3-numpy', probe: ['/usr/bin/python3', '-c', 'import numpy'] },
  { pkg: 'prusa-slicer', probe: ['test', '-d', '/usr/share/PrusaSlicer/profiles'] },
  { pkg: 'cura-engine', probe: ['test', '-x', '/usr/bin/CuraEngine'] },
  { pkg: 'time', probe: ['test', '-x', '/usr/bin/time'] },
  { pkg: 'socat', probe: ['test', '-x', '/usr/bin/socat'] },
  // systemd-notify (the services' sd_notify) and systemd-analyze (the unit checks); python3 is the tests' NOTIFY_SOCKET.
  { pkg: 'systemd', probe: ['test', '-x', '/usr/bin/systemd-analyze'] },
  { pkg: 'python3', probe: ['test', '-x', '/usr/bin/python3'] },
  { pkg: 'mosquitto', probe: ['test', '-x', '/usr/sbin/mosquitto'] },
  { pkg: 'openssl', probe: ['test', '-x', '/usr/bin/openssl'] },
  { pkg: 'zbar-tools', probe: ['test', '-x', '/usr/bin/zbarimg'] },
  { pkg: 'chromium', probe: ['test', '-x', '/usr/bin/chromium'] },
  { pkg: 'python3-zeroconf', probe: ['/usr/bin/python3', '-c', 'import zeroconf'] },
  { pkg: 'iproute2', probe: ['test', '-x', '/bin/ip'] },
  // The mesh tools' tests judge our analysis and repair by admesh's.
  { pkg: 'admesh', probe: ['test', '-x', '/usr/bin/admesh'] },
  // The update tests (image/rauc/, dashboard/system-update/): RAUC (its service too), a private D-Bus,
  // bundles (squashfs), ext4 slot images, and GRUB's script check of the twin's slot choice.
  { pkg: 'rauc', probe: ['test', '-x', '/usr/bin/rauc'] },
  { pkg: 'dbus-daemon', probe: ['test', '-x', '/usr/bin/dbus-daemon'] },
  { pkg: 'squashfs-tools', probe: ['test', '-x', '/usr/bin/mksquashfs'] },
  { pkg: 'e2fsprogs', probe: ['sh', '-c', 'command -v mkfs.ext4'] },
  // The Pi's boot slots (vfat images and slots, read without a mount).
  { pkg: 'dosfstools', probe: ['sh', '-c', 'command -v mkfs.vfat'] },
  { pkg: 'mtools', probe: ['test', '-x', '/usr/bin/mcopy'] },
  { pkg: 'grub-common', probe: ['test', '-x', '/usr/bin/grub-script-check'] },
];

function log(msg) {
  process.stderr.write(`[setup] ${msg}\n`);
}

export function ensureNpm() {
  const lock = join(root, 'package-lock.json');
  const installed = join(root, 'node_modules', '.package-lock.json');
  const stale = !existsSync(installed) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs);
  if (!stale) return;
  log('installing npm packages');
  const args = existsSync(lock) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund'];
  const r = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`npm ${args[0]} failed with status ${r.status}`);
}

function present(probe) {
  return spawnSync(probe[0], probe.slice(1), { stdio: 'ignore' }).status === 0;
}

export function ensureDebian(packages = DEBIAN_PACKAGES) {
  const missing = packages.filter((p) => !present(p.probe)).map((p) => p.pkg);
  if (missing.length === 0) return;
  log(`installing Debian packages: ${missing.join(' ')}`);
  const asRoot = process.getuid?.() === 0;
  const apt = (...args) => {
    const cmd = asRoot ? 'apt-get' : 'sudo';
    const full = asRoot ? args : ['-n', 'apt-get', ...args];
    execFileSync(cmd, full, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  try {
    apt('install', '-y', '--no-install-recommends', ...missing);
  } catch {
    apt('update');
    apt('install', '-y', '--no-install-recommends', ...missing);
  }
}

export function build() {
  log('building');
  // A clean output folder: a test file deleted from test/ must not keep running from dist/.
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const r = spawnSync(tsc, ['-p', join(root, 'tsconfig.json')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('TypeScript build failed');
  bundleCommandLine();
  buildWebApp();
  // The commands run through their first line (the command line's runtime settings live there).
  const { bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const path of Object.values(bin ?? {})) chmodSync(join(root, path), 0o755);
}

/**
 * The slicing command line is replaced by a bundle, and its worker threads get one beside it (the
 * pool starts `./worker.js` next to itself); shared code and what is loaded only on demand (Bambu
 * packages, profile directories) become chunks in the same folder. A slice from the command line
 * otherwise spends 40-50 ms resolving and loading 114 modules, a tenth of a small model's slice;
 * the service and the tests keep using the modules as compiled. npm packages stay outside.
 */
function bundleCommandLine() {
  const cli = join(root, 'dist', 'appliance', 'slicer', 'cli');
  const esbuild = join(root, 'node_modules', '.bin', 'esbuild');
  const r = spawnSync(
    esbuild,
    [
      join(cli, 'printyard-slice.js'),
      join(root, 'dist', 'appliance', 'slicer', 'engine', 'workers', 'worker.js'),
      '--bundle',
      '--splitting',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--packages=external',
      `--outdir=${cli}`,
      '--entry-names=[name]',
      '--allow-overwrite',
      '--sourcemap',
      '--log-level=warning',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (r.status !== 0) throw new Error('bundling the command line failed');
}

/**
 * The browser app (appliance/dashboard/web/): its API types from the dashboard's OpenAPI
 * description, its type check, and its bundle beside the compiled server module that serves it.
 */
function buildWebApp() {
  const r = spawnSync(process.execPath, [join(root, 'dist', 'appliance', 'dashboard', 'web', 'build', 'build-web.js')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('building the web app failed');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = new Set(process.argv.slice(2));
  try {
    ensureNpm();
    if (args.has('--debian')) ensureDebian();
    if (args.has('--build')) build();
  } catch (err) {
    log(err.message);
    process.exit(1);
  }
}
