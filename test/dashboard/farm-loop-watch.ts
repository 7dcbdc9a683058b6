/**
 * What farm-loop.test.ts reads on the dashboard's WebSocket: every message in arrival order, the
 * claims (a copy becoming `dispatching` on a printer, from `queue.update`), waits for a message
 * that matches, and the plate rule checked over the whole stream: a `print.dispatched` on a
 * printer only after a `printer.plate` clear for it, with no `occupied` in between.
 */
import assert from 'node:assert/strict';
import { eventually } from '../fixtures/eventually.js';
import { connect, wsUrl, type Received, type TestClient } from './live/ws-client.js';
import { TEST_TOKENS } from './farm-loop-farm.js';

export interface Claim {
  job_id: string;
  copy: number;
  printer_id: string;
  dispatches: number;
  /** Index of the `queue.update` that showed it. */
  at: number;
}

export class FarmWatch {
  readonly messages: Received[] = [];
  readonly claims: Claim[] = [];
  private readonly socket: TestClient;

  private constructor(url: string) {
    this.socket = connect(wsUrl(url, `?token=${TEST_TOKENS.view}`));
    this.socket.ws.on('message', (data) => this.take(JSON.parse(String(data)) as Received));
  }

  static async open(url: string): Promise<FarmWatch> {
    const watch = new FarmWatch(url);
    await watch.socket.opened;
    return watch;
  }

  close(): void {
    this.socket.ws.close();
  }

  of(type: string): any[] {
    return this.messages.filter((m) => m.type === type).map((m) => m.payload);
  }

  /** The first message of `type` from index `from` on that `match` accepts. */
  async next(type: string, match: (payload: any) => boolean, what: string, from = 0, timeoutMs = 30_000): Promise<{ payload: any; at: number }> {
    return eventually(
      what,
      () => {
        for (let i = from; i < this.messages.length; i++) {
          const m = this.messages[i];
          if (m.type === type && match(m.payload)) return { payload: m.payload, at: i };
        }
        return null;
      },
      timeoutMs,
      20,
    );
  }

  /** The next claim on a printer from message index `from` on. */
  nextClaim(printerId: string, from: number, what: string, timeoutMs = 30_000): Promise<Claim> {
    return eventually(what, () => this.claims.find((c) => c.printer_id === printerId && c.at >= from), timeoutMs, 20);
  }

  /** Every `print.dispatched` came after its printer's plate was confirmed clear, and before anything occupied it again. */
  assertPlatesClearedFirst(): void {
    const plate = new Map<string, string>();
    for (const m of this.messages) {
      if (m.type === 'printer.plate') plate.set(String(m.payload.printer_id), String(m.payload.state));
      if (m.type !== 'print.dispatched') continue;
      const printer = String(m.payload.printer_id);
      assert.equal(
        plate.get(printer),
        'clear',
        `job ${m.payload.job_id} copy ${m.payload.copy} dispatched to ${printer} whose plate was not confirmed clear`,
      );
    }
  }

  private take(message: Received): void {
    const at = this.messages.length;
    this.messages.push(message);
    if (message.type !== 'queue.update') return;
    const job = message.payload.job as any;
    for (const copy of job?.copies ?? []) {
      if (copy.state !== 'dispatching' || copy.printer_id === null) continue;
      const known = this.claims.some((c) => c.job_id === job.id && c.copy === copy.copy && c.dispatches === copy.dispatches);
      if (!known) this.claims.push({ job_id: job.id, copy: copy.copy, printer_id: copy.printer_id, dispatches: copy.dispatches, at });
    }
  }
}
