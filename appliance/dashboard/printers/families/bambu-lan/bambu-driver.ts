/**
 * The Bambu Lab LAN driver: MQTT over TLS for state and commands, implicit FTPS for files.
 *
 * Connecting: TLS to `mqtt_port` checked against the configured CA or the pin (tls-trust.ts),
 * MQTT as `bblp` with the access code (mqtt-link.ts), `get_version` and `pushall`; `connect()`
 * resolves once the printer's whole state arrived. A refused access code or certificate is a
 * PermanentConnectError. Then every report is merged (report-state.ts) and read as status,
 * progress and AMS events (bambu-status.ts); lost reports (a sequence gap) are made good with a
 * `pushall`, at most every `resyncIntervalMs` plus once for each command awaiting its effect.
 *
 * Liveness: `silenceMs` without a message → `pushing.start`; still nothing `silenceRecoveryMs`
 * later → the session is dropped and reported lost (the manager reconnects).
 *
 * Commands wait for their reply or their visible effect (pending-requests.ts); a printer that
 * refuses control commands (Developer Mode off: HMS 0500-0500-0001-0007, or `fun` on X1/H2)
 * fails them with an error saying so instead of hanging. Starts are refused while the printer is
 * busy, and watched until the print shows (start-watchdog.ts).
 */
import { randomBytes } from 'node:crypto';
import { AppError, ErrorCode } from '../../../../common/errors.js';
import type { Logger } from '../../../../common/logger.js';
import type {
  CommandResult,
  DriverCapabilities,
  DriverContext,
  DriverEvents,
  DriverFactory,
  DriverState,
  PrinterCommand,
  PrinterDriver,
  StartOptions,
  StartPlan,
  UploadProgress,
  UploadSource,
} from '../../driver.js';
import type { PrinterRecord } from '../../printer.js';
import { offlineStatus, type AmsUpdate, type PrinterStatus } from '../../status.js';
import { actionRequest, BAMBU_ACTIONS, gcodeRequest } from './bambu-actions.js';
import type { BambuRequest } from './bambu-request.js';
import { bambuSettings, type BambuSettings } from './bambu-settings.js';
import { ACTIVE_STATES, amsUpdate, commandsRefused, funDeveloperMode, gcodeState, printerStatus, printJob, stateDetails } from './bambu-status.js';
import { readProjectFilaments, uploadFile, type TransferTarget } from './file-transfer.js';
import { MqttLink } from './mqtt-link.js';
import { PendingRequests } from './pending-requests.js';
import { CertificatePins } from './pin-store.js';
import { checkRemoteName, planMapping, plannedFeeds, projectFileRequest } from './print-start.js';
import { filamentsForPlate, type ProjectFilaments } from './project-filaments.js';
import { ReportState, type Json } from './report-state.js';
import { SilenceWatchdog } from './silence-watchdog.js';
import { StartWatchdog } from './start-watchdog.js';
import { openTrustedSocket } from './tls-trust.js';

export interface BambuTimings {
  /** TLS, MQTT session and the first full state. */
  connectTimeoutMs: number;
  /** A command's reply or effect. */
  commandTimeoutMs: number;
  silenceMs: number;
  silenceRecoveryMs: number;
  /** A start must show as PREPARE/RUNNING within this. */
  startTimeoutMs: number;
  /** Least time between two `pushall`s asked for because reports were lost (P1 firmware dislikes many). */
  resyncIntervalMs: number;
  /** An FTPS reply or a stalled data connection. */
  transferTimeoutMs: number;
}

export const DEFAULT_BAMBU_TIMINGS: BambuTimings = {
  connectTimeoutMs: 10_000,
  commandTimeoutMs: 10_000,
  silenceMs: 60_000,
  silenceRecoveryMs: 15_000,
  startTimeoutMs: 90_000,
  resyncIntervalMs: 300_000,
  transferTimeoutMs: 30_000,
};

const PUSHALL = { version: 1, push_target: 1 };
const VENDOR = 'Bambu Lab';
/* While connecting, a report that is not the full state asks again, at most this often. */
const HANDSHAKE_REPEAT_MS = 1_000;
const RESYNC_JITTER_MS = 500;
/* Filament lists kept for files uploaded but not yet started; the oldest go first. */
const REMEMBERED_PROJECTS = 100;

export const DEVELOPER_MODE_MESSAGE =
  'the printer ignores control commands: it is in LAN-only mode without Developer Mode (HMS 0500-0500-0001-0007 ' +
  '"MQTT command verification failed"). Turn on Developer Mode on the printer\'s screen (LAN Only Mode settings) to control it from Printyard';

function developerModeError(): AppError {
  return new AppError(ErrorCode.conflict, 409, DEVELOPER_MODE_MESSAGE, { reason: 'developer_mode_off' });
}

export class BambuLanDriver implements PrinterDriver {
  readonly capabilities: DriverCapabilities = { upload: true, ams: true, camera: false, gcode_console: true, actions: BAMBU_ACTIONS };
  private readonly settings: BambuSettings;
  private readonly events: DriverEvents;
  private readonly log: Logger;
  private readonly pins: CertificatePins;
  private readonly clientId: string;
  private readonly report = new ReportState();
  private readonly pending = new PendingRequests();
  private readonly startWatch = new StartWatchdog();
  private readonly silence: SilenceWatchdog;
  /** Filament lists of the projects this driver uploaded, by file name. */
  private readonly projects = new Map<string, ProjectFilaments | null>();
  private link: MqttLink | null = null;
  /** Bumped per session; callbacks of an older one are ignored. */
  private session = 0;
  private online = false;
  private handshakeWaiter: ((err: Error | null) => void) | null = null;
  private lastHeard = new Date();
  private lastResync = Number.NEGATIVE_INFINITY;
  private resyncTimer: NodeJS.Timeout | null = null;
  private lastRequest = Number.NEGATIVE_INFINITY;
  private startError: string | null = null;
  private ams: AmsUpdate | null = null;
  private refusedBefore = false;

  constructor(
    record: Readonly<PrinterRecord>,
    context: DriverContext,
    private readonly timings: BambuTimings,
  ) {
    this.settings = bambuSettings(record);
    this.events = context.events;
    this.log = context.log;
    this.pins = new CertificatePins(context.dataDir, context.log);
    this.clientId = `printyard_${this.settings.serial}_${randomBytes(4).toString('hex')}`;
    this.silence = new SilenceWatchdog({
      silenceMs: timings.silenceMs,
      recoveryMs: timings.silenceRecoveryMs,
      onSilent: () => {
        this.info(`no message for ${timings.silenceMs / 1000} s: sending pushing.start`);
        this.link?.publish('pushing', 'start');
      },
      onDead: (ms) => this.drop(`no message from the printer for ${Math.round(ms / 1000)} s, not even after pushing.start`),
    });
  }

  async connect(): Promise<void> {
    this.teardown();
    const session = ++this.session;
    const { host, mqttPort, serial, printerId, ca, accessCode } = this.settings;
    const socket = await openTrustedSocket({
      host,
      port: mqttPort,
      serial,
      printerId,
      ca,
      pins: this.pins,
      service: 'mqtt',
      timeoutMs: this.timings.connectTimeoutMs,
    });
    const link = await MqttLink.open(socket, {
      serial,
      accessCode,
      clientId: this.clientId,
      timeoutMs: this.timings.connectTimeoutMs,
      onMessage: (m) => {
        if (session === this.session) this.receive(m);
      },
      onClose: (reason) => {
        if (session === this.session) this.lost(reason);
      },
    });
    if (session !== this.session) {
      link.close();
      throw new Error('disconnected while connecting');
    }
    this.link = link;
    try {
      await this.handshake(link);
    } catch (err) {
      this.teardown();
      throw err;
    }
    this.online = true;
    this.silence.start();
    this.info(`connected to ${serial} at ${host}:${mqttPort}`);
    this.publishState(true);
  }

  async disconnect(): Promise<void> {
    this.session++;
    this.teardown();
  }

  status(): PrinterStatus {
    if (!this.online) return offlineStatus(this.settings.printerId, null);
    return printerStatus(this.settings.printerId, this.report.print, this.lastHeard, { error: this.startError });
  }

  state(): DriverState {
    return { ams: this.online ? this.ams : null, details: this.online ? stateDetails(this.report.print) : {} };
  }

  async command(command: PrinterCommand): Promise<CommandResult> {
    this.requireOnline();
    if (command.kind === 'gcode') {
      const lines = command.lines.map((line) => line.trim()).filter((line) => line !== '');
      if (lines.length === 0 || lines.some((line) => /[\r\n]/.test(line)))
        throw new AppError(ErrorCode.validation, 400, 'send one or more non-empty G-code lines');
      await this.request(gcodeRequest(lines));
      return { lines: [] };
    }
    await this.request(actionRequest(command.action, command.params ?? {}, this.report.print));
    return { lines: [] };
  }

  async upload(source: UploadSource, remoteName: string, onProgress?: (progress: UploadProgress) => void): Promise<void> {
    this.requireOnline();
    checkRemoteName(remoteName);
    const filaments = await uploadFile(this.transferTarget(), source, remoteName, onProgress);
    this.remember(remoteName, filaments);
    this.info(`stored ${remoteName} on the printer`);
  }

  async start(remoteName: string, options: StartOptions = {}): Promise<void> {
    this.requireOnline();
    checkRemoteName(remoteName);
    this.refuseWhenBusy();
    const filaments = options.ams_mapping === undefined ? await this.projectFilaments(remoteName) : null;
    this.requireOnline();
    this.refuseWhenBusy();
    const plan = planMapping(filamentsForPlate(filaments, options.plate ?? 1), this.ams, options.ams_mapping);
    const subtaskId = String(Date.now());
    const params = projectFileRequest(remoteName, options, plan, subtaskId);
    this.startError = null;
    this.startWatch.arm({
      file: remoteName,
      timeoutMs: this.timings.startTimeoutMs,
      before: this.report.print,
      onStarted: () => this.info(`the print of ${remoteName} started`),
      onFailed: (reason) => {
        this.startError = reason;
        this.events.error(new Error(reason));
        this.publishState(false);
      },
    });
    const noReply = new AppError(ErrorCode.unavailable, 503, 'no reply to project_file');
    try {
      await this.request({ kind: 'print', command: 'project_file', params, confirm: (p) => ACTIVE_STATES.has(gcodeState(p)) }, () => noReply);
      this.info(`started ${remoteName} (plate ${options.plate ?? 1}, ams_mapping ${plan.mapping ? JSON.stringify(plan.mapping) : 'none'})`);
    } catch (err) {
      // A lost reply is no refusal: the watchdog decides whether the print began.
      if (err === noReply) {
        this.info(`no reply to the start of ${remoteName}; the start watchdog keeps watching`);
        return;
      }
      this.startWatch.disarm();
      throw err;
    }
  }

  /**
   * The AMS mapping a start with `options` would use and the trays it feeds from: the caller
   * announces the feeds and passes `options` (with the mapping) to `start()`, which then uses this
   * mapping as given, so the announcement and the print cannot disagree.
   */
  async planStart(remoteName: string, options: StartOptions = {}): Promise<StartPlan> {
    this.requireOnline();
    checkRemoteName(remoteName);
    const used = filamentsForPlate(await this.projectFilaments(remoteName), options.plate ?? 1);
    const plan = planMapping(used, this.ams, options.ams_mapping);
    return {
      feeds: plannedFeeds(used, plan.mapping, this.ams),
      options: plan.mapping === null ? options : { ...options, ams_mapping: plan.mapping },
    };
  }

  /** The filaments of a project on the card: remembered from its upload, else read from the card. */
  private async projectFilaments(remoteName: string): Promise<ProjectFilaments | null> {
    let filaments = this.projects.get(remoteName);
    if (filaments === undefined && /\.3mf$/i.test(remoteName)) {
      filaments = await readProjectFilaments(this.transferTarget(), remoteName);
      this.remember(remoteName, filaments);
    }
    return filaments ?? null;
  }

  pause(): Promise<void> {
    return this.control('pause', ['RUNNING', 'PREPARE', 'SLICING'], (p) => gcodeState(p) === 'PAUSE');
  }

  resume(): Promise<void> {
    return this.control('resume', ['PAUSE'], (p) => ['RUNNING', 'PREPARE'].includes(gcodeState(p)));
  }

  stop(): Promise<void> {
    return this.control('stop', [...ACTIVE_STATES], (p) => !ACTIVE_STATES.has(gcodeState(p)));
  }

  private async control(command: 'pause' | 'resume' | 'stop', allowed: readonly string[], confirm: (print: Json) => boolean): Promise<void> {
    this.requireOnline();
    const state = gcodeState(this.report.print) || 'unknown';
    if (!allowed.includes(state)) throw new AppError(ErrorCode.conflict, 409, `cannot ${command}: the printer is ${state}`);
    await this.request({ kind: 'print', command, params: { param: '' }, confirm });
  }

  /** Sends a request and waits for its reply or effect (pending-requests.ts). */
  private async request(request: BambuRequest, onTimeout?: () => AppError): Promise<void> {
    const link = this.requireOnline();
    if (funDeveloperMode(this.report.print) === false) throw developerModeError();
    const sequenceId = link.publish(request.kind, request.command, request.params);
    this.lastRequest = performance.now();
    this.events.log({
      direction: 'sent',
      line: `${request.kind}.${request.command} ${JSON.stringify(request.params)}`,
      at: new Date().toISOString(),
    });
    const seconds = this.timings.commandTimeoutMs / 1000;
    await this.pending.wait(sequenceId, request.kind, request.command, {
      timeoutMs: this.timings.commandTimeoutMs,
      ...(request.confirm ? { confirm: request.confirm } : {}),
      onTimeout: () => {
        if (commandsRefused(this.report.print)) return developerModeError();
        return (
          onTimeout?.() ??
          new AppError(
            ErrorCode.unavailable,
            503,
            `the printer did not confirm ${request.kind}.${request.command} within ${seconds} s (it may still act on it)`,
          )
        );
      },
    });
  }

  private handshake(link: MqttLink): Promise<void> {
    return new Promise((resolve, reject) => {
      let lastAsk = performance.now();
      const timer = setTimeout(
        () => finish(new Error(`the printer accepted the connection but sent no state within ${this.timings.connectTimeoutMs / 1000} s`)),
        this.timings.connectTimeoutMs,
      );
      const finish = (err: Error | null): void => {
        clearTimeout(timer);
        this.handshakeWaiter = null;
        if (err) reject(err);
        else resolve();
      };
      this.handshakeWaiter = (err) => {
        if (err || this.report.complete) return finish(err);
        if (performance.now() - lastAsk >= HANDSHAKE_REPEAT_MS) {
          lastAsk = performance.now();
          link.publish('pushing', 'pushall', PUSHALL);
        }
      };
      link.publish('info', 'get_version');
      link.publish('pushing', 'pushall', PUSHALL);
    });
  }

  private receive(message: Json): void {
    this.lastHeard = new Date();
    this.silence.heard();
    for (const [kind, body] of Object.entries(message)) {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) continue;
      const entry = body as Json;
      if (kind === 'print' && entry.command === 'push_status') this.onReport(entry);
      else if (kind === 'info' && entry.command === 'get_version') this.onVersion(entry);
      else this.events.log({ direction: 'received', line: JSON.stringify({ [kind]: entry }), at: this.lastHeard.toISOString() });
      this.pending.reply(kind, entry);
    }
  }

  private onReport(report: Json): void {
    const { gap, ams } = this.report.apply(report);
    if (this.handshakeWaiter) {
      this.handshakeWaiter(null);
      return;
    }
    const print = this.report.print;
    if (gap) this.resync();
    const refused = commandsRefused(print);
    if (refused && !this.refusedBefore) {
      this.events.error(new Error(DEVELOPER_MODE_MESSAGE));
      this.pending.rejectAll(developerModeError());
    }
    this.refusedBefore = refused;
    if (ACTIVE_STATES.has(gcodeState(print)) && !this.startWatch.watching) this.startError = null;
    this.pending.observe(print);
    this.startWatch.observe(print);
    this.publishState(ams);
  }

  private onVersion(reply: Json): void {
    const modules = Array.isArray(reply.module) ? (reply.module as Json[]) : [];
    const ota = modules.find((m) => m?.name === 'ota');
    const named = modules.find((m) => typeof m?.product_name === 'string' && m.product_name !== '');
    this.events.identity({
      vendor: VENDOR,
      model: typeof named?.product_name === 'string' ? named.product_name : null,
      firmware: typeof ota?.sw_ver === 'string' ? ota.sw_ver : null,
    });
  }

  /**
   * Reports were lost: ask for the whole state, unless that was done recently and no command
   * waits for it. The ask goes out after a random pause, so a farm's printers do not all ask at
   * once, and the answer does not fall in step with whatever keeps losing the printer's messages.
   */
  private resync(): void {
    const now = performance.now();
    if (this.resyncTimer || (now - this.lastResync < this.timings.resyncIntervalMs && this.lastResync > this.lastRequest)) return;
    this.lastResync = now;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = null;
      this.link?.publish('pushing', 'pushall', PUSHALL);
    }, Math.random() * RESYNC_JITTER_MS);
  }

  private publishState(includeAms: boolean): void {
    const { printerId } = this.settings;
    const print = this.report.print;
    this.events.status(this.status());
    const job = printJob(print, this.lastHeard);
    if (job) this.events.progress({ ...job, printer_id: printerId, updated_at: this.lastHeard.toISOString() });
    if (includeAms) {
      this.ams = amsUpdate(printerId, print, this.lastHeard);
      this.events.ams(this.ams);
    }
  }

  private remember(remoteName: string, filaments: ProjectFilaments | null): void {
    this.projects.delete(remoteName);
    this.projects.set(remoteName, filaments);
    if (this.projects.size > REMEMBERED_PROJECTS) this.projects.delete(this.projects.keys().next().value as string);
  }

  private transferTarget(): TransferTarget {
    const { host, ftpsPort, serial, printerId, accessCode, ca } = this.settings;
    return { host, port: ftpsPort, serial, printerId, accessCode, ca, pins: this.pins, timeoutMs: this.timings.transferTimeoutMs };
  }

  private refuseWhenBusy(): void {
    const state = gcodeState(this.report.print);
    if (ACTIVE_STATES.has(state)) {
      throw new AppError(ErrorCode.conflict, 409, `the printer is busy (${state}); a start is only sent to an idle, finished or failed printer`);
    }
    if (this.startWatch.watching) throw new AppError(ErrorCode.conflict, 409, 'a start sent to this printer has not shown yet; wait for it');
  }

  private requireOnline(): MqttLink {
    if (!this.online || !this.link) throw new AppError(ErrorCode.unavailable, 503, `printer ${this.settings.serial} is not connected`);
    return this.link;
  }

  /** The session is gone on its own (broker restart, network): tidy up and tell the manager. */
  private lost(reason: string): void {
    const wasOnline = this.online;
    this.teardown(reason);
    if (wasOnline) this.events.disconnected({ message: reason, retry: true });
  }

  /** Ends a session that looks alive but is not. */
  private drop(reason: string): void {
    this.log.warn(reason);
    this.session++;
    this.lost(reason);
  }

  /** Closes the session, if any; a connect still waiting for the printer's state fails with `reason`. */
  private teardown(reason = 'disconnected'): void {
    this.handshakeWaiter?.(new Error(reason));
    this.online = false;
    this.silence.stop();
    this.startWatch.disarm();
    this.pending.rejectAll(new AppError(ErrorCode.unavailable, 503, `printer ${this.settings.serial} disconnected: ${reason}`));
    this.link?.close();
    this.link = null;
    this.report.reset();
    this.ams = null;
    this.refusedBefore = false;
    this.lastResync = Number.NEGATIVE_INFINITY;
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    this.resyncTimer = null;
  }

  private info(line: string): void {
    this.events.log({ direction: 'info', line, at: new Date().toISOString() });
  }
}

/** A factory with other timings (tests, benchmarks); the dashboard registers the defaults. */
export function bambuLanDriverFactory(timings: Partial<BambuTimings> = {}): DriverFactory {
  const merged = { ...DEFAULT_BAMBU_TIMINGS, ...timings };
  return (record, context) => new BambuLanDriver(record, context, merged);
}

export const createBambuLanDriver: DriverFactory = bambuLanDriverFactory();
