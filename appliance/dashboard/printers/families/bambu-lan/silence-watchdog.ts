/**
 * Notices a printer that stopped talking. A Bambu printer pushes a report every second or so;
 * after `silenceMs` without any message the watchdog calls `onSilent` (the driver sends
 * `pushing.start`, which restarts a stream that stalled, as ha-bambulab does after 60 s), and if
 * nothing arrives within `recoveryMs` after that, `onDead` (the driver drops the session and
 * reconnects: a half-open TCP connection can look alive for a long time).
 */
export interface SilenceWatchdogOptions {
  silenceMs: number;
  recoveryMs: number;
  onSilent(): void;
  onDead(silentForMs: number): void;
}

export class SilenceWatchdog {
  private timer: NodeJS.Timeout | null = null;
  private phase: 'listening' | 'recovering' = 'listening';

  constructor(private readonly options: SilenceWatchdogOptions) {}

  start(): void {
    this.stop();
    this.phase = 'listening';
    this.timer = setTimeout(() => this.expired(), this.options.silenceMs);
  }

  /** A message arrived. */
  heard(): void {
    if (!this.timer) return;
    if (this.phase === 'recovering') {
      this.start();
      return;
    }
    // refresh() re-arms the same timer: cheap enough to call for every report of a busy farm.
    this.timer.refresh();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private expired(): void {
    if (this.phase === 'listening') {
      this.phase = 'recovering';
      this.timer = setTimeout(() => this.expired(), this.options.recoveryMs);
      this.options.onSilent();
      return;
    }
    this.timer = null;
    this.options.onDead(this.options.silenceMs + this.options.recoveryMs);
  }
}
