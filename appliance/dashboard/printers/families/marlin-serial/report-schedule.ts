/**
 * How the temperatures and the SD card's status reach the driver: pushed by the firmware when its
 * `Cap:` lines offer it (AUTOREPORT_TEMP → `M155 S<s>`, AUTOREPORT_SD_STATUS → `M27 S<s>`),
 * otherwise polled (`M105`, `M27`) every `pollIntervalMs`, never with two polls of a kind on the
 * way. The SD status is only followed on printers with a card (Cap:SDCARD), and not polled while
 * a host print streams (nothing prints from the card then). Once set up, a first M105 (and M27)
 * gives the state at once rather than after the first interval.
 */

export interface ReportTimings {
  /** Seconds between auto-reports (M155 S / M27 S). */
  autoReportS: number;
  pollIntervalMs: number;
}

export interface ReportHooks {
  send(command: string): Promise<string[]>;
  /** True while polling the SD status would be pointless (a host print runs). */
  hostPrinting(): boolean;
}

export class ReportSchedule {
  autoTemperature = false;
  autoSdStatus = false;
  private sdCard = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly polling = new Set<string>();

  constructor(
    private readonly hooks: ReportHooks,
    private readonly timings: ReportTimings,
  ) {}

  async start(capabilities: Readonly<Record<string, boolean>>): Promise<void> {
    this.stop();
    this.sdCard = capabilities.SDCARD === true;
    this.autoTemperature = capabilities.AUTOREPORT_TEMP === true;
    this.autoSdStatus = this.sdCard && capabilities.AUTOREPORT_SD_STATUS === true;
    if (this.autoTemperature) await this.hooks.send(`M155 S${this.timings.autoReportS}`);
    if (this.autoSdStatus) await this.hooks.send(`M27 S${this.timings.autoReportS}`);
    await this.hooks.send('M105');
    if (this.sdCard) await this.hooks.send('M27');
    this.timer = setInterval(() => this.poll(), this.timings.pollIntervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.polling.clear();
  }

  private poll(): void {
    if (!this.autoTemperature) this.ask('M105');
    if (this.sdCard && !this.autoSdStatus && !this.hooks.hostPrinting()) this.ask('M27');
  }

  private ask(command: string): void {
    if (this.polling.has(command)) return;
    this.polling.add(command);
    // A poll lost with the connection is no error of its own: the loss is reported.
    this.hooks.send(command).then(
      () => this.polling.delete(command),
      () => this.polling.delete(command),
    );
  }
}
