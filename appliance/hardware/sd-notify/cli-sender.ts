/**
 * Sends sd_notify messages by running systemd's own `systemd-notify` command, one at a time.
 *
 * Node cannot open the Unix datagram socket of $NOTIFY_SOCKET (no `unix_dgram` in node:dgram,
 * `net.connect` gives EPROTOTYPE), and the addons that can (unix-dgram, sd-notify) compile
 * against each Node ABI on the box. The command comes with systemd, so it is on every box that
 * can start the units. Its datagram carries its own PID, not ours, so the units say
 * `NotifyAccess=all`; since systemd 246 it waits (BARRIER=1) until the manager has read the
 * message before it exits, so the message is never lost to a PID that is already gone.
 *
 * Measured here (DESIGN.md's budget): one run costs about 5 ms of CPU; at one watchdog ping per
 * 15 s that is 0.03 % of a core. Messages that come while a run is in flight are merged into
 * the next run (a later STATUS replaces an earlier one), so a slow manager never piles up
 * processes.
 */
import { spawn } from 'node:child_process';
import type { Logger } from '../../common/logger.js';

const COMMAND = 'systemd-notify';

export class CliSender {
  /** Assignments waiting for the run in flight to end, by name: `WATCHDOG` → `WATCHDOG=1`. */
  private pending = new Map<string, string>();
  private inFlight: Promise<void> | null = null;
  private missing = false;

  constructor(
    private readonly socket: string,
    private readonly log: Logger,
  ) {}

  /** Queues `NAME=value` assignments; they go out in the current or the next run. */
  send(assignments: readonly string[]): void {
    if (this.missing) return;
    for (const assignment of assignments) this.pending.set(assignment.slice(0, assignment.indexOf('=')), assignment);
    if (this.inFlight === null) this.inFlight = this.drain();
  }

  /** Resolves once everything queued so far has been handed to the manager (or failed). */
  async flushed(): Promise<void> {
    while (this.inFlight !== null) await this.inFlight;
  }

  private async drain(): Promise<void> {
    while (this.pending.size > 0 && !this.missing) {
      const assignments = [...this.pending.values()];
      this.pending.clear();
      await this.run(assignments);
    }
    this.inFlight = null;
  }

  private run(assignments: readonly string[]): Promise<void> {
    return new Promise((resolve) => {
      const child = spawn(COMMAND, assignments, {
        env: { NOTIFY_SOCKET: this.socket, PATH: process.env.PATH ?? '/usr/bin:/bin' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
      });
      child.once('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') {
          this.missing = true;
          this.log.warn(`${COMMAND} is not installed: systemd will not hear that the service is ready or alive`);
        } else this.log.warn(`${COMMAND} could not run: ${err.message}`);
        resolve();
      });
      child.once('close', (code) => {
        if (code !== 0 && code !== null) this.log.warn(`${COMMAND} ${assignments.join(' ')} failed (${code}): ${stderr.trim()}`);
        resolve();
      });
    });
  }
}
