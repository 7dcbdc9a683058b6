/**
 * One virtual Bambu printer: an MQTT client of the broker (as the printer's own firmware is the
 * only publisher on `device/<serial>/report`), a clock that moves its state on, and the reports
 * it pushes every period — whole (X1C) or as deltas from its last report (P1S), the first
 * after a `pushall` always whole. Faults (faults.ts) act on what it publishes and accepts.
 *
 * Events, for tests and logs: `request` ({ message, outcome }) for every request read,
 * `publish` (message) for every publish sent, `drop` (message, fault) for publishes a fault ate.
 */
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from '../../../appliance/common/logger.js';
import { buildAms, type AmsOptions } from './ams.js';
import { HMS_COMMAND_VERIFICATION, PublishDropper, type FaultName } from './faults.js';
import { MODELS, type ModelName, type ModelProfile } from './models.js';
import { reportTopic, requestTopic } from './mosquitto-config.js';
import { PrinterState } from './printer-state.js';
import { diffReport, fullReport, type Report } from './report.js';
import { handleRequest, type Message, type RequestContext } from './requests.js';
import type { SdCard } from './sd-card.js';

const WIFI_DBM = -45;
const CONNECT_TIMEOUT_MS = 10_000;
const RECONNECT_MS = 250;
const SCREEN_JOB = 'Started on the printer screen';

export interface VirtualPrinterOptions {
  serial: string;
  accessCode: string;
  model: ModelName;
  sd: SdCard;
  /** The broker's internal listener and this printer's account on it. */
  broker: { host: string; port: number; username: string; password: string };
  /** Printer seconds per real second. */
  timeScale: number;
  pushIntervalMs: number;
  /** Delay of the report clock, so printers of a farm do not all report at the same instant; 0 by default. */
  pushOffsetMs?: number;
  prepareSeconds: number;
  /** Share of publishes lost under `dropPublishes`. */
  dropRatio: number;
  ams?: AmsOptions;
  log: Logger;
}

export class VirtualBambuPrinter extends EventEmitter {
  readonly serial: string;
  readonly accessCode: string;
  readonly model: ModelProfile;
  readonly state: PrinterState;
  readonly sd: SdCard;
  private readonly faults = new Set<FaultName>();
  private readonly dropper: PublishDropper;
  private readonly context: RequestContext;
  private client: MqttClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private offsetTimer: NodeJS.Timeout | null = null;
  private lastTick = 0;
  private baseline: Report | null = null;
  private sequence = 0;
  private pushPending = false;

  constructor(private readonly options: VirtualPrinterOptions) {
    super();
    this.serial = options.serial;
    this.accessCode = options.accessCode;
    this.model = MODELS[options.model];
    this.sd = options.sd;
    this.state = new PrinterState(buildAms(options.serial, options.ams), this.model.lights);
    this.dropper = new PublishDropper(options.dropRatio);
    this.context = {
      serial: this.serial,
      model: this.model,
      state: this.state,
      sd: this.sd,
      faults: this.faults,
      prepareSeconds: options.prepareSeconds,
      log: options.log,
      now: () => Date.now(),
      publish: (message) => this.publish(message),
      pushFull: () => this.pushFull(),
      resumeStream: () => this.faults.delete('silentStream'),
      changed: () => this.pushSoon(),
      starting: false,
    };
    // The P1S's first deltas are relative to its state at power-on.
    this.baseline = this.report();
  }

  /** Connects to the broker and starts the clock; resolves once the request topic is subscribed. */
  start(): Promise<void> {
    const { broker } = this.options;
    const client = mqtt.connect({
      host: broker.host,
      port: broker.port,
      protocol: 'mqtt',
      protocolVersion: 4,
      username: broker.username,
      password: broker.password,
      clientId: `printyard-virtual-${this.serial}`,
      clean: true,
      reconnectPeriod: RECONNECT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      queueQoSZero: false,
      resubscribe: false,
    });
    this.client = client;
    client.on('message', (_topic, payload) => void this.onRequest(payload));
    client.on('error', (err) => this.options.log.debug('broker connection error', { serial: this.serial, error: err.message }));
    const subscribed = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`printer ${this.serial} could not reach the broker`)), CONNECT_TIMEOUT_MS);
      client.on('connect', () => {
        client.subscribe(requestTopic(this.serial), { qos: 1 }, (err) => {
          if (err) {
            this.options.log.error('subscribe failed', { serial: this.serial, error: err.message });
            return;
          }
          clearTimeout(timer);
          resolve();
        });
      });
    });
    this.lastTick = performance.now();
    const clockStart = () => {
      this.offsetTimer = null;
      this.timer = setInterval(() => this.tick(), this.options.pushIntervalMs);
    };
    const offset = this.options.pushOffsetMs ?? 0;
    if (offset > 0) this.offsetTimer = setTimeout(clockStart, offset);
    else clockStart();
    return subscribed;
  }

  async stop(): Promise<void> {
    if (this.offsetTimer) clearTimeout(this.offsetTimer);
    this.offsetTimer = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    if (client) await client.endAsync(true);
  }

  /** The full report body as a `pushall` would send it now. */
  report(): Report {
    return fullReport({ model: this.model, state: this.state, developerMode: !this.faults.has('developerModeOff'), wifiDbm: WIFI_DBM });
  }

  hasFault(name: FaultName): boolean {
    return this.faults.has(name);
  }

  activeFaults(): FaultName[] {
    return [...this.faults];
  }

  /** Switches a fault; the broker side of `wrongAccessCode` is the farm's. */
  setFault(name: FaultName, on: boolean): void {
    if (on === this.faults.has(name)) return;
    if (on) this.faults.add(name);
    else this.faults.delete(name);
    const { state } = this;
    if (name === 'busy' && on && !state.active) {
      const ids = { subtaskId: '0', taskId: '0', projectId: '0', profileId: '0' };
      state.begin({ name: SCREEN_JOB, file: '', ids, plan: null, mapping: [], useAms: false, prepareSeconds: 0, now: Date.now() });
    }
    if (name === 'busy' && !on && state.active && state.job?.plan === null) state.finish();
    if (name === 'developerModeOff' && !on) state.clearHms(HMS_COMMAND_VERIFICATION.attr, HMS_COMMAND_VERIFICATION.code);
    this.options.log.info(`fault ${name} ${on ? 'on' : 'off'}`, { serial: this.serial });
    this.pushSoon();
  }

  private async onRequest(payload: Buffer): Promise<void> {
    try {
      this.emit('request', await handleRequest(this.context, payload));
    } catch (err) {
      this.options.log.error('request failed', { serial: this.serial, error: (err as Error).stack ?? String(err) });
    }
  }

  private tick(): void {
    const now = performance.now();
    this.state.tick(((now - this.lastTick) / 1000) * this.options.timeScale);
    this.lastTick = now;
    this.pushPeriodic();
  }

  private pushSoon(): void {
    if (this.pushPending) return;
    this.pushPending = true;
    setImmediate(() => {
      this.pushPending = false;
      if (this.timer || this.offsetTimer) this.pushPeriodic();
    });
  }

  private pushPeriodic(): void {
    const body = this.report();
    if (this.model.pushStyle === 'full') {
      this.publish(this.envelope(body, 0));
      return;
    }
    const delta = (diffReport(this.baseline, body) as Report | undefined) ?? { wifi_signal: body.wifi_signal };
    this.baseline = body;
    this.publish(this.envelope(delta, 1));
  }

  private pushFull(): void {
    const body = this.report();
    this.baseline = body;
    this.publish(this.envelope(body, 0));
  }

  private envelope(body: Report, msg: number): Message {
    return { print: { command: 'push_status', msg, sequence_id: String(++this.sequence), ...body } };
  }

  private publish(message: Message): void {
    if (this.faults.has('silentStream')) {
      this.emit('drop', message, 'silentStream');
      return;
    }
    if (this.faults.has('dropPublishes') && this.dropper.next()) {
      this.emit('drop', message, 'dropPublishes');
      return;
    }
    const client = this.client;
    if (!client?.connected) return;
    client.publish(reportTopic(this.serial), JSON.stringify(message), { qos: 0 });
    this.emit('publish', message);
  }
}
