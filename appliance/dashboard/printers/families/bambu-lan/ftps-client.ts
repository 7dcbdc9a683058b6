/**
 * A small implicit-FTPS client, as a Bambu printer's vsftpd wants it: TLS from the first byte
 * (port 990), `PBSZ 0` + `PROT P`, passive (EPSV) data connections that are TLS themselves and
 * resume the control connection's TLS session — vsftpd's `require_ssl_reuse` refuses any other
 * with `522 SSL connection failed: session reuse required`.
 *
 * The caller opens the TLS sockets (so it decides how the printer is trusted) and hands them in:
 * the control socket, and a function that opens a data socket to a port with a session to resume.
 * `send` and `transfer` return the server's replies as they are; `login`, `store` and `quit`
 * are the checked steps an upload needs and throw an `FtpsError` naming the refusal.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type tls from 'node:tls';

export interface FtpReply {
  code: number;
  /** The reply's text without the code; lines of a multi-line reply joined with `\n`. */
  text: string;
}

/** Opens the TLS data connection to `port` on the control connection's host, resuming `session`. */
export type DataSocketOpener = (port: number, session: Buffer | undefined) => Promise<tls.TLSSocket>;

export interface FtpsConnectionOptions {
  openData: DataSocketOpener;
  /** How long a reply, or a stalled data connection, may take; default 30 s. */
  timeoutMs?: number;
}

export class FtpsError extends Error {
  override readonly name = 'FtpsError';

  constructor(
    message: string,
    readonly reply: FtpReply | null = null,
  ) {
    super(message);
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;
/* `229 Entering Extended Passive Mode (|||port|)` */
const EPSV_PORT = /\(\|\|\|(\d+)\|\)/;

export class FtpsConnection {
  private buffer = '';
  private lines: string[] = [];
  private readonly replies: FtpReply[] = [];
  private waiting: ((reply: FtpReply) => void) | null = null;
  private closed: Error | null = null;
  /* TLS 1.3 hands out its session after the handshake; the newest is the one to resume. */
  private session: Buffer | undefined;
  private readonly timeoutMs: number;

  private constructor(
    private readonly control: tls.TLSSocket,
    private readonly options: FtpsConnectionOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    control.setEncoding('utf8');
    control.on('session', (session: Buffer) => (this.session = session));
    control.on('data', (text: string) => this.receive(text));
    control.on('error', (err) => this.fail(err));
    control.on('close', () => this.fail(new Error('the control connection closed')));
  }

  /** Takes over a connected control socket and reads the greeting. */
  static async open(control: tls.TLSSocket, options: FtpsConnectionOptions): Promise<{ connection: FtpsConnection; greeting: FtpReply }> {
    const connection = new FtpsConnection(control, options);
    return { connection, greeting: await connection.next() };
  }

  send(command: string): Promise<FtpReply> {
    if (!this.closed) this.control.write(`${command}\r\n`);
    return this.next();
  }

  /** USER, PASS, PBSZ 0, PROT P, TYPE I; throws on the first refusal. */
  async login(user: string, password: string): Promise<void> {
    const steps: Array<[string, number]> = [
      [`USER ${user}`, 331],
      [`PASS ${password}`, 230],
      ['PBSZ 0', 200],
      ['PROT P', 200],
      ['TYPE I', 200],
    ];
    for (const [command, code] of steps) {
      const reply = await this.send(command);
      if (reply.code === code) continue;
      const verb = command.split(' ')[0];
      const hint = verb === 'PASS' && reply.code === 530 ? ': the printer does not accept this access code' : '';
      throw new FtpsError(`${verb} refused: ${reply.code} ${reply.text}${hint}`, reply);
    }
  }

  /** Stores `source` as `name` in the current directory; resolves once the server confirmed it (226). */
  async store(name: string, source: Readable): Promise<void> {
    const reply = await this.transfer(`STOR ${name}`, (data) => pipeline(source, data));
    if (reply.code !== 226) throw new FtpsError(`storing ${name} failed: ${reply.code} ${reply.text}`, reply);
  }

  /**
   * One passive transfer: EPSV, the TLS data connection resuming this session, the command, then
   * `move` once the server said 150. Returns the reply that ends the transfer, or the refusal of
   * any step; a data connection that breaks ends `move`, and the server's reply says why.
   */
  async transfer(command: string, move: (data: tls.TLSSocket) => Promise<void>, resumeSession = true): Promise<FtpReply> {
    const epsv = await this.send('EPSV');
    const port = EPSV_PORT.exec(epsv.text);
    if (epsv.code !== 229 || !port) return epsv;
    let data: tls.TLSSocket;
    try {
      data = await this.options.openData(Number(port[1]), resumeSession ? (this.session ?? this.control.getSession()) : undefined);
    } catch (err) {
      // The server waits for a data connection that will not come; ABOR releases it.
      await this.send('ABOR').catch(() => undefined);
      throw err;
    }
    data.on('error', () => undefined);
    data.setTimeout(this.timeoutMs, () => data.destroy(new Error('the data connection stalled')));
    const opening = await this.send(command);
    if (opening.code !== 150 && opening.code !== 125) {
      data.destroy();
      return opening;
    }
    const closed = new Promise<void>((resolve) => data.once('close', () => resolve()));
    const moved = Promise.race([move(data).catch(() => undefined), closed]);
    const final = await this.next();
    await moved;
    data.destroy();
    return final;
  }

  async quit(): Promise<void> {
    if (!this.closed) await this.send('QUIT').catch(() => undefined);
    this.control.destroy();
  }

  /** Drops the connection without a goodbye (after a failure). */
  destroy(): void {
    this.control.destroy();
  }

  private receive(text: string): void {
    this.buffer += text;
    for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      this.lines.push(line);
      // A reply ends with "ddd text"; "ddd-text" opens a multi-line one that ends with "ddd text".
      const end = /^(\d{3}) (.*)$/.exec(line) ?? /^(\d{3})$/.exec(line);
      if (end && (this.lines.length === 1 || this.lines[0].startsWith(`${end[1]}-`))) {
        const reply = { code: Number(end[1]), text: this.lines.join('\n').replace(/^\d{3}[ -]?/, '') };
        this.lines = [];
        this.deliver(reply);
      }
    }
  }

  private deliver(reply: FtpReply): void {
    const wake = this.waiting;
    if (wake) {
      this.waiting = null;
      wake(reply);
    } else {
      this.replies.push(reply);
    }
  }

  private next(): Promise<FtpReply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.closed) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        const err = new FtpsError(`the printer's FTPS server did not answer within ${this.timeoutMs / 1000} s`);
        this.fail(err);
        this.control.destroy();
        reject(err);
      }, this.timeoutMs);
      this.waiting = (reply) => {
        clearTimeout(timer);
        if (reply.code === 0) reject(this.closed ?? new FtpsError(reply.text));
        else resolve(reply);
      };
    });
  }

  private fail(err: Error): void {
    this.closed ??= err;
    const wake = this.waiting;
    if (wake) {
      this.waiting = null;
      wake({ code: 0, text: err.message });
    }
  }
}
