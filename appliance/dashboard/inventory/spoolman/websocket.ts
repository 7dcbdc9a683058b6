/**
 * Spoolman's change WebSockets: `/api/v1/` (everything), `/api/v1/<resource>` (one kind) and
 * `/api/v1/<resource>/<id>` (one item), each message `{type, resource, date, payload}` with the
 * item in the REST shape (Moonraker follows `/api/v1/spool` to drop a deleted spool). Any text a
 * client sends is answered `{"status": "healthy"}`, as Spoolman does.
 *
 * Access is the REST API's (access.ts), with the view level. As on `/ws` (live/websocket.ts), the
 * upgrade is accepted at once and the credentials are checked once the socket is open; a client
 * that may not listen is closed with 4401.
 */
import type { Server, Websocket } from 'hyper-express';
import { clientAddress } from '../../http/client-address.js';
import type { Logger } from '../../../common/logger.js';
import type { Inventory, InventoryChange, Resource } from '../inventory.js';
import type { FilamentRecord, InventoryData, SpoolRecord, VendorRecord } from '../records.js';
import type { SpoolmanAccess } from './access.js';
import type { LocationNames } from '../locations/storage.js';
import { filamentJson, spoolJson, spoolmanTime, vendorJson } from './shapes.js';

const RESOURCES: readonly Resource[] = ['vendor', 'filament', 'spool'];
const UNAUTHORIZED = 4401;

interface Listener {
  ws: Websocket;
  /** `[]` for everything, `['spool']`, `['spool', '3']`. */
  pool: string[];
  admitted: boolean;
}

type UpgradeContext = { pool: string[]; headers: Record<string, string>; ip: string };

function payloadOf(change: InventoryChange, data: Readonly<InventoryData>, removed: unknown, names: LocationNames | null): unknown {
  const find = <T extends { id: number }>(list: readonly T[]) => (change.type === 'deleted' ? (removed as T) : list.find((r) => r.id === change.id));
  if (change.resource === 'vendor') {
    const vendor = find<VendorRecord>(data.vendors);
    return vendor && vendorJson(vendor);
  }
  if (change.resource === 'filament') {
    const filament = find<FilamentRecord>(data.filaments);
    return filament && filamentJson(data, filament);
  }
  const spool = find<SpoolRecord>(data.spools);
  return spool && spoolJson(data, spool, names);
}

export class SpoolmanSockets {
  private readonly listeners = new Set<Listener>();
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly inventory: Inventory,
    private readonly access: SpoolmanAccess,
    private readonly log: Logger,
    private readonly names: LocationNames | null = null,
  ) {}

  install(app: Server): void {
    const paths: [string, (params: Record<string, string>) => string[]][] = [
      ['/api/v1/', () => []],
      ...RESOURCES.flatMap((r): [string, (params: Record<string, string>) => string[]][] => [
        [`/api/v1/${r}`, () => [r]],
        [`/api/v1/${r}/:id`, (params) => [r, params.id]],
      ]),
    ];
    for (const [path, poolOf] of paths) {
      app.upgrade(path, (req, res) => {
        const context: UpgradeContext = { pool: poolOf(req.path_parameters), headers: { ...req.headers }, ip: clientAddress(req) };
        res.upgrade(context);
      });
      app.ws(path, { idle_timeout: 0, max_payload_length: 16 * 1024 }, (ws: Websocket) => this.connect(ws));
    }
  }

  start(): void {
    this.unsubscribe = this.inventory.onChange((change, data, removed) => this.broadcast(change, data, removed));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const listener of this.listeners) listener.ws.close(1001, 'server stopping');
    this.listeners.clear();
  }

  count(): number {
    return this.listeners.size;
  }

  private connect(ws: Websocket): void {
    const context = ws.context as unknown as UpgradeContext;
    const listener: Listener = { ws, pool: context.pool, admitted: false };
    this.listeners.add(listener);
    ws.on('close', () => {
      this.listeners.delete(listener);
    });
    ws.on('message', () => {
      if (listener.admitted) ws.send(JSON.stringify({ status: 'healthy' }));
    });
    this.access
      .require(context.headers, context.ip, 'view')
      .then(() => {
        listener.admitted = true;
      })
      .catch((err: Error) => {
        this.listeners.delete(listener);
        ws.close(UNAUTHORIZED, err.message.slice(0, 120));
      });
  }

  private broadcast(change: InventoryChange, data: Readonly<InventoryData>, removed: unknown): void {
    const payload = payloadOf(change, data, removed, this.names);
    if (payload === undefined) return;
    const text = JSON.stringify({ type: change.type, resource: change.resource, date: spoolmanTime(new Date().toISOString()), payload });
    for (const listener of this.listeners) {
      const [resource, id] = listener.pool;
      if (!listener.admitted || (resource !== undefined && resource !== change.resource) || (id !== undefined && id !== String(change.id))) continue;
      try {
        listener.ws.send(text);
      } catch (err) {
        this.log.warn(`a Spoolman WebSocket client could not be written to: ${(err as Error).message}`);
      }
    }
  }
}
