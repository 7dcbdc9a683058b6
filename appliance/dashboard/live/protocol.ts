/**
 * The messages of `/ws`, both ways, and the close codes. Every frame is a JSON text message
 * `{ type, payload }`; the server's event messages carry the bus event's type and payload as they
 * are. Parsing client messages never throws: a bad message becomes a described error.
 */
import type { DashboardEventType } from '../events.js';

/**
 * Every bus event type once, with what it tells (the OpenAPI description lists them); a type added
 * to DashboardEvents fails to compile until it is described here.
 */
export const EVENT_DESCRIPTIONS: Readonly<Record<DashboardEventType, string>> = {
  'printer.status': "a printer's state, temperatures, fans and current job changed",
  'print.progress': 'progress of the print on a printer (layers, times; per-tool extrusion for host prints)',
  'ams.update': "a Bambu Lab printer's AMS trays: material, colour, remaining",
  notification: 'a notification was raised (also in the inbox)',
  'spool.update': 'a spool was added, changed (used, loaded, edited) or deleted',
  'inventory.climate': 'a temperature and humidity reading of a storage location, with its humidity limit',
  'print.dispatched': "the queue is about to start a job's copy on a printer",
  'print.starting': 'a user is about to start a print through slice-and-send',
  'history.added': 'a print ended and its history record was closed',
  'queue.update': 'a queue job was added, changed or removed, or the whole queue was paused or resumed',
  'printer.plate': "a printer's plate was confirmed clear, or a print occupied it",
  'model.job': 'a model generation job was queued, progressed, finished or failed (as GET /api/ai-model/jobs/:id)',
  'system.update': 'an OS update was received, checked, progressed in its install, installed or failed (as `busy` of GET /api/system/update)',
  'slicer.status': "the slicer service's indicator changed: enabled, configured, reachable or unreachable (as GET /api/slicer/remote/status)",
};
export const EVENT_TYPES = Object.keys(EVENT_DESCRIPTIONS) as readonly DashboardEventType[];

/** Client messages are small (auth, subscribe): a larger one closes the connection with 1009. */
export const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

/** Close codes: 1001, 1008, 1009 and 1013 are registered codes that fit; 4401 mirrors the HTTP status. */
export const CloseCode = {
  /** The server is stopping. */
  goingAway: 1001,
  /** The client broke the protocol (e.g. a flood of messages before it was admitted). */
  policy: 1008,
  /** A client message over `MAX_CLIENT_MESSAGE_BYTES`. */
  tooBig: 1009,
  /** The client did not read fast enough and its backlog passed the limit. */
  tooSlow: 1013,
  /** No valid credentials (none in time, a bad one, or the token expired or was revoked). */
  unauthorized: 4401,
} as const;

/** A message the server sends. */
export type ServerMessage =
  | { type: 'hello'; payload: { version: string; heartbeat_ms: number; types: readonly DashboardEventType[]; user: string; role: string } }
  | { type: 'subscribed'; payload: { types: readonly DashboardEventType[] } }
  /** The answer to `plate.clear`: the plate as `POST /api/printers/:id/plate-cleared` answers it. */
  | { type: 'plate.cleared'; payload: unknown }
  | { type: 'error'; payload: { code: string; error: string } };

/** A message the client sends. */
export type ClientMessage =
  | { type: 'auth'; token: string }
  /** Limits the events this connection receives; `types` omitted or null means all of them. */
  | { type: 'subscribe'; types: readonly DashboardEventType[] | null }
  /** Confirms a printer's plate clear, as `POST /api/printers/:id/plate-cleared` does (print role). */
  | { type: 'plate.clear'; printer_id: string };

export type ParsedClientMessage = { ok: true; message: ClientMessage } | { ok: false; error: string };

const MAX_TOKEN_LENGTH = 4096;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseClientMessage(text: string): ParsedClientMessage {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: 'messages must be JSON objects like {"type":"subscribe","types":["printer.status"]}' };
  }
  if (!isRecord(data) || typeof data.type !== 'string') return { ok: false, error: 'a message needs a string "type"' };
  if (data.type === 'auth') {
    const token = data.token;
    if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) {
      return { ok: false, error: `"auth" needs a "token" string of 1 to ${MAX_TOKEN_LENGTH} characters` };
    }
    return { ok: true, message: { type: 'auth', token } };
  }
  if (data.type === 'subscribe') {
    const types = data.types ?? null;
    if (types === null) return { ok: true, message: { type: 'subscribe', types: null } };
    if (!Array.isArray(types)) return { ok: false, error: '"types" must be a list of event types or null for all' };
    const unknown = types.filter((t) => !EVENT_TYPES.includes(t as DashboardEventType));
    if (unknown.length > 0) {
      return { ok: false, error: `unknown event types ${JSON.stringify(unknown)}; known: ${EVENT_TYPES.join(', ')}` };
    }
    return { ok: true, message: { type: 'subscribe', types: [...new Set(types as DashboardEventType[])] } };
  }
  if (data.type === 'plate.clear') {
    const printerId = data.printer_id;
    if (typeof printerId !== 'string' || printerId === '' || printerId.length > MAX_TOKEN_LENGTH) {
      return { ok: false, error: '"plate.clear" needs a "printer_id" string' };
    }
    return { ok: true, message: { type: 'plate.clear', printer_id: printerId } };
  }
  return { ok: false, error: `unknown message type ${JSON.stringify(data.type)}; expected "auth", "subscribe" or "plate.clear"` };
}
