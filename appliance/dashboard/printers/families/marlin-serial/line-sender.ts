/**
 * Marlin's line protocol, host side: every line goes out numbered and checksummed
 * (`N<n> <command>*<xor>`), one at a time — the next only after the firmware's `ok` for the
 * previous one (the flow control OctoPrint uses by default: Marlin's receive buffer is small and a
 * line it cannot take is lost). Commands from the dashboard (console, actions, polls, park moves)
 * go before the print stream, which is asked for its next line only when nothing else waits.
 *
 * Recovery:
 * - `Resend: <n>` (or `rs <n>`), after a damaged or out-of-sequence line: lines from n on are
 *   sent again from the window of the last RESEND_WINDOW lines. Marlin answers the refused line
 *   with an extra `ok`, which belongs to no line and is skipped. Lines already on the way when it
 *   flushed its receive buffer are refused too and ask for n again: at most that many repeats are
 *   echoes and not served twice; a repeat beyond them (the resent line was damaged again) is.
 * - A line that gets no answer (lost on the wire, or its `ok` lost) is not simply sent again —
 *   if the firmware did get it, it would run twice. Instead a probe (`M105`, the next number)
 *   follows: a firmware that missed the line asks for it (`Resend`), one that is merely slow
 *   answers both in order. "No answer" means `lineTimeoutMs` without `ok`, `busy:` or a heating
 *   report for ordinary commands, `longCommandTimeoutMs` for ones that take long by nature
 *   (G28, M109, M400…); `wait` (Marlin idle with a line missing) probes at once.
 * - When the last of `maxProbes` probes is unanswered too, the link is declared dead
 *   (`hooks.dead`): a printer that still sends reports but takes no lines is no use either.
 */
import { frame, isLongRunning } from './framing.js';
import { isBareOk, type Reply } from './replies.js';

/** Lines kept for resends. */
export const RESEND_WINDOW = 64;
const PROBE = 'M105';

export interface SenderTimings {
  lineTimeoutMs: number;
  longCommandTimeoutMs: number;
  maxProbes: number;
}

export interface SenderHooks {
  write(framed: string): void;
  /** The firmware acknowledged a line, the first time (a resent line is not counted twice). */
  accepted(command: string): void;
  /** The printer stopped answering, or asked for a line no longer kept. */
  dead(reason: string): void;
}

/** A line to send and who waits for its answer. */
export interface LineRequest {
  command: string;
  /** The lines the printer answered, once it acknowledged the line. */
  done(replies: string[]): void;
  failed(error: Error): void;
}

interface SentLine {
  number: number;
  command: string;
  /** Null for probes. */
  request: LineRequest | null;
  replies: string[];
  answered: boolean;
  long: boolean;
}

export class LineSender {
  /** Lines sent again on request, for the state details. */
  resends = 0;
  private nextNumber: number;
  private readonly history: SentLine[] = [];
  /** Sent and waiting for their `ok`, oldest first. */
  private awaiting: SentLine[] = [];
  private readonly queue: LineRequest[] = [];
  private source: (() => LineRequest | null) | null = null;
  /** `ok`s owed to refused lines (one follows every resend request). */
  private staleOks = 0;
  /** The resend request being served, and how many repeats of it may still be echoes. */
  private echoes: { from: number; left: number } | null = null;
  private probes = 0;
  private timer: NodeJS.Timeout | null = null;
  private closedWith: Error | null = null;

  constructor(
    private readonly hooks: SenderHooks,
    private readonly timings: SenderTimings,
    firstNumber: number,
  ) {
    this.nextNumber = firstNumber;
  }

  /** The number of the last line sent. */
  get lastLine(): number {
    return this.nextNumber - 1;
  }

  /** The oldest line still waiting for its `ok`. */
  get inFlight(): string | null {
    return this.awaiting[0]?.command ?? null;
  }

  /** Queues a command ahead of the print stream; resolves with its answer once acknowledged. */
  send(command: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      if (this.closedWith) {
        reject(this.closedWith);
        return;
      }
      this.queue.push({ command, done: resolve, failed: reject });
      this.pump();
    });
  }

  /** Queues commands together, so that no other command or print line comes between them; all their answers. */
  async sendAll(commands: readonly string[]): Promise<string[]> {
    const answers = await Promise.all(commands.map((command) => this.send(command)));
    return answers.flat();
  }

  /** Sends at once, past a line in flight: M108 to break a heat-up wait (the emergency parser acts on it as it arrives). */
  sendUrgent(command: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      if (this.closedWith) {
        reject(this.closedWith);
        return;
      }
      this.transmit(this.numbered(command, { command, done: resolve, failed: reject }));
    });
  }

  /** Where print lines come from when no command waits (a print's next line, or null while it holds). */
  setSource(source: () => LineRequest | null): void {
    this.source = source;
    this.pump();
  }

  /** Sends the next line if none is waiting for its `ok`. */
  pump(): void {
    if (this.closedWith || this.awaiting.length > 0) return;
    const request = this.queue.shift() ?? this.source?.() ?? null;
    if (request) this.transmit(this.numbered(request.command, request));
  }

  /** A line from the printer; `answer` adds it to the answer of the line in flight. */
  received(reply: Reply, line: string, answer: boolean): void {
    if (this.closedWith) return;
    switch (reply.kind) {
      case 'ok':
        this.acknowledge(reply.rest);
        return;
      case 'resend':
        this.resendFrom(reply.line);
        return;
      case 'wait':
        if (this.awaiting.length > 0 && this.probes < this.timings.maxProbes) this.probe();
        return;
      case 'busy':
      case 'line-error':
        this.armTimer();
        return;
      case 'temperatures':
        if (reply.temperatures.waiting) this.armTimer();
        break;
      case 'error':
        this.armTimer();
        break;
      default:
        break;
    }
    if (answer) this.awaiting[0]?.replies.push(line);
  }

  /** Ends the conversation: everything waiting or queued fails with `error`. */
  close(error: Error): void {
    if (this.closedWith) return;
    this.closedWith = error;
    this.source = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const line of this.awaiting) if (!line.answered) line.request?.failed(error);
    this.awaiting = [];
    for (const request of this.queue.splice(0)) request.failed(error);
  }

  private numbered(command: string, request: LineRequest | null): SentLine {
    const line: SentLine = { number: this.nextNumber++, command, request, replies: [], answered: false, long: isLongRunning(command) };
    this.history.push(line);
    if (this.history.length > RESEND_WINDOW) this.history.shift();
    return line;
  }

  private transmit(line: SentLine): void {
    this.awaiting.push(line);
    this.hooks.write(frame(line.number, line.command));
    if (this.awaiting.length === 1) this.armTimer();
  }

  private acknowledge(rest: string): void {
    if (this.staleOks > 0) {
      this.staleOks--;
      return;
    }
    const line = this.awaiting.shift();
    if (!line) return;
    this.echoes = null;
    if (line.request === null) this.probes = Math.max(0, this.probes - 1);
    if (!line.answered) {
      line.answered = true;
      this.hooks.accepted(line.command);
      line.request?.done(isBareOk(rest) ? line.replies : [...line.replies, `ok ${rest}`]);
    }
    this.armTimer();
    this.pump();
  }

  private resendFrom(number: number): void {
    this.staleOks++;
    this.armTimer();
    // Nothing to send again: it has every line sent.
    if (number >= this.nextNumber) return;
    if (this.echoes?.from === number && this.echoes.left > 0) {
      this.echoes.left--;
      return;
    }
    const again = this.history.filter((line) => line.number >= number);
    if (again[0]?.number !== number) {
      this.hooks.dead(`the printer asked for line ${number} again, older than the last ${RESEND_WINDOW} lines kept`);
      return;
    }
    // One of the lines on the way made this request; each of the others may repeat it.
    const onTheWay = this.awaiting.filter((line) => line.number >= number).length;
    this.echoes = { from: number, left: Math.max(0, onTheWay - 1) };
    this.resends += again.length;
    this.awaiting = [...this.awaiting.filter((line) => line.number < number), ...again];
    for (const line of again) this.hooks.write(frame(line.number, line.command));
  }

  private probe(): void {
    this.probes++;
    this.transmit(this.numbered(PROBE, null));
    this.armTimer();
  }

  private armTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const oldest = this.awaiting[0];
    if (!oldest || this.closedWith) return;
    const ms = oldest.long ? this.timings.longCommandTimeoutMs : this.timings.lineTimeoutMs;
    this.timer = setTimeout(() => this.timedOut(), ms);
  }

  private timedOut(): void {
    this.timer = null;
    if (this.probes < this.timings.maxProbes) {
      this.probe();
      return;
    }
    const oldest = this.awaiting[0];
    const probes = `${this.probes} probe${this.probes === 1 ? '' : 's'}`;
    this.hooks.dead(`the printer answered neither line ${oldest?.number} (${oldest?.command}) nor the ${probes} sent after it`);
  }
}
