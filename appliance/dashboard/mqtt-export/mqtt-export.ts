/**
 * The fleet on an MQTT broker (settings `mqtt.*`): a session with the broker (TLS for mqtts://,
 * a last will that marks every entity unavailable, reconnects with a doubling delay), the Home
 * Assistant discovery configs of every printer (re-sent when a printer or the box is renamed,
 * cleared when a printer is removed), each printer's state on change (at most once per
 * `min_interval_ms`), and the buttons' commands mapped to the printers' controls.
 *
 * Trust: a command from the broker acts as `mqtt.command_role`, as an API key of that role would.
 * The broker does not say who published, so whoever may publish to it controls the printers:
 * the export is off by default and `mqtt.buttons: false` drops the buttons and their commands.
 */
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import type { Logger } from '../../common/logger.js';
import type { DashboardContext } from '../feature.js';
import { ROLES } from '../http/route.js';
import { loadBoxId } from '../network/box-id.js';
import { PrinterControl } from '../printers/control.js';
import type { Printers } from '../printers/feature.js';
import type { PrinterView } from '../printers/printer.js';
import type { PrintProgress } from '../printers/status.js';
import type { DashboardSettings } from '../settings/settings.js';
import {
  actionOfPayload,
  availabilityTopic,
  clearedMessages,
  commandFilter,
  discoveryMessages,
  OFFLINE,
  ONLINE,
  printerOfCommandTopic,
  printerOfStateConfig,
  stateConfigFilter,
  stateTopic,
  statePayload,
  type TopicLayout,
} from './discovery.js';

type MqttSettings = DashboardSettings['mqtt'];

const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 60_000;
const CONNECT_TIMEOUT_MS = 10_000;
/** Pause, resume and stop need this role through the API (printers/control-routes.ts). */
const CONTROL_ROLE = 'print';

export interface MqttExportOptions {
  /** First reconnect delay (doubles up to a minute); tests shorten it. */
  firstRetryMs?: number;
}

export interface MqttExportInfo {
  enabled: boolean;
  connected: boolean;
  broker: string | null;
  last_error: string | null;
  printers: number;
  commands: number;
}

/** The broker URL as shown: without credentials. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

export class MqttExport {
  private readonly log: Logger;
  private readonly control: PrinterControl;
  private client: MqttClient | null = null;
  private connected = false;
  private running: MqttSettings | null = null;
  private layout: TopicLayout | null = null;
  private boxId = '';
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | null = null;
  private lastError: string | null = null;
  private commands = 0;
  /** Printer id → the discovery payloads last published (to skip unchanged ones and clear removed printers). */
  private published = new Map<string, string>();
  private readonly lastState = new Map<string, string>();
  private readonly lastSentAt = new Map<string, number>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly progress = new Map<string, PrintProgress>();
  private readonly unsubscribe: Array<() => void> = [];
  /** Reconnects one after the other, so quick settings changes never leave two sessions. */
  private switching: Promise<void> = Promise.resolve();
  /** The settings the export runs with once the queued switches are done. */
  private wanted: MqttSettings | null = null;

  constructor(
    private readonly ctx: DashboardContext,
    private readonly printers: Printers,
    private readonly options: MqttExportOptions = {},
  ) {
    this.log = ctx.log.child('mqtt');
    this.control = new PrinterControl(printers.fleet, printers.manager);
    this.retryMs = options.firstRetryMs ?? FIRST_RETRY_MS;
  }

  async start(): Promise<void> {
    this.boxId = (await loadBoxId(this.ctx.dataDir, this.log)).slice(0, 8);
    const { bus, settings } = this.ctx;
    this.unsubscribe.push(
      settings.onChange((current) => this.follow(current)),
      this.printers.fleet.onChange(() => this.publishDevices()),
      bus.on('printer.status', (status) => {
        this.publishDevice(status.printer_id); // the firmware's identity (model, maker) arrives with the connection
        this.stateChanged(status.printer_id);
      }),
      bus.on('print.progress', (progress) => {
        this.progress.set(progress.printer_id, progress);
        this.stateChanged(progress.printer_id);
      }),
    );
    this.follow(settings.current);
  }

  async stop(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    this.wanted = null;
    await this.switching;
    await this.disconnect();
  }

  info(): MqttExportInfo {
    const running = this.running;
    return {
      enabled: running !== null,
      connected: this.connected,
      broker: running ? shownUrl(running.url) : null,
      last_error: this.lastError,
      printers: this.published.size,
      commands: this.commands,
    };
  }

  /** Starts, stops or reconnects when the `mqtt` section changed; a box rename re-sends the devices. */
  private follow(current: DashboardSettings): void {
    const wanted = current.mqtt.enabled ? current.mqtt : null;
    if (JSON.stringify(wanted) === JSON.stringify(this.wanted)) {
      this.publishDevices();
      return;
    }
    this.wanted = wanted;
    this.switching = this.switching.then(async () => {
      await this.disconnect();
      if (this.wanted !== wanted) return; // a newer change is queued behind this one
      this.running = wanted;
      if (wanted) this.open(wanted);
    });
  }

  private open(settings: MqttSettings): void {
    this.layout = { base: settings.base_topic, discoveryPrefix: settings.discovery_prefix, boxId: this.boxId };
    const will = { topic: availabilityTopic(this.layout), payload: Buffer.from(OFFLINE), qos: 1 as const, retain: true };
    const options: IClientOptions = {
      clientId: `printyard-${this.boxId}-${process.pid}`,
      clean: true,
      reconnectPeriod: 0, // our own backoff (scheduleRetry) instead of mqtt.js's fixed period
      connectTimeout: CONNECT_TIMEOUT_MS,
      will,
      ...(settings.username !== '' ? { username: settings.username } : {}),
      ...(settings.password !== '' ? { password: settings.password } : {}),
    };
    const client = connect(settings.url, options);
    this.client = client;
    client.on('error', (err) => {
      this.lastError = err.message;
    });
    client.on('connect', () => void this.connectedTo(client, settings));
    client.on('message', (topic, payload) => {
      if (this.clearIfStale(topic, payload)) return;
      void this.command(topic, payload.toString('utf8'));
    });
    client.on('close', () => {
      if (this.client !== client) return;
      if (this.connected) this.log.warn('broker connection lost', { broker: shownUrl(settings.url), error: this.lastError });
      this.connected = false;
      client.end(true);
      this.client = null;
      this.scheduleRetry(settings);
    });
  }

  private scheduleRetry(settings: MqttSettings): void {
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, LONGEST_RETRY_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.running === settings) this.open(settings);
    }, delay);
  }

  private async connectedTo(client: MqttClient, settings: MqttSettings): Promise<void> {
    const layout = this.layout as TopicLayout;
    this.connected = true;
    this.lastError = null;
    this.retryMs = this.options.firstRetryMs ?? FIRST_RETRY_MS;
    this.log.info('connected to the broker', { broker: shownUrl(settings.url) });
    try {
      await client.publishAsync(availabilityTopic(layout), ONLINE, { qos: 1, retain: true });
      if (settings.buttons) await client.subscribeAsync(commandFilter(layout), { qos: 1 });
      this.published.clear();
      this.lastState.clear();
      this.publishDevices();
      // The broker answers with the retained configs: those of printers no longer here are cleared.
      await client.subscribeAsync(stateConfigFilter(layout), { qos: 1 });
    } catch (err) {
      this.lastError = (err as Error).message;
    }
  }

  /** Publishes the discovery config of every printer whose device changed, and clears removed ones. */
  private publishDevices(): void {
    const client = this.client;
    const layout = this.layout;
    const settings = this.running;
    if (!client || !layout || !settings || !this.connected) return;
    let printers: PrinterView[];
    try {
      printers = this.printers.fleet.list();
    } catch {
      return; // the registry is not open yet; the fleet's start is followed by its first status events
    }
    const seen = new Set<string>();
    for (const printer of printers) {
      seen.add(printer.id);
      this.publishDevice(printer.id, printer);
    }
    for (const id of [...this.published.keys()]) {
      if (seen.has(id)) continue;
      this.published.delete(id);
      this.lastState.delete(id);
      this.progress.delete(id);
      for (const m of clearedMessages(layout, id)) this.send(m.topic, m.payload, true);
    }
  }

  /** Publishes one printer's discovery configs when they differ from the last ones sent. */
  private publishDevice(printerId: string, known?: PrinterView): void {
    const layout = this.layout;
    const settings = this.running;
    if (!this.client || !layout || !settings || !this.connected) return;
    const printer = known ?? this.printers.fleet.find(printerId);
    if (printer === null) return; // removed: publishDevices clears it
    const messages = discoveryMessages(layout, printer, this.ctx.settings.current.box.name, settings.buttons);
    const signature = JSON.stringify(messages);
    if (this.published.get(printer.id) === signature) return;
    this.published.set(printer.id, signature);
    for (const m of messages) this.send(m.topic, m.payload, true);
    this.lastState.delete(printer.id);
    this.publishState(printer.id);
  }

  /** A status or progress event: publish now, or once the printer's interval has passed. */
  private stateChanged(printerId: string): void {
    if (!this.connected || this.pending.has(printerId)) return;
    const interval = this.running?.min_interval_ms ?? 0;
    const wait = (this.lastSentAt.get(printerId) ?? Number.NEGATIVE_INFINITY) + interval - performance.now();
    if (wait <= 0) {
      this.publishState(printerId);
      return;
    }
    this.pending.set(
      printerId,
      setTimeout(() => {
        this.pending.delete(printerId);
        this.publishState(printerId);
      }, wait),
    );
  }

  private publishState(printerId: string): void {
    const layout = this.layout;
    if (!layout || !this.published.has(printerId)) return;
    let payload: string;
    try {
      payload = JSON.stringify(statePayload(this.printers.fleet.status(printerId), this.progress.get(printerId) ?? null));
    } catch {
      return; // removed meanwhile
    }
    if (this.lastState.get(printerId) === payload) return;
    this.lastState.set(printerId, payload);
    this.lastSentAt.set(printerId, performance.now());
    this.send(stateTopic(layout, printerId), payload, this.running?.retain ?? false);
  }

  private send(topic: string, payload: string, retain: boolean): void {
    this.client?.publish(topic, payload, { qos: 1, retain }, (err) => {
      if (err) this.lastError = err.message;
    });
  }

  /** A retained config of this box for a printer that is gone (removed while the export was off): cleared. */
  private clearIfStale(topic: string, payload: Buffer): boolean {
    const layout = this.layout;
    if (!layout) return false;
    const printerId = printerOfStateConfig(layout, topic);
    if (printerId === null) return false;
    if (payload.length > 0 && !this.published.has(printerId) && !this.exists(printerId)) {
      this.log.info('cleared the discovery configs of a removed printer', { printer_id: printerId });
      for (const m of clearedMessages(layout, printerId)) this.send(m.topic, m.payload, true);
    }
    return true;
  }

  private exists(printerId: string): boolean {
    return this.printers.fleet.find(printerId) !== null;
  }

  /** A button press: the printer's control, as `command_role` (refused below print, as the API would). */
  private async command(topic: string, payload: string): Promise<void> {
    const layout = this.layout;
    const settings = this.running;
    if (!layout || !settings?.buttons) return;
    const printerId = printerOfCommandTopic(layout, topic);
    const action = actionOfPayload(payload);
    if (printerId === null || action === null) {
      this.log.warn('ignored an MQTT command', { topic, payload: payload.slice(0, 40) });
      return;
    }
    if (ROLES.indexOf(settings.command_role) < ROLES.indexOf(CONTROL_ROLE)) {
      this.log.warn('refused an MQTT command: mqtt.command_role may not control printers', { printer_id: printerId, action });
      return;
    }
    try {
      await this.control.control(printerId, action);
      this.commands++;
      this.log.info('printer controlled over MQTT', { printer_id: printerId, action, role: settings.command_role });
    } catch (err) {
      this.log.warn('an MQTT command failed', { printer_id: printerId, action, error: (err as Error).message });
    }
  }

  private async disconnect(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    const client = this.client;
    this.client = null;
    this.running = null;
    this.published.clear();
    this.lastState.clear();
    if (!client) return;
    if (this.connected && this.layout) {
      // A clean stop says offline itself: the last will is only sent when the session is lost.
      await client.publishAsync(availabilityTopic(this.layout), OFFLINE, { qos: 1, retain: true }).catch(() => undefined);
    }
    this.connected = false;
    await client.endAsync().catch(() => undefined);
  }
}
