/**
 * Debian's mosquitto as the printers' MQTT broker: writes its files (see mosquitto-config.ts),
 * runs /usr/sbin/mosquitto, and can change a printer's access code at run time (rewrite that
 * listener's password file, then SIGHUP: mosquitto reloads the files and drops sessions whose
 * credentials no longer hold) or restart on the same ports and certificates.
 *
 * A wrong password gets CONNACK return code 5 "not authorized" on MQTT 3.1.1 (mosquitto 2.0).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Logger } from '../../../appliance/common/logger.js';
import { brokerFiles, internalAcl, LAN_USER, mosquittoConf, passwordLines, printerAcl, type BrokerLayout } from './mosquitto-config.js';
import { waitForPorts } from './ports.js';

const run = promisify(execFile);

const MOSQUITTO = existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;
const STDERR_KEPT = 4096;

async function hashPasswords(file: string): Promise<void> {
  try {
    await run('mosquitto_passwd', ['-U', file]);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error('mosquitto_passwd is missing (Debian package "mosquitto")');
    throw new Error(`mosquitto_passwd failed on ${file}: ${(e.stderr ?? e.message).trim()}`);
  }
}

/** A host to test the listeners on: a wildcard bind is reachable on loopback. */
function probeHost(bindHost: string): string {
  if (bindHost === '0.0.0.0') return '127.0.0.1';
  if (bindHost === '::') return '::1';
  return bindHost;
}

export class MosquittoBroker {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private stderr = '';
  private readonly files;
  private readonly killOnExit = () => this.child?.kill('SIGKILL');

  constructor(
    private readonly layout: BrokerLayout,
    private readonly log: Logger,
  ) {
    this.files = brokerFiles(layout.dir);
  }

  get running(): boolean {
    return this.child !== null;
  }

  async start(): Promise<void> {
    if (this.child) return;
    await this.writeFiles();
    this.stderr = '';
    const child = spawn(MOSQUITTO, ['-c', this.files.config], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child = child;
    process.on('exit', this.killOnExit);
    let exitReason: string | null = null;
    let ready = false;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_KEPT);
    });
    this.exited = new Promise((resolve) => {
      child.once('error', (err) => {
        exitReason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'mosquitto is missing (Debian package "mosquitto")' : err.message;
        resolve();
      });
      child.once('exit', (code, signal) => {
        exitReason ??= `mosquitto exited (${code ?? signal}): ${this.errorText()}`;
        if (this.child === child) {
          this.child = null;
          process.off('exit', this.killOnExit);
          if (ready) this.log.warn('broker stopped unexpectedly', { reason: exitReason });
        }
        resolve();
      });
    });
    const ports = [this.layout.internalPort, ...this.layout.listeners.map((l) => l.port)];
    try {
      await waitForPorts(probeHost(this.layout.bindHost), ports, START_TIMEOUT_MS, () => exitReason);
    } catch (err) {
      await this.stop();
      throw err;
    }
    ready = true;
    this.log.debug('broker listening', { ports: ports.join(',') });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    process.off('exit', this.killOnExit);
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.kill('SIGTERM');
    await this.exited;
    clearTimeout(timer);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Makes the broker accept `code` (and only it) for `bblp` on the printer's listener. */
  async setAccessCode(serial: string, code: string): Promise<void> {
    const listener = this.layout.listeners.find((l) => l.serial === serial);
    if (!listener) throw new Error(`no listener for printer ${serial}`);
    listener.accessCode = code;
    const file = this.files.printerPasswords(serial);
    writeFileSync(file, passwordLines([{ user: LAN_USER, password: code }]), { mode: 0o600 });
    await hashPasswords(file);
    this.child?.kill('SIGHUP');
  }

  private async writeFiles(): Promise<void> {
    const { layout, files } = this;
    writeFileSync(files.config, mosquittoConf(layout));
    writeFileSync(files.internalAcl, internalAcl(layout.internalUsers));
    writeFileSync(files.internalPasswords, passwordLines(layout.internalUsers.map((u) => ({ user: u.name, password: u.password }))), { mode: 0o600 });
    const hashing = [hashPasswords(files.internalPasswords)];
    for (const l of layout.listeners) {
      writeFileSync(files.printerAcl(l.serial), printerAcl(l.serial));
      writeFileSync(files.printerPasswords(l.serial), passwordLines([{ user: LAN_USER, password: l.accessCode }]), { mode: 0o600 });
      hashing.push(hashPasswords(files.printerPasswords(l.serial)));
    }
    await Promise.all(hashing);
  }

  /** Why mosquitto stopped: its stderr (config errors) or the end of its log (bind errors). */
  private errorText(): string {
    const stderr = this.stderr.split('\n').filter((line) => line.trim() !== '' && !/should not be run as root/.test(line));
    if (stderr.length > 0) return stderr.join(' | ');
    try {
      return readFileSync(this.files.log, 'utf8').trim().split('\n').slice(-3).join(' | ');
    } catch {
      return 'no log';
    }
  }
}
