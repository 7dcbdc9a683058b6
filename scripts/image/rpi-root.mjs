// The Pi image's arm64 root file system, opened on this amd64 machine: slot A's partition of the
// disk image loop-mounted read-only (as the box mounts it), with /proc, /sys, /dev and tmpfs
// folders for /tmp and /run, and its programs run in a chroot through qemu-user-static
// (binfmt_misc, registered by image/build/binfmt.sh). Needs root.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { partitions } from './disk.mjs';

/** The environment of every program run in the root: nothing of the host's but a PATH. */
const BASE_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin', HOME: '/tmp', LANG: 'C.UTF-8' };

export class ArmRoot {
  /** The mounted slot: host paths of its files are `root.path('/etc/fstab')`. */
  #dir;
  #mounts = [];

  constructor(dir) {
    this.#dir = dir;
  }

  /** Mounts `partition` (rootfs-a) of `image` read-only with what programs need around it. */
  static open(image, partition = 'rootfs-a') {
    const slot = partitions(image)[partition];
    if (!slot) throw new Error(`${image} has no partition ${partition}`);
    const root = new ArmRoot(mkdtempSync(path.join(os.tmpdir(), 'printyard-rpi-root-')));
    try {
      const loop = `loop,ro,offset=${slot.start * 512},sizelimit=${slot.sectors * 512}`;
      root.#mount(['-t', 'ext4', '-o', loop, image], '/');
      root.#mount(['-t', 'proc', 'proc'], '/proc');
      root.#mount(['-t', 'sysfs', '-o', 'ro', 'sysfs'], '/sys');
      root.#mount(['--bind', '/dev'], '/dev');
      root.#mount(['-t', 'tmpfs', '-o', 'mode=1777', 'tmpfs'], '/tmp');
      root.#mount(['-t', 'tmpfs', '-o', 'mode=0755', 'tmpfs'], '/run');
    } catch (err) {
      root.close();
      throw err;
    }
    return root;
  }

  #mount(args, target) {
    const where = this.path(target);
    execFileSync('mount', [...args, where], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.#mounts.push(where);
  }

  path(file) {
    return path.join(this.#dir, file);
  }

  /** Runs a program of the root; `user` as the unit's User= (chroot --userspec). */
  run(argv, { env = {}, user, input, timeoutMs = 600_000 } = {}) {
    const t0 = Date.now();
    const r = spawnSync('chroot', [...(user ? [`--userspec=${user}:${user}`] : []), this.#dir, ...argv], {
      encoding: 'utf8',
      env: { ...BASE_ENV, ...env },
      timeout: timeoutMs,
      ...(input === undefined ? {} : { input }),
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (Date.now() - t0) / 1000;
    if (r.error) throw new Error(`${argv.join(' ')} in the arm64 root: ${r.error.message}`);
    if (r.status !== 0) throw new Error(`${argv.join(' ')} in the arm64 root exited ${r.status}:\n${r.stdout}${r.stderr}`);
    return { stdout: r.stdout, stderr: r.stderr, seconds };
  }

  /** Starts a long-running program of the root (a service); the caller stops it. */
  start(argv, { env = {}, user } = {}) {
    return spawn('chroot', [...(user ? [`--userspec=${user}:${user}`] : []), this.#dir, ...argv], {
      env: { ...BASE_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  close() {
    for (const where of this.#mounts.reverse()) {
      const r = spawnSync('umount', [where]);
      if (r.status !== 0) spawnSync('umount', ['-l', where]);
    }
    this.#mounts = [];
    try {
      rmdirSync(this.#dir);
    } catch {
      // A lazy unmount still in progress: the empty temp folder stays.
    }
  }
}
