/**
 * The receivers admins configure (`webhook-receivers.json`): per receiver the service, the shared
 * secret (write-only: shown as `secret_set`), which dashboard printer each of the service's
 * printers is (by the service's printer id or name, with a fallback printer), and per event kind
 * the actions. A receiver's secret is how a request finds its receiver: each secret is unique.
 */
import { randomBytes } from 'node:crypto';
import { AppError, ErrorCode } from '../../common/errors.js';
import type { JsonStore, JsonStores } from '../../common/json-store.js';
import { validationError } from '../http/validate.js';
import { EVENT_KINDS, type EventKind, type MonitorService } from './monitor-event.js';

export const ACTIONS = ['notify', 'pause', 'record'] as const;
export type Action = (typeof ACTIONS)[number];

export interface PrinterMapping {
  /** The service's printer id or name, as its payloads carry it. */
  service_printer: string;
  printer_id: string;
}

export interface Receiver {
  id: string;
  name: string;
  service: MonitorService;
  enabled: boolean;
  secret: string;
  printers: PrinterMapping[];
  /** The printer of a message whose printer no mapping names (null: such messages act on none). */
  default_printer_id: string | null;
  /** Per event kind, what to do; kinds not listed do nothing beyond being counted. */
  actions: Partial<Record<EventKind, Action[]>>;
  created_at: string;
  /** When the last message was accepted, and what it was. */
  last_event: { at: string; kind: EventKind; service_event: string } | null;
}

export type ReceiverView = Omit<Receiver, 'secret'> & { secret_set: boolean };

export interface ReceiverInput {
  name?: string;
  service?: MonitorService;
  enabled?: boolean;
  secret?: string;
  printers?: PrinterMapping[];
  default_printer_id?: string | null;
  actions?: Partial<Record<EventKind, Action[]>>;
}

/** What a new receiver does unless told otherwise: failures pause and are kept, ends are kept and told. */
export const DEFAULT_ACTIONS: Readonly<Partial<Record<EventKind, Action[]>>> = {
  failure_detected: ['notify', 'pause', 'record'],
  failure_warning: ['notify', 'record'],
  print_done: ['notify', 'record'],
  print_failed: ['notify', 'record'],
  printer_error: ['notify'],
  attention_needed: ['notify'],
  test: ['notify'],
};

interface StoredReceivers {
  receivers: Receiver[];
}

export function viewOf(receiver: Receiver): ReceiverView {
  const { secret, ...rest } = receiver;
  return { ...rest, secret_set: secret !== '' };
}

export class ReceiverStore {
  private constructor(private readonly store: JsonStore<StoredReceivers>) {}

  static async open(stores: JsonStores): Promise<ReceiverStore> {
    const store = await stores.open<StoredReceivers>('webhook-receivers', { receivers: [] }, (data) =>
      Array.isArray((data as Partial<StoredReceivers> | null)?.receivers) ? null : 'expected {"receivers": [...]}',
    );
    return new ReceiverStore(store);
  }

  list(): readonly Receiver[] {
    return this.store.data.receivers;
  }

  get(id: string): Receiver {
    const receiver = this.list().find((r) => r.id === id);
    if (!receiver) throw new AppError(ErrorCode.notFound, 404, `no webhook receiver ${id}`);
    return receiver;
  }

  /** Creates a receiver; without a secret one is generated (shown once, in the answer). */
  async create(input: ReceiverInput & { name: string; service: MonitorService }, printerExists: (id: string) => boolean, now: Date) {
    const secret = input.secret ?? randomBytes(24).toString('base64url');
    const receiver: Receiver = {
      id: randomBytes(6).toString('hex'),
      name: input.name,
      service: input.service,
      enabled: input.enabled ?? true,
      secret,
      printers: input.printers ?? [],
      default_printer_id: input.default_printer_id ?? null,
      actions: input.actions ?? { ...DEFAULT_ACTIONS },
      created_at: now.toISOString(),
      last_event: null,
    };
    this.check(receiver, printerExists);
    await this.store.update((data) => {
      data.receivers.push(receiver);
    });
    return { receiver: viewOf(receiver), secret };
  }

  /** Changes the fields given; the service stays. */
  async update(id: string, input: ReceiverInput, printerExists: (id: string) => boolean): Promise<ReceiverView> {
    const current = this.get(id);
    if (input.service !== undefined && input.service !== current.service) {
      throw validationError([{ path: 'body/service', message: 'cannot change; create a receiver for the other service' }]);
    }
    const next: Receiver = { ...current, ...input, service: current.service };
    this.check(next, printerExists);
    await this.replace(next);
    return viewOf(next);
  }

  async delete(id: string): Promise<void> {
    this.get(id);
    await this.store.update((data) => {
      data.receivers = data.receivers.filter((r) => r.id !== id);
    });
  }

  async noteEvent(id: string, last: NonNullable<Receiver['last_event']>): Promise<void> {
    const current = this.list().find((r) => r.id === id);
    if (current) await this.replace({ ...current, last_event: last });
  }

  private async replace(next: Receiver): Promise<void> {
    await this.store.update((data) => {
      data.receivers = data.receivers.map((r) => (r.id === next.id ? next : r));
    });
  }

  private check(receiver: Receiver, printerExists: (id: string) => boolean): void {
    const issues: Array<{ path: string; message: string }> = [];
    receiver.printers.forEach((m, i) => {
      if (!printerExists(m.printer_id)) issues.push({ path: `body/printers/${i}/printer_id`, message: `"${m.printer_id}" is not a printer` });
    });
    if (receiver.default_printer_id !== null && !printerExists(receiver.default_printer_id)) {
      issues.push({ path: 'body/default_printer_id', message: `"${receiver.default_printer_id}" is not a printer` });
    }
    for (const kind of Object.keys(receiver.actions)) {
      if (!EVENT_KINDS.includes(kind as EventKind)) issues.push({ path: `body/actions/${kind}`, message: 'is not an event kind' });
    }
    const clash = this.list().find((r) => r.id !== receiver.id && r.service === receiver.service && r.secret === receiver.secret);
    if (clash) issues.push({ path: 'body/secret', message: 'is the secret of another receiver of this service; each needs its own' });
    if (issues.length > 0) throw validationError(issues);
  }
}
