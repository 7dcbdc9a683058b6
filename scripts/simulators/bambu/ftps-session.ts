/**
 * One control connection of the printer's FTPS server, answering as the printer's vsftpd does:
 * login as `bblp` with the access code, `PBSZ 0` / `PROT P`, passive data connections only (PASV
 * or EPSV), and each data connection must be TLS resuming the control connection's session —
 * otherwise `522 SSL connection failed: session reuse required` (vsftpd's `require_ssl_reuse`).
 * Transfers without `PROT P` get `522 Data connections must be encrypted.`
 *
 * Commands run one at a time in arrival order; a client may pipeline them.
 */
import { createReadStream, createWriteStream, promises as fsp, type Stats } from 'node:fs';
import net from 'node:net';
import { pipeline } from 'node:stream/promises';
import type tls from 'node:tls';
import type { Logger } from '../../../appliance/common/logger.js';
import { PassiveChannel, type TlsMaterial } from './ftps-data.js';
import { LAN_USER } from './mosquitto-config.js';
import { ftpTime, listLine, mlsdLine, type SdCard } from './sd-card.js';

const MAX_LINE = 8192;
const IDLE_TIMEOUT_MS = 300_000;
const FEATURES = ['EPSV', 'MDTM', 'PASV', 'PBSZ', 'PROT', 'SIZE', 'TVFS', 'UTF8'];
const BEFORE_LOGIN = new Set(['USER', 'PASS', 'QUIT', 'FEAT', 'SYST', 'PBSZ', 'PROT', 'NOOP', 'OPTS']);

export interface SessionContext {
  sd: SdCard;
  tls: TlsMaterial;
  /** The code the printer accepts now (it changes under the wrong-access-code fault). */
  accessCode: () => string;
  log: Logger;
  /** Called after a file was stored, with its card path. */
  onStored?: (virtualPath: string) => void;
}

type Handler = (arg: string) => Promise<void> | void;
type ListKind = 'LIST' | 'NLST' | 'MLSD';

/** How each listing command shows one entry: `ls -l` style, machine-readable facts, or the bare name. */
const LISTING_LINE: Record<ListKind, (name: string, stats: Stats) => string> = {
  LIST: listLine,
  MLSD: mlsdLine,
  NLST: (name) => name,
};

export class FtpsSession {
  private buffer = '';
  private readonly queue: string[] = [];
  private busy = false;
  private user: string | null = null;
  private loggedIn = false;
  private protP = false;
  private cwd = '/';
  private renameFrom: string | null = null;
  private passive: PassiveChannel | null = null;
  private readonly handlers: Record<string, Handler>;

  constructor(
    private readonly socket: tls.TLSSocket,
    private readonly ctx: SessionContext,
  ) {
    this.handlers = {
      USER: (a) => this.userCommand(a),
      PASS: (a) => this.pass(a),
      SYST: () => this.reply(215, 'UNIX Type: L8'),
      FEAT: () => this.write(`211-Features:\r\n${FEATURES.map((f) => ` ${f}\r\n`).join('')}211 End\r\n`),
      OPTS: (a) => (/^UTF8 ON$/i.test(a) ? this.reply(200, 'Always in UTF8 mode.') : this.reply(501, 'Option not understood.')),
      NOOP: () => this.reply(200, 'NOOP ok.'),
      PBSZ: () => this.reply(200, 'PBSZ set to 0.'),
      PROT: (a) => this.prot(a),
      TYPE: (a) => this.type(a),
      PWD: () => this.reply(257, `"${this.cwd}" is the current directory`),
      XPWD: () => this.reply(257, `"${this.cwd}" is the current directory`),
      CWD: (a) => this.cwdCommand(a),
      CDUP: () => this.cwdCommand('..'),
      MKD: (a) => this.mkd(a),
      RMD: (a) => this.fsOp(() => fsp.rmdir(this.real(a)), 250, 'Remove directory operation successful.', 'Remove directory operation failed.'),
      DELE: (a) => this.fsOp(() => fsp.unlink(this.real(a)), 250, 'Delete operation successful.', 'Delete operation failed.'),
      RNFR: (a) => this.rnfr(a),
      RNTO: (a) => this.rnto(a),
      SIZE: (a) => this.size(a),
      MDTM: (a) => this.mdtm(a),
      PASV: () => this.pasv(false),
      EPSV: () => this.pasv(true),
      PORT: () => this.reply(500, 'Illegal PORT command.'),
      EPRT: () => this.reply(500, 'Illegal EPRT command.'),
      STOR: (a) => this.stor(a),
      RETR: (a) => this.retr(a),
      LIST: (a) => this.list(a, 'LIST'),
      NLST: (a) => this.list(a, 'NLST'),
      MLSD: (a) => this.list(a, 'MLSD'),
      ABOR: () => this.reply(225, 'No transfer to ABOR.'),
      QUIT: () => this.quit(),
    };
    socket.setEncoding('utf8');
    socket.setTimeout(IDLE_TIMEOUT_MS, () => {
      this.reply(421, 'Timeout.');
      socket.end();
    });
    socket.on('data', (text: string) => this.receive(text));
    socket.on('error', (err) => ctx.log.debug('control connection error', { error: err.message }));
    socket.on('close', () => this.passive?.close());
    this.reply(220, '(vsFTPd 3.0.3)');
  }

  private receive(text: string): void {
    this.buffer += text;
    let nl = this.buffer.indexOf('\n');
    while (nl >= 0) {
      this.queue.push(this.buffer.slice(0, nl).replace(/\r$/, ''));
      this.buffer = this.buffer.slice(nl + 1);
      nl = this.buffer.indexOf('\n');
    }
    if (this.buffer.length > MAX_LINE) {
      this.reply(500, 'Input line too long.');
      this.socket.destroy();
      return;
    }
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    while (this.queue.length > 0 && !this.socket.destroyed) {
      const line = this.queue.shift() as string;
      try {
        await this.execute(line);
      } catch (err) {
        this.ctx.log.warn('FTP command failed', { command: line.split(' ')[0], error: (err as Error).message });
        this.reply(451, 'Requested action aborted: local error in processing.');
      }
    }
    this.busy = false;
  }

  private async execute(line: string): Promise<void> {
    const space = line.indexOf(' ');
    const verb = (space < 0 ? line : line.slice(0, space)).toUpperCase();
    const arg = space < 0 ? '' : line.slice(space + 1);
    const handler = this.handlers[verb];
    if (!handler) return this.reply(500, 'Unknown command.');
    if (!this.loggedIn && !BEFORE_LOGIN.has(verb)) return this.reply(530, 'Please login with USER and PASS.');
    if (verb !== 'RNFR' && verb !== 'RNTO') this.renameFrom = null;
    await handler(arg);
  }

  private write(text: string): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(text);
  }

  private reply(code: number, message: string): void {
    this.write(`${code} ${message}\r\n`);
  }

  private real(arg: string): string {
    return this.ctx.sd.realPath(this.ctx.sd.virtualPath(this.cwd, arg));
  }

  private userCommand(name: string): void {
    this.user = name;
    this.loggedIn = false;
    this.reply(331, 'Please specify the password.');
  }

  private pass(password: string): void {
    if (this.user === null) {
      this.reply(503, 'Login with USER first.');
    } else if (this.user === LAN_USER && password === this.ctx.accessCode()) {
      this.loggedIn = true;
      this.reply(230, 'Login successful.');
    } else {
      this.user = null;
      this.reply(530, 'Login incorrect.');
    }
  }

  private prot(level: string): void {
    const l = level.toUpperCase();
    if (l === 'P') {
      this.protP = true;
      this.reply(200, 'PROT now Private.');
    } else if (l === 'C') {
      this.reply(521, 'Data connections must be encrypted.');
    } else {
      this.reply(504, 'Bad PROT.');
    }
  }

  private type(arg: string): void {
    const t = arg.toUpperCase();
    if (t === 'I' || t === 'L 8') this.reply(200, 'Switching to Binary mode.');
    else if (t === 'A' || t === 'A N') this.reply(200, 'Switching to ASCII mode.');
    else this.reply(500, 'Unrecognised TYPE command.');
  }

  private async cwdCommand(arg: string): Promise<void> {
    const target = this.ctx.sd.virtualPath(this.cwd, arg);
    const stats = await fsp.stat(this.ctx.sd.realPath(target)).catch(() => null);
    if (!stats?.isDirectory()) return this.reply(550, 'Failed to change directory.');
    this.cwd = target;
    this.reply(250, 'Directory successfully changed.');
  }

  private async mkd(arg: string): Promise<void> {
    const target = this.ctx.sd.virtualPath(this.cwd, arg);
    await this.fsOp(() => fsp.mkdir(this.ctx.sd.realPath(target)), 257, `"${target}" created`, 'Create directory operation failed.');
  }

  private async fsOp(op: () => Promise<unknown>, okCode: number, ok: string, failed: string): Promise<void> {
    try {
      await op();
      this.reply(okCode, ok);
    } catch {
      this.reply(550, failed);
    }
  }

  private async rnfr(arg: string): Promise<void> {
    const from = this.real(arg);
    if (!(await fsp.stat(from).catch(() => null))) return this.reply(550, 'RNFR command failed.');
    this.renameFrom = from;
    this.reply(350, 'Ready for RNTO.');
  }

  private async rnto(arg: string): Promise<void> {
    const from = this.renameFrom;
    this.renameFrom = null;
    if (from === null) return this.reply(503, 'RNFR required first.');
    await this.fsOp(() => fsp.rename(from, this.real(arg)), 250, 'Rename successful.', 'Rename failed.');
  }

  private async size(arg: string): Promise<void> {
    const stats = await fsp.stat(this.real(arg)).catch(() => null);
    if (!stats?.isFile()) return this.reply(550, 'Could not get file size.');
    this.reply(213, String(stats.size));
  }

  private async mdtm(arg: string): Promise<void> {
    const stats = await fsp.stat(this.real(arg)).catch(() => null);
    if (!stats?.isFile()) return this.reply(550, 'Could not get file modification time.');
    this.reply(213, ftpTime(stats.mtime));
  }

  private async pasv(extended: boolean): Promise<void> {
    this.passive?.close();
    this.passive = null;
    const local = this.socket.localAddress ?? '127.0.0.1';
    const ipv4 = ipv4Of(local);
    if (!extended && ipv4 === null) return this.reply(425, 'PASV is IPv4 only; use EPSV.');
    this.passive = await PassiveChannel.open(this.ctx.tls, local, this.socket.remoteAddress);
    const port = this.passive.port;
    if (extended) return this.reply(229, `Entering Extended Passive Mode (|||${port}|)`);
    this.reply(227, `Entering Passive Mode (${(ipv4 as string).split('.').join(',')},${port >> 8},${port & 255}).`);
  }

  /**
   * The common part of every transfer: checks, 150, the data connection and its TLS session
   * reuse, then `move` and the closing reply. `move` rejects when the transfer broke.
   */
  private async transfer(opening: string, done: string, move: (data: tls.TLSSocket) => Promise<void>): Promise<void> {
    const channel = this.passive;
    this.passive = null;
    if (!this.protP) {
      channel?.close();
      return this.reply(522, 'Data connections must be encrypted.');
    }
    if (!channel) return this.reply(425, 'Use PORT or PASV first.');
    this.reply(150, opening);
    let data: tls.TLSSocket;
    try {
      data = await channel.accept();
    } catch (err) {
      this.ctx.log.debug('no data connection', { error: (err as Error).message });
      return this.reply(425, 'Failed to establish connection.');
    }
    if (!data.isSessionReused()) {
      data.destroy();
      return this.reply(522, 'SSL connection failed: session reuse required');
    }
    data.on('error', () => {});
    try {
      await move(data);
      this.reply(226, done);
    } catch (err) {
      data.destroy();
      this.ctx.log.debug('transfer broke', { error: (err as Error).message });
      this.reply(426, 'Failure writing network stream.');
    }
  }

  private async stor(arg: string): Promise<void> {
    if (arg === '') return this.reply(553, 'Could not create file.');
    const virtual = this.ctx.sd.virtualPath(this.cwd, arg);
    const target = this.ctx.sd.realPath(virtual);
    const parent = await fsp.stat(this.ctx.sd.realPath(this.ctx.sd.virtualPath(virtual, '..'))).catch(() => null);
    if (!parent?.isDirectory()) return this.reply(553, 'Could not create file.');
    await this.transfer('Ok to send data.', 'Transfer complete.', async (data) => {
      await pipeline(data, createWriteStream(target));
      this.ctx.onStored?.(virtual);
    });
  }

  private async retr(arg: string): Promise<void> {
    const source = this.real(arg);
    const stats = await fsp.stat(source).catch(() => null);
    if (!stats?.isFile()) return this.reply(550, 'Failed to open file.');
    await this.transfer(`Opening BINARY mode data connection for ${arg} (${stats.size} bytes).`, 'Transfer complete.', (data) =>
      pipeline(createReadStream(source), data),
    );
  }

  private async list(arg: string, kind: ListKind): Promise<void> {
    // Clients pass ls options ("LIST -a"); the card path is whatever is not an option.
    const target = this.real(
      arg
        .split(' ')
        .filter((w) => w !== '' && !w.startsWith('-'))
        .join(' ') || '.',
    );
    const stats = await fsp.stat(target).catch(() => null);
    if (!stats)
      return kind === 'MLSD'
        ? this.reply(550, 'No such directory.')
        : this.transfer('Here comes the directory listing.', 'Directory send OK.', endEmpty);
    const names = stats.isDirectory() ? (await fsp.readdir(target)).sort() : [target.split('/').pop() as string];
    const lines: string[] = [];
    for (const name of names) {
      const entry = stats.isDirectory() ? await fsp.stat(`${target}/${name}`).catch(() => null) : stats;
      if (!entry) continue;
      lines.push(LISTING_LINE[kind](name, entry));
    }
    await this.transfer('Here comes the directory listing.', 'Directory send OK.', async (data) => {
      await new Promise<void>((resolve, reject) => {
        data.once('error', reject);
        data.end(lines.map((l) => `${l}\r\n`).join(''), () => resolve());
      });
    });
  }

  private quit(): void {
    this.reply(221, 'Goodbye.');
    this.passive?.close();
    this.socket.end();
  }
}

/** The address as IPv4, unmapping `::ffff:a.b.c.d`; null for a true IPv6 address. */
function ipv4Of(address: string): string | null {
  if (net.isIPv4(address)) return address;
  return address.startsWith('::ffff:') ? address.slice(7) : null;
}

function endEmpty(data: tls.TLSSocket): Promise<void> {
  return new Promise((resolve) => data.end(() => resolve()));
}
