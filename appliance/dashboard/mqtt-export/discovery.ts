/**
 * What the export publishes, as plain data: Home Assistant's MQTT discovery configs of one
 * printer (single-component discovery, `<prefix>/<component>/<node_id>/<object_id>/config`),
 * the printer's state payload and the topics. Each printer is one device (identifiers, name,
 * manufacturer, model) whose entities share one JSON state topic and read their value with a
 * `value_template`; all of them are available while the box's availability topic says `online`
 * (the export's last will says `offline`).
 */
import type { PrinterView } from '../printers/printer.js';
import type { PrinterStatus, PrintProgress } from '../printers/status.js';

export const ONLINE = 'online';
export const OFFLINE = 'offline';
export const BUTTON_ACTIONS = ['pause', 'resume', 'stop'] as const;
export type ButtonAction = (typeof BUTTON_ACTIONS)[number];

export interface TopicLayout {
  base: string;
  discoveryPrefix: string;
  /** Short box id: keeps unique ids and node ids apart when several boxes share a broker. */
  boxId: string;
}

export interface DiscoveryMessage {
  topic: string;
  /** The config as JSON; '' clears it (retained empty payload). */
  payload: string;
}

export const availabilityTopic = (t: TopicLayout): string => `${t.base}/status`;
export const stateTopic = (t: TopicLayout, printerId: string): string => `${t.base}/${printerId}/state`;
export const commandTopic = (t: TopicLayout, printerId: string): string => `${t.base}/${printerId}/command`;
/** The subscription matching every printer's command topic. */
export const commandFilter = (t: TopicLayout): string => `${t.base}/+/command`;

/** The printer id of a command topic, or null for another topic. */
export function printerOfCommandTopic(t: TopicLayout, topic: string): string | null {
  const prefix = `${t.base}/`;
  if (!topic.startsWith(prefix) || !topic.endsWith('/command')) return null;
  const id = topic.slice(prefix.length, -'/command'.length);
  return id !== '' && !id.includes('/') ? id : null;
}

/** What one entity reads from the state payload (its key) and how Home Assistant shows it. */
interface SensorSpec {
  key: keyof StatePayload;
  name: string;
  device_class?: string;
  state_class?: string;
  unit_of_measurement?: string;
  icon?: string;
}

const SENSORS: readonly SensorSpec[] = [
  { key: 'state', name: 'State', device_class: 'enum', icon: 'mdi:printer-3d' },
  { key: 'nozzle_temperature', name: 'Nozzle temperature', device_class: 'temperature', state_class: 'measurement', unit_of_measurement: '°C' },
  { key: 'bed_temperature', name: 'Bed temperature', device_class: 'temperature', state_class: 'measurement', unit_of_measurement: '°C' },
  { key: 'progress', name: 'Progress', state_class: 'measurement', unit_of_measurement: '%', icon: 'mdi:progress-clock' },
  { key: 'time_left', name: 'Time left', device_class: 'duration', unit_of_measurement: 's' },
  { key: 'file', name: 'Current file', icon: 'mdi:file-outline' },
];

const BUTTON_NAMES: Readonly<Record<ButtonAction, string>> = { pause: 'Pause', resume: 'Resume', stop: 'Stop' };
/** What a button press publishes on the command topic. */
export const PRESS_PAYLOAD: Readonly<Record<ButtonAction, string>> = { pause: 'PAUSE', resume: 'RESUME', stop: 'STOP' };

const STATE_OPTIONS = ['offline', 'connecting', 'idle', 'preparing', 'printing', 'paused', 'finished', 'error'];

export interface StatePayload {
  state: string;
  online: boolean;
  nozzle_temperature: number | null;
  bed_temperature: number | null;
  progress: number | null;
  time_left: number | null;
  file: string | null;
}

const nodeId = (t: TopicLayout, printerId: string): string => `printyard_${t.boxId}_${printerId}`;

function device(t: TopicLayout, printer: PrinterView, boxName: string): Record<string, unknown> {
  return {
    identifiers: [nodeId(t, printer.id)],
    name: `${boxName} ${printer.name}`,
    manufacturer: printer.vendor ?? 'Unknown',
    model: printer.model ?? printer.identity?.model ?? printer.type,
  };
}

/** The discovery configs of one printer: its sensors, and its buttons when they are offered. */
export function discoveryMessages(t: TopicLayout, printer: PrinterView, boxName: string, buttons: boolean): DiscoveryMessage[] {
  const node = nodeId(t, printer.id);
  const common = {
    availability_topic: availabilityTopic(t),
    payload_available: ONLINE,
    payload_not_available: OFFLINE,
    device: device(t, printer, boxName),
  };
  const messages: DiscoveryMessage[] = SENSORS.map((sensor) => {
    const { key, ...shown } = sensor;
    const config: Record<string, unknown> = {
      ...shown,
      unique_id: `${node}_${key}`,
      state_topic: stateTopic(t, printer.id),
      value_template: `{{ value_json.${key} }}`,
      ...common,
    };
    if (key === 'state') config.options = STATE_OPTIONS;
    return { topic: `${t.discoveryPrefix}/sensor/${node}/${key}/config`, payload: JSON.stringify(config) };
  });
  for (const action of BUTTON_ACTIONS) {
    const topic = `${t.discoveryPrefix}/button/${node}/${action}/config`;
    const config = {
      name: BUTTON_NAMES[action],
      unique_id: `${node}_${action}`,
      command_topic: commandTopic(t, printer.id),
      payload_press: PRESS_PAYLOAD[action],
      ...common,
    };
    messages.push({ topic, payload: buttons ? JSON.stringify(config) : '' });
  }
  return messages;
}

/**
 * The subscription that finds this box's retained state-sensor configs at connect, so configs of
 * printers removed while the export was off are cleared too.
 */
export const stateConfigFilter = (t: TopicLayout): string => `${t.discoveryPrefix}/sensor/+/state/config`;

/** The printer id of one of this box's state-sensor config topics, or null. */
export function printerOfStateConfig(t: TopicLayout, topic: string): string | null {
  const match = /^(.*)\/sensor\/([^/]+)\/state\/config$/.exec(topic);
  const prefix = `printyard_${t.boxId}_`;
  if (!match || match[1] !== t.discoveryPrefix || !match[2].startsWith(prefix)) return null;
  return match[2].slice(prefix.length) || null;
}

/** The topics to clear (empty retained payload) when a printer is gone. */
export function clearedMessages(t: TopicLayout, printerId: string): DiscoveryMessage[] {
  const node = nodeId(t, printerId);
  return [
    ...SENSORS.map((s) => ({ topic: `${t.discoveryPrefix}/sensor/${node}/${s.key}/config`, payload: '' })),
    ...BUTTON_ACTIONS.map((a) => ({ topic: `${t.discoveryPrefix}/button/${node}/${a}/config`, payload: '' })),
    { topic: stateTopic(t, printerId), payload: '' },
  ];
}

/** The state payload: what the printer reports, with the job from the latest progress when the status has none. */
export function statePayload(status: PrinterStatus, progress: PrintProgress | null): StatePayload {
  const active = status.state === 'printing' || status.state === 'paused' || status.state === 'preparing';
  const job = status.job ?? (active ? progress : null);
  const nozzle = status.temperatures.tool0 ?? null;
  const bed = status.temperatures.bed ?? null;
  return {
    state: status.state,
    online: status.online,
    nozzle_temperature: nozzle ? nozzle.actual : null,
    bed_temperature: bed ? bed.actual : null,
    progress: job ? job.progress : null,
    time_left: job ? job.remaining_s : null,
    file: job ? job.file : null,
  };
}

/** The button a command payload presses (case-insensitive), or null. */
export function actionOfPayload(payload: string): ButtonAction | null {
  const text = payload.trim().toUpperCase();
  return BUTTON_ACTIONS.find((a) => PRESS_PAYLOAD[a] === text) ?? null;
}
