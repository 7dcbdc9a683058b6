/**
 * Requests sent to the printer that wait for their outcome. A Bambu printer answers a control
 * command by echoing it on the report topic with its `sequence_id` and `result` ("success" or
 * "fail", any case) — when it answers: replies can be lost like any publish, and a printer
 * without Developer Mode drops control commands without a word. So a request is settled by the
 * first of:
 * - its reply: success resolves, fail rejects with the printer's reason (409);
 * - the effect it was sent for, seen in a report (`confirm`): a lost reply is no failure;
 * - a sign that the printer refuses control commands (HMS 0500-0500-0001-0007): rejects at once
 *   with the developer-mode error instead of waiting out the time;
 * - its time running out: rejects with what the caller says then (developer mode, or no answer).
 */
import { AppError, ErrorCode } from '../../../../common/errors.js';
import type { Json } from './report-state.js';

export interface PendingOptions {
  timeoutMs: number;
  /** True once a report shows the request took effect. */
  confirm?: (print: Json) => boolean;
  /** The error when no outcome came in time. */
  onTimeout: () => AppError;
}

interface Pending {
  kind: string;
  command: string;
  options: PendingOptions;
  resolve: () => void;
  reject: (err: AppError) => void;
  timer: NodeJS.Timeout;
}

export class PendingRequests {
  private readonly bySequence = new Map<string, Pending>();

  wait(sequenceId: string, kind: string, command: string, options: PendingOptions): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle(sequenceId, options.onTimeout()), options.timeoutMs);
      this.bySequence.set(sequenceId, { kind, command, options, resolve, reject, timer });
    });
  }

  /** A message on the report topic: settles the request it answers, if any. */
  reply(kind: string, body: Json): void {
    const sequenceId = typeof body.sequence_id === 'string' || typeof body.sequence_id === 'number' ? String(body.sequence_id) : '';
    const pending = this.bySequence.get(sequenceId);
    if (!pending || pending.kind !== kind || pending.command !== body.command || typeof body.result !== 'string') return;
    if (body.result.toLowerCase() === 'success') {
      this.settle(sequenceId, null);
      return;
    }
    const reason = typeof body.reason === 'string' && body.reason !== '' ? body.reason : 'no reason given';
    this.settle(sequenceId, new AppError(ErrorCode.conflict, 409, `the printer refused ${kind}.${pending.command}: ${reason}`));
  }

  /** A new merged state: settles the requests whose effect it shows. */
  observe(print: Json): void {
    for (const [sequenceId, pending] of this.bySequence) {
      if (pending.options.confirm?.(print)) this.settle(sequenceId, null);
    }
  }

  /** Rejects every request still waiting (the printer refuses them, or the connection is gone). */
  rejectAll(error: AppError): void {
    for (const sequenceId of [...this.bySequence.keys()]) this.settle(sequenceId, error);
  }

  private settle(sequenceId: string, error: AppError | null): void {
    const pending = this.bySequence.get(sequenceId);
    if (!pending) return;
    this.bySequence.delete(sequenceId);
    clearTimeout(pending.timer);
    if (error) pending.reject(error);
    else pending.resolve();
  }
}
