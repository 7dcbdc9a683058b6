/**
 * Incoming webhooks at work: finds the receiver a request belongs to by the way its service
 * authenticates (verify.ts), reads the service's payload (payloads.ts), runs the receiver's
 * actions for the event (actions.ts) and remembers the last event. Admins manage the receivers
 * (receivers.ts). Built by services.ts with the printers, the notification center and the
 * history; opened by the feature at start.
 *
 * How each service authenticates (README.md has the sources):
 * - obico: Obico signs nothing; the receiver's secret is in the URL: `?token=<secret>`.
 * - octoeverywhere: the secret is the `SecretKey` of the JSON body (or `?token=`).
 * - simplyprint: an `X-SimplyPrint-Signature` HMAC-SHA256 over `<X-SimplyPrint-Timestamp>.<body>`
 *   within ±300 s and never seen before; else SimplyPrint's secret token in `X-SP-Token` (or `?token=`).
 */
import { AppError, ErrorCode } from '../../common/errors.js';
import type { DashboardContext } from '../feature.js';
import type { PrintHistory } from '../history/history.js';
import type { NotificationCenter } from '../notifications/center.js';
import { PrinterControl } from '../printers/control.js';
import type { Printers } from '../printers/feature.js';
import { runActions, targetPrinter, type ActionOutcome, type ActionPorts } from './actions.js';
import type { EventKind, MonitorService } from './monitor-event.js';
import { parseJsonObject, READERS } from './payloads.js';
import { ReceiverStore, viewOf, type Receiver, type ReceiverInput, type ReceiverView } from './receivers.js';
import { checkTimestamp, ReplayGuard, secretMatches, signatureMatches, VerifyFailure } from './verify.js';

export interface WebhookDeps {
  printers: Printers;
  notifications: NotificationCenter;
  history: PrintHistory;
  /** The clock (tests move it to make timestamps stale). */
  now?: () => Date;
}

export interface IncomingWebhook {
  body: Buffer;
  headers: Readonly<Record<string, string | undefined>>;
  /** The `token` query parameter, when the URL carries one. */
  token: string | undefined;
}

export interface WebhookResult {
  receiver_id: string;
  event: EventKind;
  service_event: string;
  printer_id: string | null;
  actions: ActionOutcome[];
}

export class WebhookService {
  private receivers: ReceiverStore | null = null;
  private readonly replays = new ReplayGuard();
  private readonly control: PrinterControl;
  private readonly now: () => Date;
  private accepted = 0;
  private refused = 0;

  constructor(
    private readonly ctx: Pick<DashboardContext, 'stores' | 'log'>,
    private readonly deps: WebhookDeps,
  ) {
    this.control = new PrinterControl(deps.printers.fleet, deps.printers.manager);
    this.now = deps.now ?? (() => new Date());
  }

  async start(): Promise<void> {
    this.receivers = await ReceiverStore.open(this.ctx.stores);
  }

  async stop(): Promise<void> {
    this.receivers = null;
  }

  /** Verifies, reads and acts on one request; throws VerifyFailure (401) or a 400 AppError. */
  async receive(service: MonitorService, incoming: IncomingWebhook): Promise<WebhookResult> {
    const store = this.store();
    let receiver: Receiver;
    let body: Record<string, unknown>;
    try {
      const candidates = store.list().filter((r) => r.service === service);
      if (candidates.length === 0) throw new VerifyFailure('no_receiver', `no ${service} receiver is configured on this box`);
      if (service === 'octoeverywhere') {
        body = parseJsonObject(incoming.body);
        const key = typeof body.SecretKey === 'string' && body.SecretKey !== '' ? body.SecretKey : incoming.token;
        receiver = this.bySecret(candidates, key);
      } else {
        receiver = service === 'simplyprint' ? this.simplyPrintReceiver(candidates, incoming) : this.bySecret(candidates, incoming.token);
        body = parseJsonObject(incoming.body);
      }
    } catch (err) {
      this.refused += 1;
      if (err instanceof VerifyFailure) this.ctx.log.child('webhooks').warn(`${service} webhook refused: ${err.reason}`);
      throw err;
    }
    const event = READERS[service](body);
    const now = this.now();
    const actions = await runActions(receiver, event, this.ports(), now);
    await store.noteEvent(receiver.id, { at: now.toISOString(), kind: event.kind, service_event: event.service_event });
    this.accepted += 1;
    return { receiver_id: receiver.id, event: event.kind, service_event: event.service_event, printer_id: targetPrinter(receiver, event), actions };
  }

  list(): ReceiverView[] {
    return this.store().list().map(viewOf);
  }

  get(id: string): ReceiverView {
    return viewOf(this.store().get(id));
  }

  create(input: ReceiverInput & { name: string; service: MonitorService }) {
    return this.store().create(input, (id) => this.printerExists(id), this.now());
  }

  update(id: string, input: ReceiverInput): Promise<ReceiverView> {
    return this.store().update(id, input, (id) => this.printerExists(id));
  }

  delete(id: string): Promise<void> {
    return this.store().delete(id);
  }

  info(): Record<string, unknown> {
    return {
      receivers: this.receivers?.list().length ?? null,
      accepted: this.accepted,
      refused: this.refused,
      remembered_signatures: this.replays.size,
    };
  }

  private simplyPrintReceiver(candidates: readonly Receiver[], incoming: IncomingWebhook): Receiver {
    const signature = incoming.headers['x-simplyprint-signature'];
    if (signature === undefined || signature.trim() === '') return this.bySecret(candidates, incoming.headers['x-sp-token'] ?? incoming.token);
    const timestamp = incoming.headers['x-simplyprint-timestamp'];
    const nowMs = this.now().getTime();
    checkTimestamp(timestamp, nowMs);
    const signer = candidates.find((r) => signatureMatches(r.secret, (timestamp ?? '').trim(), incoming.body, signature));
    if (!signer) throw new VerifyFailure('bad_signature', 'the signature does not match the body under any simplyprint receiver secret');
    this.replays.admit(signature, nowMs);
    return this.enabled(signer);
  }

  private bySecret(candidates: readonly Receiver[], presented: string | undefined): Receiver {
    if (presented === undefined || presented === '') throw new VerifyFailure('missing_secret', 'the request carries no secret');
    // Every candidate is compared, so the time does not tell which one (if any) matched.
    const matches = candidates.filter((r) => secretMatches(presented, r.secret));
    if (matches.length === 0) throw new VerifyFailure('bad_secret', 'the secret is not the secret of any receiver of this service');
    return this.enabled(matches[0]);
  }

  private enabled(receiver: Receiver): Receiver {
    if (!receiver.enabled) throw new VerifyFailure('receiver_disabled', `the receiver "${receiver.name}" is disabled`);
    return receiver;
  }

  private ports(): ActionPorts {
    return {
      printer: (id) => {
        const view = this.deps.printers.fleet.find(id);
        return view === null ? null : { name: view.name, state: view.state };
      },
      pause: async (id) => {
        await this.control.control(id, 'pause');
      },
      record: (id, note) => this.deps.history.addMonitorNote(id, note),
      notify: (input) => this.deps.notifications.notify(input),
    };
  }

  private printerExists(id: string): boolean {
    return this.deps.printers.fleet.find(id) !== null;
  }

  private store(): ReceiverStore {
    if (!this.receivers) throw new AppError(ErrorCode.unavailable, 503, 'the webhooks feature is not started');
    return this.receivers;
  }
}
