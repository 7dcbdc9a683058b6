/**
 * The services features share, built in one place so that who uses whom is read here: the
 * notification center (raised by the slicer-service probe, listed by the notifications routes),
 * the printers (the printers routes; slice-and-send of the bridge and remote routes), the built-in
 * engine (its routes; the bridge slices with its user profiles; the last link of the fallback
 * chain), the desktop-slicer bridge, the slicer-service integration and the print queue (it sends
 * to the printers, slices models through the same chain, and matches against the spools of a
 * SpoolDirectory). Constructors do no I/O: each service opens what it needs when its feature
 * starts (features.ts says which).
 */
import type { DashboardContext } from './feature.js';
import type { SpoolDirectory } from './inventory/spool.js';
import { NotificationCenter } from './notifications/center.js';
import { createPrinters, type Printers, type PrintersOptions } from './printers/feature.js';
import { QueueService } from './queue/queue-service.js';
import { DesktopBridge, type BridgeOptions } from './slicing/bridge/desktop-bridge.js';
import { NativeSlicing } from './slicing/native/native-slicing.js';
import { RemoteSlicing, type RemoteSlicingOptions } from './slicing/remote/remote-slicing.js';

/** What tests swap: fake printer drivers and clocks, the bridge's search path, quick probes. */
export interface ServiceOptions {
  printers?: PrintersOptions;
  bridge?: BridgeOptions;
  remote?: RemoteSlicingOptions;
  /** The spools loaded on printers, for the queue's matching (the inventory's, once it is wired). */
  spools?: SpoolDirectory;
}

export interface DashboardServices {
  readonly notifications: NotificationCenter;
  readonly printers: Printers;
  readonly native: NativeSlicing;
  readonly bridge: DesktopBridge;
  readonly remote: RemoteSlicing;
  readonly queue: QueueService;
}

export function createServices(ctx: DashboardContext, options: ServiceOptions = {}): DashboardServices {
  const notifications = new NotificationCenter({ stores: ctx.stores, bus: ctx.bus, log: ctx.log.child('notifications') });
  const printers = createPrinters(ctx, options.printers);
  const native = new NativeSlicing(ctx);
  const bridge = new DesktopBridge(ctx, native, options.bridge);
  const remote = new RemoteSlicing(ctx, notifications, options.remote);
  const queue = new QueueService(ctx, printers, options.spools ?? null, [remote.backend, bridge.backend, native.backend]);
  return { notifications, printers, native, bridge, remote, queue };
}
