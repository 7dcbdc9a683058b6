/**
 * The Marlin driver: a printer on a USB serial port, printing files streamed from the box.
 *
 * Connecting: the port opens with the hang-up-safe reader (serial-link.ts), the handshake resets
 * the line number and reads M115 (handshake.ts: identity, extruder count, `Cap:` lines), then
 * temperatures and SD status are set up as auto-reports or polls (report-schedule.ts);
 * `connect()` resolves with the first temperatures asked for. From then on every line goes
 * through the line sender (line-sender.ts: numbers, checksums, one line at a time, resends,
 * probes for lost lines) and every acknowledged command updates the modes and the filament
 * counted per tool (gcode-state.ts).
 *
 * Losing the printer: the port closing (cable pulled, adapter gone), a printer that stops
 * answering, or one that reboots (`start`) ends the connection with `disconnected({retry:
 * true})`; the manager reconnects when the port is back. A host print running then is
 * interrupted: reported as such (status `error`, progress `interrupted`, an error event) and
 * never resumed after the reconnect — the firmware lost its place (most boards reset when the
 * port opens), so going on could print in mid-air or into the part. A fatal firmware error
 * (`Error:Printer halted`, thermal faults) fails the print and shows the printer in error; a
 * halted firmware answers nothing until it is reset, so commands are refused (409) meanwhile.
 */
import { AppError, ErrorCode } from '../../../../common/errors.js';
import { unsupportedAction } from '../../actions.js';
import type {
  CommandResult,
  DriverCapabilities,
  DriverContext,
  DriverEvents,
  DriverFactory,
  DriverState,
  PrinterCommand,
  PrinterDriver,
  UploadProgress,
  UploadSource,
} from '../../driver.js';
import type { PrinterRecord } from '../../printer.js';
import { offlineStatus, type PrinterStatus, type PrintProgressState } from '../../status.js';
import { identityOf, type FirmwareInfo } from './firmware-info.js';
import { cleanCommand } from './framing.js';
import { GcodeState } from './gcode-state.js';
import { FIRST_LINE_AFTER_HANDSHAKE, Handshake } from './handshake.js';
import type { HostPrint } from './host-print.js';
import { LineSender } from './line-sender.js';
import { actionCommands, offeredActions, type ActionContext } from './marlin-actions.js';
import { DEFAULT_MARLIN_TIMINGS, marlinSettings, type MarlinSettings, type MarlinTimings } from './marlin-settings.js';
import { followSdReport, printerStatus, printProgress, progressState, stateDetails, type LiveState } from './marlin-status.js';
import { PrintControl } from './print-control.js';
import { PrinterFiles } from './printer-files.js';
import { classify, isUnknownCommand, parseTemperatures, type Reply, type SdReport } from './replies.js';
import { ReportSchedule } from './report-schedule.js';
import { SerialLink } from './serial-link.js';

/** Progress events while streaming, at most this often (the manager rate-limits again). */
const PROGRESS_EVERY_MS = 250;
const FILAMENT_COMMAND = /^M70[12](?!\d)/;

export class MarlinSerialDriver implements PrinterDriver {
  private readonly settings: MarlinSettings;
  private readonly events: DriverEvents;
  private readonly files: PrinterFiles;
  private readonly gcode = new GcodeState(1);
  private readonly reports: ReportSchedule;
  private readonly control: PrintControl;
  private readonly live: LiveState;
  private link: SerialLink | null = null;
  private handshake: Handshake | null = null;
  private sender: LineSender | null = null;
  /** Bumped per connection; callbacks of an older one are ignored. */
  private session = 0;
  private online = false;
  /** What M115 said last; kept while offline, so the offered actions stay known. */
  private firmware: FirmwareInfo | null = null;
  private filamentCommands: boolean | null = null;
  private lastError: string | null = null;
  private lastPrint: { file: string; result: PrintProgressState; at: string } | null = null;
  private progressAt = 0;

  constructor(
    record: Readonly<PrinterRecord>,
    context: DriverContext,
    private readonly timings: MarlinTimings,
  ) {
    this.settings = marlinSettings(record);
    this.events = context.events;
    this.files = new PrinterFiles(context.dataDir, record.id);
    this.live = { printerId: record.id, heardAt: new Date(), temperatures: {}, partFan: null, fault: null, print: null, sd: null };
    this.reports = new ReportSchedule(
      { send: (command) => this.requireSender().send(command), hostPrinting: () => this.live.print?.active === true },
      { autoReportS: timings.autoReportS, pollIntervalMs: timings.pollIntervalMs },
    );
    this.control = new PrintControl({
      sender: () => this.requireSender(),
      firmware: () => this.firmware,
      gcode: this.gcode,
      live: this.live,
      files: this.files,
      publish: () => this.publish(),
      advanced: () => this.advanced(),
      ended: (print) => this.ended(print),
      info: (line) => this.info(line),
      error: (error) => this.events.error(error),
    });
  }

  get capabilities(): DriverCapabilities {
    return { upload: true, ams: false, camera: false, gcode_console: true, actions: offeredActions(this.actionContext()) };
  }

  async connect(): Promise<void> {
    await this.teardown('reconnecting');
    const session = ++this.session;
    const { port, baud } = this.settings;
    const link = await SerialLink.open(port, baud, {
      line: (text) => {
        if (session === this.session) this.receive(text);
      },
      closed: (reason) => {
        if (session === this.session) this.lost(`the serial port closed (${reason})`);
      },
    });
    if (session !== this.session) {
      await link.close();
      throw new Error('disconnected while connecting');
    }
    this.link = link;
    this.handshake = new Handshake((line) => this.write(line), {
      timeoutMs: this.timings.connectTimeoutMs,
      helloIntervalMs: this.timings.helloIntervalMs,
      describe: `${port} at ${baud} baud`,
    });
    try {
      const firmware = await this.handshake.result;
      if (session !== this.session) throw new Error('disconnected while connecting');
      this.handshake = null;
      this.begin(firmware);
      await this.reports.start(firmware.capabilities);
    } catch (err) {
      if (session === this.session) await this.teardown(err instanceof Error ? err.message : String(err));
      throw err;
    }
    this.online = true;
    this.info(
      `connected to ${this.firmware?.name ?? 'Marlin'} on ${port} at ${baud} baud; ` +
        `temperatures ${this.reports.autoTemperature ? 'auto-reported' : 'polled'}`,
    );
    this.publish();
  }

  async disconnect(): Promise<void> {
    this.session++;
    this.interrupt('the dashboard disconnected from the printer');
    await this.teardown('disconnected');
  }

  status(): PrinterStatus {
    if (!this.online) return offlineStatus(this.settings.printerId, null);
    return printerStatus(this.live);
  }

  state(): DriverState {
    return {
      ams: null,
      details: stateDetails({
        firmware: this.firmware,
        autoReport: { temperature: this.reports.autoTemperature, sd_status: this.reports.autoSdStatus },
        extruded: this.gcode.extrudedMm(),
        tool: this.gcode.tool,
        live: this.live,
        lastPrint: this.lastPrint,
        lastError: this.lastError,
        filamentCommands: this.filamentCommands,
        line: this.sender?.lastLine ?? 0,
        resends: this.sender?.resends ?? 0,
      }),
    };
  }

  async command(command: PrinterCommand): Promise<CommandResult> {
    const sender = this.requireSender();
    if (command.kind === 'gcode') {
      if (command.lines.some((line) => /[\r\n]/.test(line))) throw new AppError(ErrorCode.validation, 400, 'send one G-code command per line');
      const lines = command.lines.map(cleanCommand).filter((line) => line !== '');
      if (lines.length === 0) throw new AppError(ErrorCode.validation, 400, 'send one or more G-code commands (comments alone send nothing)');
      if (lines.some((line) => /^M110(?!\d)/.test(line)))
        throw new AppError(ErrorCode.validation, 400, 'M110 is not sent from the console: the driver numbers the lines');
      return { lines: await sender.sendAll(lines) };
    }
    const commands = actionCommands(command.action, command.params ?? {}, this.actionContext());
    const replies = await sender.sendAll(commands);
    if (FILAMENT_COMMAND.test(commands[0])) {
      this.filamentCommands = !replies.some(isUnknownCommand);
      if (!this.filamentCommands)
        throw unsupportedAction(`the firmware has no ${commands[0].slice(0, 4)} (built without FILAMENT_LOAD_UNLOAD_GCODES)`);
    }
    return { lines: replies };
  }

  /** Stores the file on the box for `start`; works while the printer is offline too. */
  async upload(source: UploadSource, remoteName: string, onProgress?: (progress: UploadProgress) => void): Promise<void> {
    await this.files.store(source, remoteName, onProgress);
    this.info(`stored ${remoteName} for printing`);
  }

  start(remoteName: string): Promise<void> {
    return this.control.start(remoteName);
  }

  pause(): Promise<void> {
    return this.control.pause();
  }

  resume(): Promise<void> {
    return this.control.resume();
  }

  stop(): Promise<void> {
    return this.control.stop();
  }

  /** The handshake is done: a fresh conversation with a firmware that may have been reset. */
  private begin(firmware: FirmwareInfo): void {
    this.firmware = firmware;
    this.gcode.firmwareReset();
    this.gcode.ensureTools(firmware.extruders);
    Object.assign(this.live, { temperatures: {}, partFan: null, fault: null, sd: null });
    this.sender = new LineSender(
      {
        write: (line) => this.write(line),
        accepted: (command) => this.accepted(command),
        dead: (reason) => this.lost(reason),
      },
      this.timings,
      FIRST_LINE_AFTER_HANDSHAKE,
    );
    this.events.identity(identityOf(firmware));
  }

  private receive(line: string): void {
    this.live.heardAt = new Date();
    this.events.log({ direction: 'received', line, at: this.live.heardAt.toISOString() });
    if (this.handshake) {
      this.handshake.receive(line);
      return;
    }
    const sender = this.sender;
    if (!sender) return;
    const reply = classify(line);
    this.observe(reply, line);
    sender.received(reply, line, this.isAnswer(reply));
  }

  /** What a line tells about the printer, besides the flow of lines. */
  private observe(reply: Reply, line: string): void {
    switch (reply.kind) {
      case 'start':
        this.lost('the printer restarted (it printed "start")');
        return;
      case 'temperatures':
        this.temperatures(reply.temperatures.heaters);
        return;
      case 'ok': {
        const temperatures = parseTemperatures(reply.rest);
        if (temperatures) this.temperatures(temperatures.heaters);
        return;
      }
      case 'sd':
        this.sdReport(reply.report);
        return;
      case 'error':
        this.printerError(reply.text, reply.fatal, reply.halted);
        return;
      case 'line-error':
        this.info(`the printer refused a damaged line: ${line}`);
        return;
      case 'action':
        this.hostAction(reply.action);
        return;
      default:
    }
  }

  /** Lines that answer the command in flight (periodic reports do not). */
  private isAnswer(reply: Reply): boolean {
    if (reply.kind === 'other' || reply.kind === 'error') return true;
    return reply.kind === 'sd' && !this.reports.autoSdStatus;
  }

  private accepted(command: string): void {
    this.gcode.apply(command);
    if (this.gcode.partFan !== this.live.partFan) {
      this.live.partFan = this.gcode.partFan;
      this.publish();
    }
    // M999 restarts a firmware stopped by an error (one that was not halted).
    if (/^M999(?!\d)/.test(command) && this.live.fault) {
      this.live.fault = null;
      this.publish();
    }
  }

  private temperatures(heaters: LiveState['temperatures']): void {
    this.live.temperatures = { ...this.live.temperatures, ...heaters };
    if (this.online) this.events.status(this.status());
  }

  private sdReport(report: SdReport): void {
    const wasFinished = this.live.sd?.finished === true;
    const { changed, askName } = followSdReport(this.live, report);
    if (askName) this.sender?.send('M27 C').catch(() => undefined);
    const sd = this.live.sd;
    if (sd?.finished && !wasFinished) this.lastPrint = { file: sd.file ?? '(SD card)', result: 'finished', at: new Date().toISOString() };
    if (changed) this.publish();
  }

  private printerError(text: string, fatal: boolean, halted: boolean): void {
    this.lastError = text;
    this.events.error(new Error(`the printer reported an error: ${text}`));
    if (fatal) {
      this.live.fault = text;
      const print = this.live.print;
      if (print?.active) {
        print.setState('failed', `the print of ${print.file} failed: the printer stopped (${text})`);
        this.ended(print);
      }
    }
    if (halted) {
      this.reports.stop();
      this.sender?.close(
        new AppError(
          ErrorCode.conflict,
          409,
          `the printer halted (${text}) and answers nothing until it is reset: ` +
            'power-cycle it, or disable and enable it here (most boards reset when the port opens)',
        ),
      );
    }
    this.publish();
  }

  /** `//action:` lines: the printer's own controls ask the host to pause, resume or cancel. */
  private hostAction(action: string): void {
    const run = { pause: () => this.pause(), resume: () => this.resume(), cancel: () => this.stop() }[action];
    if (!run) return;
    this.info(`the printer asked for ${action}`);
    run().catch((err: Error) => this.info(`${action} asked by the printer was not done: ${err.message}`));
  }

  private ended(print: HostPrint): void {
    const result = progressState(print);
    this.lastPrint = { file: print.file, result, at: new Date().toISOString() };
    this.info(`the print of ${print.file} ${result === 'finished' ? 'finished' : `ended: ${result}`}`);
  }

  /** A host print that was running is interrupted, never to be resumed by this connection or the next. */
  private interrupt(reason: string): void {
    const print = this.live.print;
    if (!print?.active) return;
    const { lines_done, lines_total } = print.counts();
    const message =
      `the print of ${print.file} was interrupted at ${print.job().progress} % (line ${lines_done} of ${lines_total}): ${reason}; ` +
      'it will not be resumed — stop it to switch the heaters off, or start a print again';
    print.setState('interrupted', message);
    this.ended(print);
    this.events.error(new Error(message));
    this.publish();
  }

  /** The connection went away on its own (or the printer stopped answering): tidy up, tell the manager. */
  private lost(reason: string): void {
    const wasOnline = this.online;
    this.session++;
    this.interrupt(reason);
    void this.teardown(reason);
    if (wasOnline) this.events.disconnected({ message: reason, retry: true });
  }

  /** Ends the connection, if any: waiting commands fail, a connect still in its handshake fails with `reason`. */
  private async teardown(reason: string): Promise<void> {
    this.online = false;
    this.handshake?.cancel(reason);
    this.handshake = null;
    this.reports.stop();
    this.sender?.close(new AppError(ErrorCode.unavailable, 503, `the printer on ${this.settings.port} is not connected: ${reason}`));
    this.sender = null;
    this.live.sd = null;
    const link = this.link;
    this.link = null;
    await link?.close();
  }

  private publish(): void {
    if (!this.online) return;
    this.events.status(this.status());
    const progress = printProgress(this.live, this.gcode.extrudedMm());
    if (progress) this.events.progress(progress);
    this.progressAt = Date.now();
  }

  private advanced(): void {
    if (Date.now() - this.progressAt >= PROGRESS_EVERY_MS) this.publish();
  }

  private write(line: string): void {
    this.link?.write(line);
    this.events.log({ direction: 'sent', line, at: new Date().toISOString() });
  }

  private requireSender(): LineSender {
    if (!this.sender) throw new AppError(ErrorCode.unavailable, 503, `the printer on ${this.settings.port} is not connected`);
    return this.sender;
  }

  private actionContext(): ActionContext {
    const printing = this.live.print?.active === true || (this.live.sd !== null && !this.live.sd.finished);
    return { firmware: this.firmware, printing, filamentCommands: this.filamentCommands };
  }

  private info(line: string): void {
    this.events.log({ direction: 'info', line, at: new Date().toISOString() });
  }
}

/** A factory with other timings (tests, benchmarks); the dashboard registers the defaults. */
export function marlinSerialDriverFactory(timings: Partial<MarlinTimings> = {}): DriverFactory {
  const merged = { ...DEFAULT_MARLIN_TIMINGS, ...timings };
  return (record, context) => new MarlinSerialDriver(record, context, merged);
}

export const createMarlinSerialDriver: DriverFactory = marlinSerialDriverFactory();
