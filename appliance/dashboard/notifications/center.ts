/**
 * The one door for notifications: a feature calls `notify({kind, level, title, message, data})`
 * and the notification is added to the in-app list, emitted on the bus (the WebSocket pushes it
 * as `notification`) and handed to every enabled outgoing channel that takes its kind.
 *
 * A notification is stored first: only once it is on disk does it go on the bus and to the
 * channels, so nobody hears of one that the list does not hold. Data over the limits of
 * notification.ts (the REST route refuses it with a 400) is replaced here by the reason, so that
 * a feature's notification still gets through.
 *
 * The stores open on first use, so the center can be handed to features before anything has
 * started, and a notification raised during start-up is not lost.
 */
import type { AppendLogStats } from '../../common/append-log.js';
import type { EventBus } from '../../common/event-bus.js';
import type { JsonStores, StoreProblem } from '../../common/json-store.js';
import type { Logger } from '../../common/logger.js';
import type { DashboardEvents } from '../events.js';
import type { ChannelType } from './channel.js';
import { ChannelRegistry, type ChannelStats } from './channels.js';
import { Inbox, type InboxOptions } from './inbox.js';
import { dataProblem, type Notification, type NotificationInput } from './notification.js';
import { webhookChannelType } from './webhook.js';

/** The outgoing channel types the dashboard offers. */
export const CHANNEL_TYPES: readonly ChannelType[] = [webhookChannelType()];

export interface NotificationCenterDeps {
  stores: JsonStores;
  bus: EventBus<DashboardEvents>;
  log: Logger;
  channelTypes?: readonly ChannelType[];
  now?: () => Date;
  /** The inbox's capacity and log thresholds; the defaults suit the appliance. */
  inbox?: Omit<InboxOptions, 'log'>;
}

/** The inbox's log in /api/system/info: sizes, counters and what was unreadable at start. */
type InboxLogInfo = AppendLogStats & { problems: readonly StoreProblem[] };

interface Opened {
  inbox: Inbox;
  channels: ChannelRegistry;
}

export class NotificationCenter {
  readonly channelTypes: readonly ChannelType[];
  private opened: Promise<Opened> | null = null;
  private loaded: Opened | null = null;
  private readonly now: () => Date;

  constructor(private readonly deps: NotificationCenterDeps) {
    this.channelTypes = deps.channelTypes ?? CHANNEL_TYPES;
    this.now = deps.now ?? (() => new Date());
  }

  /** Opens the stores (once); later calls share the first. */
  open(): Promise<Opened> {
    this.opened ??= (async () => {
      const inbox = await Inbox.open(this.deps.stores, { ...this.deps.inbox, log: this.deps.log.child('inbox') });
      const channels = await ChannelRegistry.open(this.deps.stores, this.channelTypes, this.deps.log.child('channels'), this.now);
      this.loaded = { inbox, channels };
      return this.loaded;
    })();
    return this.opened;
  }

  /**
   * Resolves with the stored notification once it is on disk, on the bus and on its way to the
   * channels. A failed write rejects and leaves the list as it was.
   */
  async notify(input: NotificationInput): Promise<Notification> {
    const problem = input.data === undefined ? null : dataProblem(input.data);
    if (problem !== null) this.deps.log.warn(`the data of a ${input.kind} notification was dropped: it ${problem}`);
    const { inbox, channels } = await this.open();
    const notification = await inbox.add(problem === null ? input : { ...input, data: { data_dropped: `it ${problem}` } }, this.now());
    this.deps.bus.emit('notification', notification);
    void channels.dispatch(notification);
    return notification;
  }

  async inbox(): Promise<Inbox> {
    return (await this.open()).inbox;
  }

  async channels(): Promise<ChannelRegistry> {
    return (await this.open()).channels;
  }

  /** Counters for /api/system/info; null until the stores are open. */
  stats(): ({ unread: number; inbox_log: InboxLogInfo } & ChannelStats) | null {
    if (!this.loaded) return null;
    const { inbox, channels } = this.loaded;
    return { unread: inbox.unreadCount(), inbox_log: { ...inbox.stats(), problems: inbox.problems() }, ...channels.stats() };
  }

  /** A notification for trying a channel out; it is not stored, emitted or sent elsewhere. */
  testNotification(channelName: string): Notification {
    return {
      id: 'test',
      kind: 'test',
      level: 'info',
      title: 'Test notification',
      message: `Printyard can reach the channel "${channelName}".`,
      data: {},
      created_at: this.now().toISOString(),
      read: false,
    };
  }

  /** Lets deliveries in flight end (retries waiting are abandoned) and closes the inbox's log. */
  async stop(): Promise<void> {
    if (!this.opened) return;
    const { inbox, channels } = await this.opened;
    await channels.stop();
    await inbox.close();
  }
}
