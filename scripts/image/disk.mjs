// The disk image from the outside, for scripts/test-image.mjs: its GPT (sfdisk --json), files of its
// vfat partitions through mtools (no mount), and the twin's grubenv (RAUC's slot state).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MTOOLS = { ...process.env, MTOOLS_SKIP_CHECK: '1' };

/** The partitions by GPT name: {name: {start, sectors, type}} in 512-byte sectors. */
export function partitions(image) {
  const { partitiontable } = JSON.parse(execFileSync('sfdisk', ['--json', image], { encoding: 'utf8' }));
  return Object.fromEntries(partitiontable.partitions.map((p) => [p.name, { start: p.start, sectors: p.size, type: p.type }]));
}

function vfat(image, partition) {
  return `${image}@@${partitions(image)[partition].start * 512}`;
}

/** The file names (lower case) in a folder of a vfat partition. */
export function listFiles(image, partition, folder = '') {
  const out = execFileSync('mdir', ['-b', '-i', vfat(image, partition), `::${folder}`], { encoding: 'utf8', env: MTOOLS });
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => path.basename(line.trim()).toLowerCase());
}

export function readFile(image, partition, file) {
  return execFileSync('mtype', ['-i', vfat(image, partition), `::${file}`], { encoding: 'utf8', env: MTOOLS });
}

export function grubEnv(image) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'printyard-grubenv-'));
  try {
    const env = path.join(dir, 'grubenv');
    execFileSync('mcopy', ['-i', vfat(image, 'efi'), '::EFI/BOOT/grubenv', env], { env: MTOOLS });
    const text = execFileSync('grub-editenv', [env, 'list'], { encoding: 'utf8' });
    return Object.fromEntries(
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
