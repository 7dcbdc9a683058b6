/**
 * The virtual Marlin's main loop: boot (banner after the bootloader delay), read serial lines into
 * the command queue (BUFSIZE entries), also read the SD file being printed, run one command at a
 * time, answer `ok` (or ADVANCED_OK's `ok N P B`), send `busy: processing` while a command takes a
 * while, auto-report temperatures and SD progress, and halt on M112.
 *
 * The physical parts (heaters, SD card contents, filament pushed through) survive a reset; what
 * the firmware holds in RAM (position, modes, line number, queue, open files) does not.
 */
import { AbortedError, type CancelTimer, type SimClock } from './clock.js';
import type { FirmwareContext, HandlerResult, JobTimerState } from './command-context.js';
import { COMMANDS } from './commands/index.js';
import { sdStatusLine } from './commands/sd-card.js';
import { seededRandom, type FaultInjector } from './faults.js';
import type { FirmwareSettings } from './firmware-settings.js';
import { GcodeCommand } from './gcode-command.js';
import { BED_MODEL, Heater, HOTEND_MODEL, thermistorNoise } from './heater.js';
import { Motion } from './motion.js';
import { Periodic } from './periodic.js';
import { Planner } from './planner.js';
import { stripFraming } from './protocol.js';
import { bannerLines, temperatureReport, type Heaters } from './reports.js';
import { SdCard } from './sd-card.js';
import { SerialInput, type EmergencyCommand } from './serial-input.js';

/** Commands the queue holds (BUFSIZE). */
export const BUFSIZE = 4;
/** How much longer a command takes when the busy fault strikes it. */
export const BUSY_FAULT_MS = 5000;
const FAN_COUNT = 1;
const M29 = /M29(?!\d)/;

export type FirmwareStatus = 'off' | 'booting' | 'ready' | 'killed';
/** What the serial port shows after a reset: a power-up, or a reset by the host opening the port (DTR). */
export type ResetReason = 'PowerUp' | ' External Reset';

export interface FirmwareHooks {
  /** Every line the firmware writes to the host. */
  send(line: string): void;
  /** A line arrived from the host (after any drop fault). */
  lineArrived(): void;
  /** The banner is out and commands are read from now on. */
  booted(): void;
  /** A bug in the simulator stopped the command loop. */
  crashed(err: unknown): void;
}

interface QueuedCommand {
  line: string;
  fromHost: boolean;
  /** Marlin's M1001: the SD file has been read to its end. */
  finishesSdPrint?: boolean;
}

export class MarlinFirmware implements FirmwareContext {
  readonly clock: SimClock;
  readonly settings: FirmwareSettings;
  readonly faults: FaultInjector;
  readonly heaters: Heaters;
  readonly planner: Planner;
  readonly sd: SdCard;
  readonly extruded: number[];
  motion: Motion;
  lastLineNumber = 0;
  keepaliveSeconds: number;
  fans: number[] = new Array<number>(FAN_COUNT).fill(0);
  message = '';
  progress: { percent: number | null; remainingMinutes: number | null } = { percent: null, remainingMinutes: null };
  jobTimer: JobTimerState = 'idle';
  waitingForHeat = false;

  private readonly hooks: FirmwareHooks;
  private readonly input: SerialInput;
  private readonly temperatureReports: Periodic;
  private readonly sdReports: Periodic;
  private readonly waitReports: Periodic;
  private current: FirmwareStatus = 'off';
  private boot = new AbortController();
  private cancelBoot: CancelTimer | null = null;
  private queue: QueuedCommand[] = [];
  private wake: (() => void) | null = null;
  private sdFinishPending = false;
  private lastCommandAt = 0;

  constructor(settings: FirmwareSettings, clock: SimClock, faults: FaultInjector, hooks: FirmwareHooks) {
    this.settings = settings;
    this.clock = clock;
    this.faults = faults;
    this.hooks = hooks;
    // Seeded by the board's UUID: each printer jitters its own way, the same way every run.
    const noise = thermistorNoise(settings.temperatureNoise, seededRandom(Number.parseInt(settings.uuid.slice(0, 8), 16) || 1));
    this.heaters = {
      hotends: Array.from({ length: settings.extruders }, () => new Heater(HOTEND_MODEL, clock, undefined, noise)),
      bed: new Heater(BED_MODEL, clock, undefined, noise),
    };
    this.planner = new Planner(clock);
    this.sd = new SdCard(settings.longFilenameWrite);
    this.extruded = new Array<number>(settings.extruders).fill(0);
    this.motion = new Motion(settings.geometry, settings.extruders);
    this.keepaliveSeconds = settings.keepaliveSeconds;
    this.input = new SerialInput({
      faults,
      lastLineNumber: () => this.lastLineNumber,
      setLastLineNumber: (n) => {
        this.lastLineNumber = n;
      },
      hasRoom: () => this.queue.length < BUFSIZE,
      enqueue: (line) => {
        this.queue.push({ line, fromHost: true });
        this.lastCommandAt = this.clock.now();
      },
      writingToSd: () => this.sd.writingFile !== null,
      emergency: (command) => this.emergency(command),
      send: (line) => this.send(line),
      arrived: () => hooks.lineArrived(),
    });
    this.temperatureReports = new Periodic(clock, () => this.send(temperatureReport(this.heaters, this.motion.activeTool)));
    this.sdReports = new Periodic(clock, () => this.send(sdStatusLine(this)));
    this.waitReports = new Periodic(clock, () => this.sendWaitWhenIdle());
  }

  get status(): FirmwareStatus {
    return this.current;
  }

  get signal(): AbortSignal {
    return this.boot.signal;
  }

  get queuedCommands(): number {
    return this.queue.length;
  }

  get autoReportIntervals(): { temperatureSeconds: number; sdSeconds: number } {
    return { temperatureSeconds: this.temperatureReports.intervalMs / 1000, sdSeconds: this.sdReports.intervalMs / 1000 };
  }

  /** Power-up or reset: RAM state is lost, the bootloader runs, then the banner and the main loop. */
  reset(reason: ResetReason): void {
    this.halt('booting');
    this.boot = new AbortController();
    this.motion = new Motion(this.settings.geometry, this.settings.extruders);
    this.lastLineNumber = 0;
    this.keepaliveSeconds = this.settings.keepaliveSeconds;
    this.fans.fill(0);
    this.message = '';
    this.progress = { percent: null, remainingMinutes: null };
    this.jobTimer = 'idle';
    this.sd.endWrite();
    this.sd.deselect();
    this.sdFinishPending = false;
    const signal = this.boot.signal;
    this.cancelBoot = this.clock.after(this.settings.bootMs, () => {
      this.cancelBoot = null;
      for (const line of bannerLines(reason)) this.send(line);
      this.current = 'ready';
      this.lastCommandAt = this.clock.now();
      if (this.settings.noTimeoutsMs > 0) this.waitReports.start(this.settings.noTimeoutsMs);
      this.hooks.booted();
      this.runCommands(signal).catch((err: unknown) => {
        this.halt('killed');
        this.hooks.crashed(err);
      });
    });
  }

  /** Switches the firmware off (the simulator stops). */
  powerOff(): void {
    this.halt('off');
  }

  /** Bytes from the host. The bootloader and a halted firmware read nothing. */
  receive(text: string): void {
    if (this.current !== 'ready') return;
    this.input.receive(text);
    this.wakeUp();
  }

  /** Switches the auto-report capabilities on or off (M115 and M155 follow at once). */
  setAutoReport(enabled: boolean): void {
    this.settings.autoReport = enabled;
    if (!enabled) {
      this.temperatureReports.stop();
      this.sdReports.stop();
    }
  }

  send(line: string): void {
    if (this.current === 'off') return;
    this.hooks.send(line);
  }

  echo(text: string): void {
    this.send(`echo:${text}`);
  }

  error(text: string): void {
    this.send(`Error:${text}`);
  }

  sleep(ms: number): Promise<void> {
    return this.clock.sleep(ms, this.signal);
  }

  sleepUntil(at: number): Promise<void> {
    return this.clock.sleepUntil(at, this.signal);
  }

  setTemperatureReportInterval(seconds: number): void {
    this.temperatureReports.start(seconds * 1000);
  }

  setSdReportInterval(seconds: number): void {
    this.sdReports.start(seconds * 1000);
  }

  resumeSdFetching(): void {
    this.wakeUp();
  }

  clearQueue(): void {
    this.queue = [];
  }

  requestResend(): void {
    this.input.requestResend();
  }

  kill(): void {
    if (this.current === 'killed' || this.current === 'off') return;
    this.error('Printer halted. kill() called!');
    this.halt('killed');
  }

  private emergency(command: EmergencyCommand): void {
    if (command === 'M108') this.waitingForHeat = false;
    else if (command === 'M112') this.kill();
    else this.planner.clear();
  }

  /** Stops everything the firmware is doing; heaters go off as on any reset or kill. */
  private halt(status: FirmwareStatus): void {
    this.boot.abort();
    this.cancelBoot?.();
    this.cancelBoot = null;
    this.current = status;
    this.queue = [];
    this.input.clear();
    this.planner.clear();
    this.temperatureReports.stop();
    this.sdReports.stop();
    this.waitReports.stop();
    this.waitingForHeat = false;
    for (const hotend of this.heaters.hotends) hotend.setTarget(0);
    this.heaters.bed.setTarget(0);
    this.wakeUp();
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** Waits for input, an SD print to resume, or a halt (which wakes the loop so it can end). */
  private idle(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  private async runCommands(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.fill();
      const entry = this.queue[0];
      if (!entry) {
        await this.idle();
        continue;
      }
      try {
        await this.process(entry);
      } catch (err) {
        if (err instanceof AbortedError || signal.aborted) return;
        throw err;
      }
      if (this.queue[0] === entry) this.queue.shift();
      this.lastCommandAt = this.clock.now();
    }
  }

  /** Reads serial lines, then lines of the SD file being printed, while the queue has room. */
  private fill(): void {
    this.input.pump();
    const job = this.sd.job;
    while (job?.printing && this.queue.length < BUFSIZE) {
      const line = this.sd.readCommand();
      if (line === null) {
        this.sd.deselect();
        this.sdFinishPending = true;
        break;
      }
      // Without PARK_HEAD_ON_PAUSE an M25 in the file stops reading it straight away.
      if (/^M25(?!\d)/.test(line)) job.printing = false;
      this.queue.push({ line, fromHost: false });
    }
    if (this.sdFinishPending && this.queue.length < BUFSIZE) {
      this.sdFinishPending = false;
      this.queue.push({ line: 'M1001', fromHost: false, finishesSdPrint: true });
    }
  }

  private async process(entry: QueuedCommand): Promise<void> {
    if (entry.finishesSdPrint) {
      // M1001 runs as a command, so Marlin's host keepalive covers its wait for the last moves.
      await this.whileBusy(this.planner.synchronize(this.signal));
      this.jobTimer = 'idle';
      this.send('Done printing file');
      return;
    }
    if (entry.fromHost && this.sd.writingFile) {
      if (M29.test(entry.line)) {
        this.sd.endWrite();
        this.send('Done saving file.');
      } else {
        this.sd.writeLine(stripFraming(entry.line));
      }
      this.sendOk(entry);
      return;
    }
    const cmd = new GcodeCommand(entry.line);
    const handler = COMMANDS[cmd.key];
    const run = (): HandlerResult | Promise<HandlerResult> => (handler ? handler(cmd, this) : 'unknown');
    let result: HandlerResult;
    if (entry.fromHost && this.faults.strikes('busy')) {
      result = await this.whileBusy(this.sleep(BUSY_FAULT_MS).then(run));
    } else {
      const outcome = run();
      result = outcome instanceof Promise ? await this.whileBusy(outcome) : outcome;
    }
    if (result === 'unknown') this.echo(`Unknown command: "${cmd.text}"`);
    if (result !== 'no-ok' && entry.fromHost) this.sendOk(entry);
  }

  /** Marlin's host keepalive: `busy: processing` every few seconds while a command runs. */
  private async whileBusy<T>(work: Promise<T>): Promise<T> {
    const keepalive = new Periodic(this.clock, () => this.echo('busy: processing'));
    keepalive.start(this.keepaliveSeconds * 1000);
    try {
      return await work;
    } finally {
      keepalive.stop();
    }
  }

  private sendOk(entry: QueuedCommand): void {
    if (!this.settings.advancedOk) {
      this.send('ok');
      return;
    }
    const n = /^ *N(-?\d+)/.exec(entry.line);
    this.send(`ok${n ? ` N${n[1]}` : ''} P${this.planner.free} B${BUFSIZE - this.queue.length}`);
  }

  private sendWaitWhenIdle(): void {
    const idleFor = this.clock.now() - this.lastCommandAt;
    if (this.queue.length > 0 || this.input.waiting > 0 || idleFor < this.settings.noTimeoutsMs) return;
    this.send('wait');
    this.lastCommandAt = this.clock.now();
  }
}
