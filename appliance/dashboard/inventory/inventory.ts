/**
 * The inventory service: the stored vendors, filaments and spools (inventory.json) and the use log,
 * changed one at a time. It is the SpoolDirectory and SpoolLedger the rest of the dashboard uses,
 * and the one place that publishes `spool.update` on the bus and the changes the Spoolman
 * WebSocket forwards.
 *
 * Every change runs on a copy of the data, which replaces the live data only once it is on disk:
 * a failed write leaves the inventory as it was. Changes are serialised, so two requests never
 * interleave (a slot holds one spool; a key is used once).
 */
import { randomUUID } from 'node:crypto';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { EventBus } from '../../common/event-bus.js';
import type { JsonStore, JsonStores } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import type { DashboardEvents } from '../events.js';
import { applyUse, filamentOf, tareOf, toSpoolView, vendorOf } from './catalog.js';
import { capUsed, EMPTY_INVENTORY, gramsOfLength, inventoryShapeProblem, type InventoryData, type SpoolRecord } from './records.js';
import type { FilamentUse, SpoolLedger, SpoolView } from './spool.js';
import { UseLog, type UseRecord } from './use-log.js';

export type Resource = 'vendor' | 'filament' | 'spool';

export interface InventoryChange {
  resource: Resource;
  type: 'added' | 'updated' | 'deleted';
  id: number;
}

/** What the bus carries as `spool.update`: the spool as it is now, or as it was when deleted. */
export interface SpoolUpdate {
  spool: SpoolView;
  deleted: boolean;
}

/** Hears every change once it is on disk, with the data as it is after it (a deleted record: as it was). */
export type ChangeListener = (change: InventoryChange, data: Readonly<InventoryData>, removed: unknown) => void;

export interface InventoryDeps {
  stores: JsonStores;
  bus: EventBus<DashboardEvents>;
  log: Logger;
  now?: () => Date;
}

/** A change to run: it edits `draft` and says what it changed (deleted records with their last state). */
export interface Edit<T> {
  result: T;
  changes: (InventoryChange & { removed?: unknown })[];
}

export class Inventory implements SpoolLedger {
  private store: JsonStore<InventoryData> | null = null;
  private uses: UseLog | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<ChangeListener>();
  private readonly now: () => Date;

  constructor(private readonly deps: InventoryDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Opens the stores and applies use records that a crash kept from reaching inventory.json. */
  async open(): Promise<void> {
    if (this.store) return;
    const store = await this.deps.stores.open('inventory', EMPTY_INVENTORY, inventoryShapeProblem);
    const uses = await UseLog.open(this.deps.stores, this.deps.log.child('uses'));
    let replayed = 0;
    for (const spool of store.data.spools) {
      for (const record of uses.after(spool.id, spool.last_use_seq)) {
        applyUse(spool, record.grams, record.at);
        spool.last_use_seq = record.seq;
        replayed++;
      }
    }
    if (replayed > 0) {
      this.deps.log.warn(`applied ${replayed} filament use(s) that the last run logged but did not write to inventory.json`);
      await store.write();
    }
    this.store = store;
    this.uses = uses;
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.uses?.close();
  }

  /** The live data, read-only: views and lists are computed from it. */
  get data(): Readonly<InventoryData> {
    if (!this.store) throw new AppError(ErrorCode.unavailable, 503, 'the spool inventory is not open');
    return this.store.data;
  }

  useRecords(): readonly UseRecord[] {
    return this.useLog().records();
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(id: number): SpoolView | null {
    const spool = this.data.spools.find((s) => s.id === id);
    return spool ? toSpoolView(this.data, spool) : null;
  }

  list(): SpoolView[] {
    return this.data.spools.map((s) => toSpoolView(this.data, s));
  }

  loadedOn(printerId: string): SpoolView[] {
    return this.data.spools.filter((s) => s.printer_id === printerId).map((s) => toSpoolView(this.data, s));
  }

  /** Runs an edit on a copy of the data, writes it, then makes it live and announces the changes. */
  edit<T>(change: (draft: InventoryData, now: string) => Edit<T>): Promise<T> {
    return this.serial(() => this.commit(change));
  }

  use(spoolId: number, use: FilamentUse, key: string): Promise<SpoolView | null> {
    return this.serial(async () => {
      const done = this.useLog().byKey(key);
      if (done) return this.get(spoolId);
      const spool = this.data.spools.find((s) => s.id === spoolId);
      if (!spool) return null;
      const filament = filamentOf(this.data, spool.filament_id);
      const grams = 'grams' in use ? use.grams : gramsOfLength(use.length_mm, filament.diameter, filament.density);
      await this.takeOff(spool, grams, key);
      return this.get(spoolId);
    });
  }

  /** Spoolman's `use`: a weight (negative gives filament back), each call its own use. */
  useGrams(spoolId: number, grams: number): Promise<SpoolView | null> {
    return this.serial(async () => {
      const spool = this.data.spools.find((s) => s.id === spoolId);
      if (!spool) return null;
      await this.takeOff(spool, grams, `spoolman:${randomUUID()}`);
      return this.get(spoolId);
    });
  }

  /**
   * Spoolman's `measure`: the spool weighed on a scale (gross, with the empty spool). The used
   * weight becomes initial + tare − gross (within 0…initial), logged as a use so the statistics
   * see it. Without a known tare the reading counts as filament alone, as Spoolman does.
   */
  measure(spoolId: number, grossG: number): Promise<SpoolView | null> {
    return this.serial(async () => {
      const spool = this.data.spools.find((s) => s.id === spoolId);
      if (!spool) return null;
      const tare = tareOf(this.data, spool) ?? 0;
      const used = capUsed(spool.initial_weight + tare - grossG, spool.initial_weight);
      await this.takeOff(spool, used - spool.used_weight, `measure:${randomUUID()}`);
      return this.get(spoolId);
    });
  }

  /** Logs the use, then writes the spool's new weight (see use-log.ts for why in this order). */
  private async takeOff(spool: SpoolRecord, grams: number, key: string): Promise<void> {
    const at = this.now().toISOString();
    const probe = structuredClone(spool);
    const delta = applyUse(probe, grams, at);
    const view = toSpoolView(this.data, spool);
    const record: UseRecord = {
      seq: this.useLog().nextSeq,
      key,
      spool_id: spool.id,
      grams: delta,
      at,
      material: view.material,
      color_hex: view.color_hex,
      vendor: view.vendor,
    };
    await this.useLog().append(record);
    await this.commit((draft) => {
      const target = draft.spools.find((s) => s.id === spool.id) as SpoolRecord;
      applyUse(target, delta, at);
      target.last_use_seq = record.seq;
      return { result: undefined, changes: [{ resource: 'spool', type: 'updated', id: spool.id }] };
    });
  }

  private async commit<T>(change: (draft: InventoryData, now: string) => Edit<T>): Promise<T> {
    const store = this.store;
    if (!store) throw new Error('the inventory is not open');
    const draft = structuredClone(store.data);
    const { result, changes } = change(draft, this.now().toISOString());
    const before = store.data;
    store.data = draft;
    try {
      await store.write();
    } catch (err) {
      store.data = before;
      throw err;
    }
    for (const c of changes) this.announce(c, c.removed);
    return result;
  }

  private announce(change: InventoryChange, removed: unknown): void {
    const data = this.data;
    for (const listener of this.listeners) {
      try {
        listener(change, data, removed);
      } catch (err) {
        this.deps.log.error(`an inventory change listener failed: ${(err as Error).message}`);
      }
    }
    for (const spool of this.affectedSpools(change, removed)) {
      const deleted = change.resource === 'spool' && change.type === 'deleted';
      this.deps.bus.emit('spool.update', { spool: toSpoolView(data, spool), deleted });
    }
  }

  /** The spools whose view a change alters: the spool itself, or those of a changed filament or vendor. */
  private affectedSpools(change: InventoryChange, removed: unknown): SpoolRecord[] {
    const data = this.data;
    if (change.resource === 'spool') {
      const spool = change.type === 'deleted' ? (removed as SpoolRecord) : data.spools.find((s) => s.id === change.id);
      return spool ? [spool] : [];
    }
    if (change.type !== 'updated') return [];
    if (change.resource === 'filament') return data.spools.filter((s) => s.filament_id === change.id);
    return data.spools.filter((s) => vendorOf(data, filamentOf(data, s.filament_id).vendor_id)?.id === change.id);
  }

  private useLog(): UseLog {
    if (!this.uses) throw new Error('the inventory is not open');
    return this.uses;
  }

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
