/**
 * The services' payloads, read as they really send them (see README.md for the sources), into a
 * MonitorEvent. A body that is not the service's shape is a 400 naming what is wrong; fields a
 * service adds later are ignored.
 *
 * - Obico (`backend/notifications/plugins/webhook`): unsigned JSON. Older servers send
 *   `{event: "PrintFailure", is_warning, print_paused, printer: {id, name}, print: {id, filename,
 *   started_at, ended_at}, img_url}`; newer ones `{event: {type: "PrintFailure", is_warning,
 *   print_paused}, printer, print?, img_url?}`. Both send the test as `{event: "TestEvent"}`.
 * - OctoEverywhere: `{PrinterId, SecretKey, PrintId, EventType: 1..16, PrinterName, SnapshotUrl,
 *   FileName, Progress, Error, …}` with the event as an integer.
 * - SimplyPrint: `{webhook_id, event: "job.done", timestamp, data: {…}}`; printer and job under
 *   `data`. The flat shape `{event: "print_done", printer_id, printer_name, filename}` some
 *   integrations post is read too.
 */
import { validationError } from '../http/validate.js';
import type { EventKind, MonitorEvent, MonitorService } from './monitor-event.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function refuse(path: string, message: string): never {
  throw validationError([{ path: `body${path}`, message }]);
}

/** Parses the raw body as a JSON object (400 otherwise). */
export function parseJsonObject(raw: Buffer): Json {
  const body = raw.toString('utf8');
  if (body.trim() === '') refuse('', 'is required (a JSON object)');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    refuse('', `is not valid JSON: ${(err as Error).message}`);
  }
  if (!isObject(value)) refuse('', 'must be a JSON object');
  return value;
}

const OBICO_KINDS: Readonly<Record<string, EventKind>> = {
  PrintStarted: 'print_started',
  PrintDone: 'print_done',
  PrintCancelled: 'print_cancelled',
  PrintFailed: 'print_failed',
  PrintPaused: 'print_paused',
  PrintResumed: 'print_resumed',
  FilamentChange: 'attention_needed',
  HeaterCooledDown: 'other',
  HeaterTargetReached: 'other',
  TestEvent: 'test',
};

export function readObico(body: Json): MonitorEvent {
  const event = body.event;
  const detail = isObject(event) ? event : body;
  const type = isObject(event) ? event.type : event;
  if (typeof type !== 'string' || type === '') {
    refuse('/event', 'must be the event name, or an object with the event name as `type`');
  }
  let kind: EventKind = OBICO_KINDS[type] ?? 'other';
  if (type === 'PrintFailure') kind = detail.is_warning === true ? 'failure_warning' : 'failure_detected';
  const printer = isObject(body.printer) ? { id: text(body.printer.id), name: text(body.printer.name) } : null;
  if (body.printer !== undefined && body.printer !== null && printer === null) refuse('/printer', 'must be an object {id, name}');
  const print = isObject(body.print) ? body.print : null;
  const paused = detail.print_paused === true ? ' Obico paused the print.' : '';
  const messages: Partial<Record<EventKind, string>> = {
    failure_detected: `Obico detected a failure.${paused}`,
    failure_warning: `Obico suspects a failure.${paused}`,
    test: 'A test message from Obico.',
  };
  return {
    service: 'obico',
    kind,
    service_event: type,
    printer,
    file: text(print?.filename),
    message: messages[kind] ?? `Obico reported ${type}.`,
    image_url: text(body.img_url),
  };
}

/** OctoEverywhere's EventType enum (docs.octoeverywhere.com, webhook event types). */
const OCTOEVERYWHERE_EVENTS: Readonly<Record<number, { kind: EventKind; name: string }>> = {
  1: { kind: 'print_started', name: 'Print started' },
  2: { kind: 'print_done', name: 'Print complete' },
  3: { kind: 'print_failed', name: 'Print failed' },
  4: { kind: 'print_paused', name: 'Print paused' },
  5: { kind: 'print_resumed', name: 'Print resumed' },
  6: { kind: 'progress', name: 'Print progress' },
  7: { kind: 'failure_warning', name: 'Gadget possible failure warning' },
  8: { kind: 'failure_detected', name: 'Gadget paused the print due to a failure' },
  9: { kind: 'printer_error', name: 'Printer error' },
  10: { kind: 'progress', name: 'First layer complete' },
  11: { kind: 'attention_needed', name: 'Filament change required' },
  12: { kind: 'attention_needed', name: 'User interaction required' },
  13: { kind: 'other', name: 'Notification limit reached' },
  14: { kind: 'progress', name: 'Third layer complete' },
  15: { kind: 'other', name: 'Bed cool-down complete' },
  16: { kind: 'test', name: 'Test notification' },
};

export function readOctoEverywhere(body: Json): MonitorEvent {
  const type = body.EventType;
  if (typeof type !== 'number' || !Number.isInteger(type)) refuse('/EventType', 'must be an integer (the notification type)');
  const known = OCTOEVERYWHERE_EVENTS[type];
  const error = text(body.Error);
  const name = known?.name ?? `Event ${type}`;
  return {
    service: 'octoeverywhere',
    kind: known?.kind ?? 'other',
    service_event: String(type),
    printer: body.PrinterId === undefined && body.PrinterName === undefined ? null : { id: text(body.PrinterId), name: text(body.PrinterName) },
    file: text(body.FileName),
    message: `OctoEverywhere: ${name}.${error ? ` ${error}` : ''}`,
    image_url: text(body.SnapshotUrl),
  };
}

/** SimplyPrint's job events by their last word (`job.done`, `print_done`, `job.failed`, …). */
function simplyPrintKind(event: string): EventKind {
  const word = event.toLowerCase().split(/[._]/).pop() ?? '';
  if (/^test/.test(event.toLowerCase())) return 'test';
  const byWord: Record<string, EventKind> = {
    started: 'print_started',
    done: 'print_done',
    finished: 'print_done',
    completed: 'print_done',
    failed: 'print_failed',
    cancelled: 'print_cancelled',
    canceled: 'print_cancelled',
    paused: 'print_paused',
    resumed: 'print_resumed',
    runout: 'attention_needed',
    progress: 'progress',
    error: 'printer_error',
  };
  return byWord[word] ?? 'other';
}

export function readSimplyPrint(body: Json): MonitorEvent {
  const event = body.event;
  if (typeof event !== 'string' || event === '') refuse('/event', 'must be the event name');
  const data = isObject(body.data) ? body.data : body;
  if (body.data !== undefined && !isObject(body.data)) refuse('/data', 'must be an object');
  const printerObject = isObject(data.printer) ? data.printer : null;
  const printerId = text(printerObject?.id ?? data.printer_id);
  const printerName = text(printerObject?.name ?? data.printer_name);
  const job = isObject(data.job) ? data.job : null;
  const file = text(job?.filename ?? job?.file ?? job?.name ?? data.filename ?? data.file);
  return {
    service: 'simplyprint',
    kind: simplyPrintKind(event),
    service_event: event,
    printer: printerId === null && printerName === null ? null : { id: printerId, name: printerName },
    file,
    message: `SimplyPrint reported ${event}.`,
    image_url: text(data.image_url ?? data.snapshot_url),
  };
}

export const READERS: Readonly<Record<MonitorService, (body: Json) => MonitorEvent>> = {
  obico: readObico,
  octoeverywhere: readOctoEverywhere,
  simplyprint: readSimplyPrint,
};
