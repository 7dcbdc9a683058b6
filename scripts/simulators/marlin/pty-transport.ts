/**
 * The USB cable of the virtual printer: a pty pair made by socat,
 * `socat -d -d pty,raw,echo=0,link=<dir>/printer pty,raw,echo=0,wait-slave,link=<dir>/host`.
 * The simulator holds the printer end (opened with serialport); a host opens `<dir>/host` as it
 * would open /dev/ttyUSB0.
 *
 * `wait-slave` makes socat start moving bytes only once a host has opened its end and logs
 * "starting data transfer loop" then; when the host closes, socat ends. So the link tells when a
 * host opens the port (a real board with a USB-serial chip resets then, through DTR) and when it
 * closes it; after a close socat is started again at once, so the port can be opened again.
 * Pulling the cable stops socat: the host's open port fails and the path disappears until the
 * cable is put back. What the printer writes while no host has the port open is lost.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type { SerialPort } from 'serialport';
import { openTty } from '../../../appliance/hardware/serial/tty-port.js';

const READY_TIMEOUT_MS = 5000;
const LINK_POLL_MS = 10;
/** How often socat checks whether the host opened its end (seconds). */
const HOST_POLL_SECONDS = 0.02;
/** How long socat lingers after the host closed its end (seconds). */
const LINGER_SECONDS = 0.05;

export interface PtyLinkEvents {
  data: [text: string];
  'host-open': [];
  'host-close': [];
  error: [err: Error];
}

function removeStaleLink(file: string): void {
  try {
    if (lstatSync(file).isSymbolicLink()) unlinkSync(file);
  } catch {
    // Nothing there: nothing to remove.
  }
}

function linkExists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

export class PtyLink extends EventEmitter<PtyLinkEvents> {
  readonly dir: string;
  readonly printerPath: string;
  readonly hostPath: string;
  private readonly socat: string;
  private child: ChildProcess | null = null;
  /** The socat whose host link is up (a socat that failed to start is never live). */
  private liveChild: ChildProcess | null = null;
  private port: SerialPort | null = null;
  private connected = false;
  private plugged = false;
  private starting: Promise<void> = Promise.resolve();
  private readyWaiters: Array<() => void> = [];

  constructor(dir: string, socat = 'socat') {
    super();
    this.dir = dir;
    this.printerPath = path.join(dir, 'printer');
    this.hostPath = path.join(dir, 'host');
    this.socat = socat;
  }

  /** True while a host has the port open. */
  get hostConnected(): boolean {
    return this.connected;
  }

  get cablePlugged(): boolean {
    return this.plugged;
  }

  /**
   * Resolves when a host can open the port: the cable is in, socat is up and no host has the port
   * (after a host closes it, once socat has been started again).
   */
  whenReady(): Promise<void> {
    if (this.liveChild && !this.connected) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Puts the cable in: starts socat and opens the printer end; resolves when a host can open it. */
  async plug(): Promise<void> {
    if (this.plugged) return this.starting;
    this.plugged = true;
    this.starting = this.start();
    return this.starting;
  }

  /** Pulls the cable: the host's port fails and the host path disappears. */
  async unplug(): Promise<void> {
    if (!this.plugged) return;
    this.plugged = false;
    await this.starting.catch(() => undefined);
    await this.stopSocat();
  }

  /** Writes to the host; dropped (false) when no host has the port open, as on a real line. */
  write(text: string): boolean {
    if (!this.connected || !this.port?.isOpen) return false;
    this.port.write(Buffer.from(text, 'latin1'));
    return true;
  }

  private async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    removeStaleLink(this.printerPath);
    removeStaleLink(this.hostPath);
    const child = spawn(
      this.socat,
      [
        '-d',
        '-d',
        '-t',
        String(LINGER_SECONDS),
        `pty,raw,echo=0,link=${this.printerPath}`,
        `pty,raw,echo=0,wait-slave,pty-interval=${HOST_POLL_SECONDS},link=${this.hostPath}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.child = child;
    const ptys = await this.readPtys(child);
    await this.openPrinterEnd(ptys[0]);
    await this.waitForLink(child);
    this.liveChild = child;
    if (!this.connected) {
      const waiters = this.readyWaiters;
      this.readyWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Follows socat's log: the two pty names, then the host's open; rejects if socat fails first. */
  private readPtys(child: ChildProcess): Promise<string[]> {
    return new Promise((resolve, reject) => {
      let log = '';
      const ptys: string[] = [];
      const timer = setTimeout(() => fail(new Error(`socat did not create the ptys in time:\n${log}`)), READY_TIMEOUT_MS);
      const fail = (err: Error) => {
        clearTimeout(timer);
        child.kill('SIGTERM');
        reject(err);
      };
      child.once('error', (err: NodeJS.ErrnoException) => {
        fail(err.code === 'ENOENT' ? new Error(`${this.socat} not found: install the Debian package socat`) : err);
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        log += text;
        for (const m of text.matchAll(/PTY is (\S+)/g)) ptys.push(m[1]);
        if (ptys.length === 2) {
          clearTimeout(timer);
          resolve(ptys);
        }
        if (/starting data transfer loop/.test(text)) this.hostOpened();
      });
      child.once('exit', (code, signal) => {
        if (ptys.length < 2) fail(new Error(`socat exited (${code ?? signal}) before creating the ptys:\n${log}`));
        this.socatExited(child);
      });
    });
  }

  private async openPrinterEnd(ptyPath: string): Promise<void> {
    const port = await openTty(ptyPath);
    // Socat forwards nothing before a host opened its end, so data means a host is there.
    port.on('data', (data: Buffer) => {
      this.hostOpened();
      this.emit('data', data.toString('latin1'));
    });
    // The pty goes away with socat (host closed, cable pulled); that is handled on socat's exit.
    port.on('error', () => undefined);
    this.port = port;
  }

  private async waitForLink(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!linkExists(this.hostPath)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error('socat exited before the host link appeared');
      if (Date.now() > deadline) throw new Error(`socat did not create ${this.hostPath} in time`);
      await new Promise((resolve) => setTimeout(resolve, LINK_POLL_MS));
    }
  }

  private hostOpened(): void {
    if (this.connected) return;
    this.connected = true;
    this.emit('host-open');
  }

  private socatExited(child: ChildProcess): void {
    if (child !== this.child) return;
    const wasLive = child === this.liveChild;
    const hostWasConnected = this.connected;
    this.child = null;
    this.liveChild = null;
    this.closePort();
    if (hostWasConnected) {
      this.connected = false;
      this.emit('host-close');
    }
    // A socat that never came up makes start() fail; an unplugged cable stays out.
    if (!wasLive || !this.plugged) return;
    if (hostWasConnected) {
      // The host closed its end: make the port available again, as a real device stays plugged in.
      this.starting = this.start();
      this.starting.catch((err: Error) => this.emit('error', err));
    } else {
      this.plugged = false;
      this.emit('error', new Error('socat stopped unexpectedly; the virtual cable is out'));
    }
  }

  private closePort(): void {
    const port = this.port;
    this.port = null;
    if (port?.isOpen) port.close(() => undefined);
  }

  private stopSocat(): Promise<void> {
    const child = this.child;
    this.closePort();
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}
