/**
 * Runs a desktop slicer's command line as a job: in a process group of its own, so that a
 * time-out or a cancel ends it together with anything it started (SIGTERM to the group, SIGKILL
 * after a grace period), with the tail of its output kept for the error message. The running
 * processes are listed for /api/system/info.
 */
import { spawn } from 'node:child_process';
import { AppError, ErrorCode } from '../../../common/errors.js';

export interface CliRun {
  command: string;
  args: readonly string[];
  cwd: string;
  /** The whole run, from spawn to exit. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Shown in messages, e.g. "PrusaSlicer". */
  label: string;
}

export interface CliResult {
  stdout: string;
  stderr: string;
}

export interface RunningProcess {
  pid: number;
  label: string;
  started_at: string;
}

/** How long a process group gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 3000;
/** Output kept per stream: the end of a log says why a run failed. */
const OUTPUT_TAIL_BYTES = 256 * 1024;

function appendTail(current: string, chunk: Buffer): string {
  const next = current + chunk.toString('utf8');
  return next.length > OUTPUT_TAIL_BYTES ? next.slice(next.length - OUTPUT_TAIL_BYTES) : next;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** The last meaningful line of a log, for an error message. */
export function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.includes('[trace]'));
  return lines.length > 0 ? lines[lines.length - 1].slice(0, 300) : '';
}

export class CliRunner {
  private readonly running = new Map<number, RunningProcess>();

  processes(): RunningProcess[] {
    return [...this.running.values()];
  }

  /**
   * Resolves with the output when the process exits with 0; rejects with ERR_CANCELLED (409)
   * when `signal` aborts, with a 504 after the time-out and a 500 for any other exit, each after
   * the whole process group is gone.
   */
  run(job: CliRun): Promise<CliResult> {
    if (job.signal.aborted) return Promise.reject(new AppError(ErrorCode.cancelled, 409, 'slice cancelled'));
    return new Promise((resolve, reject) => {
      const child = spawn(job.command, [...job.args], { cwd: job.cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let stopReason: AppError | null = null;
      let killTimer: NodeJS.Timeout | undefined;
      child.stdout.on('data', (chunk: Buffer) => {
        stdout = appendTail(stdout, chunk);
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr = appendTail(stderr, chunk);
      });

      const stop = (reason: AppError): void => {
        const { pid } = child;
        if (stopReason !== null || pid === undefined) return;
        stopReason = reason;
        killGroup(pid, 'SIGTERM');
        killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
      };
      const onAbort = (): void => stop(new AppError(ErrorCode.cancelled, 409, 'slice cancelled'));
      const timeout = setTimeout(() => {
        stop(new AppError(ErrorCode.sliceFailed, 504, `${job.label} did not finish within ${Math.round(job.timeoutMs / 1000)} s and was stopped`));
      }, job.timeoutMs);
      job.signal.addEventListener('abort', onAbort, { once: true });
      if (child.pid !== undefined) this.running.set(child.pid, { pid: child.pid, label: job.label, started_at: new Date().toISOString() });

      const finish = (err: AppError | null): void => {
        clearTimeout(timeout);
        clearTimeout(killTimer);
        job.signal.removeEventListener('abort', onAbort);
        if (child.pid !== undefined) this.running.delete(child.pid);
        if (err) reject(err);
        else resolve({ stdout, stderr });
      };
      // Whatever the slicer left behind in its group goes with it (and so releases the pipes).
      child.once('exit', () => {
        if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      });
      child.once('error', (err) => finish(new AppError(ErrorCode.sliceFailed, 500, `${job.label} could not be started: ${err.message}`)));
      child.once('close', (code, signal) => {
        if (stopReason !== null) return finish(stopReason);
        if (code === 0) return finish(null);
        const why = lastLine(stderr) || lastLine(stdout);
        finish(
          new AppError(
            ErrorCode.sliceFailed,
            500,
            `${job.label} failed (${code === null ? `signal ${signal}` : `exit code ${code}`})${why ? `: ${why}` : ''}`,
          ),
        );
      });
    });
  }
}
