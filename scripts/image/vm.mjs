// One QEMU run of the amd64 twin for scripts/test-image.mjs: its disk, serial console log (kept
// across the box's own reboots), monitor socket and a hostfwd of the dashboard's port to 127.0.0.1 only.
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

export class TwinVm {
  constructor({ disk, dir, accel, dashboardPort, memoryMb = 2048 }) {
    this.disk = disk;
    this.serialLog = path.join(dir, 'serial.log');
    this.varsFile = path.join(dir, 'OVMF_VARS.fd');
    this.monitorSocket = path.join(dir, 'monitor.sock');
    this.accel = accel;
    this.dashboardPort = dashboardPort;
    this.memoryMb = memoryMb;
  }

  start() {
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
    this.process = spawn('qemu-system-x86_64', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.stderr = '';
    this.process.stderr.on('data', (chunk) => {
      this.stderr += chunk;
    });
    this.exited = once(this.process, 'exit');
    // QEMU leaving on its own (or killed) is worth a line: later steps only see refused connections.
    this.process.on('exit', (code, signal) => {
      process.stderr.write(`[test:image] QEMU exited (code ${code}, signal ${signal}) ${this.stderr.trim().slice(-500)}\n`);
    });
  }

  serial() {
    return existsSync(this.serialLog) ? readFileSync(this.serialLog, 'latin1') : '';
  }

  /** Waits until the serial console shows `pattern`; throws with the console's end on timeout or exit. */
  async waitForSerial(pattern, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    this.exited.then(() => {
      exited = true;
    });
    while (Date.now() < deadline && !exited) {
      const match = pattern.exec(this.serial());
      if (match) return { match, seconds: (Date.now() - this.started) / 1000 };
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const why = exited ? `QEMU exited: ${this.stderr.slice(-800)}` : `no ${pattern} in ${timeoutMs / 1000} s`;
    throw new Error(`${why}\n--- serial console (end) ---\n${this.serial().slice(-3000)}`);
  }

  /** One monitor command (`quit` cuts the power at once). */
  async monitor(command) {
    const socket = net.connect(this.monitorSocket);
    await once(socket, 'connect');
    socket.end(`${command}\n`);
    await once(socket, 'close');
  }

  /**
   * Cuts the power and waits for QEMU to leave. Each wait is bounded (a run once ended with Node's
   * "unsettled top-level await" after QEMU had exited): past it QEMU is killed and the run goes on.
   */
  async stop() {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    await within(this.monitor('quit'), 10_000, 'the monitor quit').catch(() => this.process.kill('SIGKILL'));
    await within(this.exited, 30_000, 'QEMU exit').catch(() => this.process.kill('SIGKILL'));
  }
}
