// CuraEngine needs fdmprinter.def.json and fdmextruder.def.json, which Debian ships in the `cura`
// GUI package, not in `cura-engine`. Rather than installing the GUI, the .deb is downloaded into
// .cache/peers/ (gitignored) and only resources/definitions/*.def.json is kept. The package
// version must match the installed engine: the settings table changes between Cura releases.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ENGINE = '/usr/bin/CuraEngine';

/** "4.13" of "Cura_SteamEngine version 4.13.0", the major.minor the definitions must match. */
export function curaEngineRelease() {
  const banner = spawnSync(ENGINE, ['help'], { encoding: 'utf8' });
  const m = /version (\d+\.\d+)/.exec(`${banner.stdout}${banner.stderr}`);
  if (!m) throw new Error(`cannot read the version of ${ENGINE}`);
  return m[1];
}

function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

/** Path of fdmprinter.def.json for the installed CuraEngine, fetching the definitions once. */
export function ensureCuraDefinitions(root) {
  const release = curaEngineRelease();
  const cache = join(root, '.cache', 'peers');
  const dir = join(cache, `cura-${release}`, 'definitions');
  const printer = join(dir, 'fdmprinter.def.json');
  if (existsSync(printer) && existsSync(join(dir, 'fdmextruder.def.json'))) return printer;

  mkdirSync(cache, { recursive: true });
  let deb = readdirSync(cache).find((f) => f.startsWith(`cura_${release}.`) && f.endsWith('.deb'));
  if (!deb) {
    log(`downloading Debian's cura ${release} package for its setting definitions`);
    execFileSync('apt-get', ['download', 'cura'], { cwd: cache, stdio: ['ignore', 'ignore', 'inherit'] });
    deb = readdirSync(cache).find((f) => f.startsWith('cura_') && f.endsWith('.deb'));
    const version = deb && execFileSync('dpkg-deb', ['-f', join(cache, deb), 'Version'], { encoding: 'utf8' }).trim();
    if (!version?.startsWith(`${release}.`)) {
      throw new Error(
        `apt-get download cura gave ${deb ?? 'nothing'}, not release ${release}: run apt-get download cura=<${release} version> in ${cache}`,
      );
    }
  }
  const unpacked = mkdtempSync(join(tmpdir(), 'printyard-cura-deb-'));
  try {
    execFileSync('dpkg-deb', ['-x', join(cache, deb), unpacked]);
    const source = join(unpacked, 'usr', 'share', 'cura', 'resources', 'definitions');
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(source).filter((f) => f.endsWith('.def.json'))) copyFileSync(join(source, file), join(dir, file));
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
  if (!existsSync(printer)) throw new Error(`the cura package has no fdmprinter.def.json under resources/definitions`);
  return printer;
}
