// One QEMU machine of the amd64 twin for scripts/test-image.mjs: its disk, serial console log per
// QEMU run (kept across the box's own reboots), monitor socket and a hostfwd of the dashboard's
// port to 127.0.0.1 only. The same machine can be started again on its disk after a power cut.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export async function freePort() {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  return port;
}

/** `promise`, or a rejection naming `what` after `ms` (a timer that keeps the process alive meanwhile). */
function within(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The first line of each boot's self-test report (image/rootfs/common/usr/lib/printyard/selftest.mjs). */
const FIRST_LINE = 'PRINTYARD-SELFTEST {"check":"units"';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The self-test's lines on a piece of serial console, by check (the last of each wins). */
export function selftestReports(serial) {
  const out = {};
  for (const match of serial.matchAll(/PRINTYARD-SELFTEST (\{.*\})\r?$/gm)) {
    const report = JSON.parse(match[1]);
    out[report.check] = report;
  }
  return out;
}

export class TwinVm {
  constructor({ disk, dir, accel, dashboardPort, memoryMb = 2048 }) {
    this.disk = disk;
    this.dir = dir;
    this.varsFile = path.join(dir, 'OVMF_VARS.fd');
    this.monitorSocket = path.join(dir, 'monitor.sock');
    this.accel = accel;
    this.dashboardPort = dashboardPort;
    this.memoryMb = memoryMb;
    this.runs = 0;
  }

  /** Powers the machine on; each run has its own console log (serial.log, serial-2.log, …). */
  start() {
    this.runs += 1;
    this.serialLog = path.join(this.dir, this.runs === 1 ? 'serial.log' : `serial-${this.runs}.log`);
    rmSync(this.serialLog, { force: true });
    rmSync(this.monitorSocket, { force: true });
    if (!existsSync(this.varsFile)) copyFileSync('/usr/share/OVMF/OVMF_VARS_4M.fd', this.varsFile);
    // UEFI (OVMF) like the twin's real firmware. TCG by default: this machine's nested KVM stops
    // OVMF, GRUB and the kernel's decompressor with "emulation failure" (image/README.md).
    const args = [
      ...(this.accel === 'kvm' ? ['-enable-kvm', '-cpu', 'host'] : ['-accel', 'tcg', '-cpu', 'max']),
      ['-drive', 'if=pflash,format=raw,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd'],
      ['-drive', `if=pflash,format=raw,file=${this.varsFile}`],
      // Only a hypervisor sets this entry: it starts the image's self-test report (printyard-selftest.service).
      ['-fw_cfg', 'name=opt/printyard/selftest,string=1'],
      ['-m', String(this.memoryMb)],
      ['-smp', '2'],
      ['-display', 'none'],
      ['-drive', `if=virtio,format=raw,file=${this.disk}`],
      ['-netdev', `user,id=n0,hostfwd=tcp:127.0.0.1:${this.dashboardPort}-:3000`],
      ['-device', 'virtio-net-pci,netdev=n0'],
      ['-serial', `file:${this.serialLog}`],
      ['-monitor', `unix:${this.monitorSocket},server,nowait`],
    ].flat();
    this.started = Date.now();
    const qemu = spawn('qemu-system-x86_64', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.process = qemu;
    this.stderr = '';
    qemu.stderr.on('data', (chunk) => {
      this.stderr += chunk;
    });
    this.exited = once(qemu, 'exit');
    // QEMU leaving on its own (or killed) is worth a line: later steps only see refused connections.
    qemu.on('exit', (code, signal) => {
      process.stderr.write(`[test:image] QEMU exited (code ${code}, signal ${signal}) ${this.stderr.trim().slice(-500)}\n`);
    });
  }

  get running() {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  /** The console of this QEMU run, from byte `from` on. */
  serial(from = 0) {
    return existsSync(this.serialLog) ? readFileSync(this.serialLog, 'latin1').slice(from) : '';
  }

  /** Where the console ends now: pass it to waitForBoot() to look only at what comes after. */
  serialMark() {
    return this.serial().length;
  }

  /** Waits until the serial console shows `pattern`; throws with the console's end on timeout or exit. */
  async waitForSerial(pattern, timeoutMs, from = 0) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && this.running) {
      const match = pattern.exec(this.serial(from));
      if (match) return { match, seconds: (Date.now() - this.started) / 1000 };
      await sleep(1000);
    }
    const why = this.running ? `no ${pattern} in ${timeoutMs / 1000} s` : `QEMU exited: ${this.stderr.slice(-800)}`;
    throw new Error(`${why}\n--- serial console (end) ---\n${this.serial().slice(-3000)}`);
  }

  /**
   * Waits for a complete self-test report after console byte `from` from a boot of `slot` (its
   * kernel command line's rauc.slot=); returns the report and the GRUB entries booted meanwhile.
   */
  async waitForBoot(from, slot, timeoutMs) {
    const t0 = Date.now();
    const deadline = t0 + timeoutMs;
    while (Date.now() < deadline && this.running) {
      const text = this.serial(from);
      // Only the last boot's report: an earlier boot's `done` must not complete a later one.
      const report = selftestReports(text.slice(Math.max(0, text.lastIndexOf(FIRST_LINE))));
      if (report.done && report.system?.cmdline.includes(`rauc.slot=${slot}`)) {
        return { report, seconds: (Date.now() - t0) / 1000, grubEntries: grubEntries(text) };
      }
      await sleep(3000);
    }
    const why = this.running ? `no self-test report from slot ${slot} in ${timeoutMs / 1000} s` : `QEMU exited: ${this.stderr.slice(-800)}`;
    throw new Error(`${why}\n--- serial console (end) ---\n${this.serial().slice(-3000)}`);
  }

  /** One monitor command. */
  async monitor(command) {
    const socket = net.connect(this.monitorSocket);
    await once(socket, 'connect');
    // QEMU's banner and answers must be read: a socket whose readable side is never consumed sees
    // no end and never closes, which left the stop without any live handle (Node's exit 13).
    socket.resume();
    socket.end(`${command}\n`);
    await once(socket, 'close');
  }

  /** The power cut: SIGKILL, no shutdown of the guest, no flush by QEMU. */
  async kill() {
    if (!this.running) return;
    this.process.kill('SIGKILL');
    await within(this.exited, 30_000, 'QEMU exit after SIGKILL');
  }

  /** Cuts the power through the monitor (`quit`) and waits for QEMU to leave; each wait bounded. */
  async stop() {
    if (!this.running) return;
    await within(this.monitor('quit'), 10_000, 'the monitor quit').catch(() => this.process.kill('SIGKILL'));
    await within(this.exited, 30_000, 'QEMU exit').catch(() => this.process.kill('SIGKILL'));
  }
}

/** GRUB's menu entries in the order shown (`Printyard (slot A)`; repeats of one drawing collapsed). */
function grubEntries(serial) {
  const entries = [...serial.matchAll(/Printyard \(slot ([AB])\)/g)].map((m) => m[1]);
  return entries.filter((slot, i) => i === 0 || entries[i - 1] !== slot);
}
