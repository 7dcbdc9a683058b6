/**
 * The services features share, built in one place so that who uses whom is read here: the
 * notification center (raised by the slicer-service probe, listed by the notifications routes),
 * the printers (the printers routes; slice-and-send of the bridge and remote routes), the built-in
 * engine (its routes; the bridge slices with its user profiles; the last link of the fallback
 * chain), the desktop-slicer bridge, the slicer-service integration, the spool inventory, the print
 * history (fed by the printers' reports; it takes used filament off the spools through the
 * inventory's ledger) and the print queue (it sends to the printers, slices models through the
 * same chain, and matches jobs against the loaded spools), the box's presence on the LAN (mDNS,
 * started by app.ts once the port is open) and its GPIO pins (power relays the printers ask
 * before a start, inputs that pause, stop or confirm a plate through the queue, the status LED),
 * the incoming webhooks of print monitors (they notify, pause printers and add to history) and
 * the MQTT export (the printers' states and controls on a broker, Home Assistant discovery), and
 * the OS updates through RAUC.
 * Constructors do no I/O: each service
 * opens what it needs when its feature starts (features.ts says which).
 */
import type { DashboardContext } from './feature.js';
import { GpioService } from './gpio/gpio-service.js';
import type { GpioChip } from '../hardware/gpio/chip.js';
import { PrintHistory } from './history/history.js';
import type { PrinterDirectory } from './history/recorder.js';
import { printUsage } from './inventory/cost/print-usage.js';
import type { UsageLookup } from './inventory/cost/usage-lookup.js';
import { Inventory } from './inventory/inventory.js';
import { StorageLocations } from './inventory/locations/storage.js';
import type { SpoolDirectory, SpoolLedger } from './inventory/spool.js';
import { NotificationCenter } from './notifications/center.js';
import { createPrinters, type Printers, type PrintersOptions } from './printers/feature.js';
import { QueueService } from './queue/queue-service.js';
import { DesktopBridge, type BridgeOptions } from './slicing/bridge/desktop-bridge.js';
import { NativeSlicing } from './slicing/native/native-slicing.js';
import { MqttExport, type MqttExportOptions } from './mqtt-export/mqtt-export.js';
import { NetworkPresence, type NetworkPresenceOptions } from './network/presence.js';
import { type DiscoveryOptions, PrinterDiscovery } from './printers/discovery/printer-discovery.js';
import { RemoteSlicing, type RemoteSlicingOptions } from './slicing/remote/remote-slicing.js';
import { SystemUpdates, type SystemUpdateOptions } from './system-update/updates.js';
import { WebhookService } from './webhooks/webhook-service.js';

/** What tests swap: fake printer drivers and clocks, the bridge's search path, quick probes. */
export interface ServiceOptions {
  printers?: PrintersOptions;
  bridge?: BridgeOptions;
  remote?: RemoteSlicingOptions;
  /** The spools the inventory tools and the queue read (tests: an in-memory directory); the inventory otherwise. */
  spools?: SpoolDirectory;
  /** What the cost estimate reads for history records and queue jobs (tests: fixed answers). */
  usage?: UsageLookup;
  /** The ledger history books used filament with (tests: an in-memory one); the inventory otherwise. */
  history?: { ledger?: SpoolLedger };
  /** The mDNS responder (tests: one bound to a namespace's loopback, or a recording one). */
  network?: NetworkPresenceOptions;
  /** Printer discovery: the SSDP port, the serial ports to list (tests add ptys), probe timings. */
  discovery?: DiscoveryOptions;
  /** The GPIO chip (tests: a simulated one); the one `gpio.type` names otherwise. */
  gpio?: { chip?: GpioChip };
  /** The incoming webhooks' clock (tests move it to make signature timestamps stale). */
  webhooks?: { now?: () => Date };
  /** The MQTT export's reconnect delay (tests: short). */
  mqtt?: MqttExportOptions;
  /** OS updates: RAUC's program, system config and bus (tests: a private `rauc service`), the reboot command. */
  updates?: SystemUpdateOptions;
}

export interface DashboardServices {
  readonly notifications: NotificationCenter;
  readonly printers: Printers;
  readonly native: NativeSlicing;
  readonly bridge: DesktopBridge;
  readonly remote: RemoteSlicing;
  /** The spools: the SpoolDirectory and SpoolLedger of history and the queue. */
  readonly inventory: Inventory;
  /** What the inventory tools and the queue read: the inventory itself, unless a test hands in its own spools. */
  readonly spoolDirectory: SpoolDirectory;
  /** What the cost estimate reads for a history record or a queue job. */
  readonly usage: UsageLookup;
  /** The storage locations: their routes and climate (inventory tools), their names as Spoolman's `location` (inventory). */
  readonly locations: StorageLocations;
  readonly history: PrintHistory;
  readonly queue: QueueService;
  /** The box on the LAN: mDNS announcement and the other boxes' slicer services. */
  readonly presence: NetworkPresence;
  /** Printers this box could add (Bambu Lab announcements, serial ports probed with M115). */
  readonly discovery: PrinterDiscovery;
  /** The box's pins: power relays (asked before every start through `printers.power`), inputs, the status LED. */
  readonly gpio: GpioService;
  /** Incoming webhooks of print monitors (Obico, OctoEverywhere, SimplyPrint) and their receivers. */
  readonly webhooks: WebhookService;
  /** The fleet on an MQTT broker with Home Assistant discovery (off unless `mqtt.enabled`). */
  readonly mqtt: MqttExport;
  /** OS updates: RAUC's slots, a bundle checked and installed, the reboot into it. */
  readonly updates: SystemUpdates;
}

export function createServices(ctx: DashboardContext, options: ServiceOptions = {}): DashboardServices {
  const notifications = new NotificationCenter({ stores: ctx.stores, bus: ctx.bus, log: ctx.log.child('notifications') });
  const printers = createPrinters(ctx, options.printers);
  const native = new NativeSlicing(ctx);
  const bridge = new DesktopBridge(ctx, native, options.bridge);
  const remote = new RemoteSlicing(ctx, notifications, options.remote);
  const inventory = new Inventory({ stores: ctx.stores, bus: ctx.bus, log: ctx.log.child('inventory') });
  const printerDirectory: PrinterDirectory = {
    describe: (id) => {
      const view = printers.fleet.find(id); // null: deleted, or the printers are not open
      return view === null ? null : { name: view.name, type: view.type };
    },
  };
  const spoolDirectory = options.spools ?? inventory;
  const locations = new StorageLocations({
    ...ctx,
    spools: spoolDirectory,
    notifications,
    log: ctx.log.child('inventory-tools'),
    now: () => new Date(),
  });
  const history = new PrintHistory(ctx, { ledger: options.history?.ledger ?? inventory, printers: printerDirectory });
  const queue = new QueueService(ctx, printers, spoolDirectory, [remote.backend, bridge.backend, native.backend]);
  const gpio = new GpioService(ctx, {
    printers,
    notifications,
    plateCleared: (printerId, by) => queue.plateCleared(printerId, by),
    ...(options.gpio?.chip ? { chip: options.gpio.chip } : {}),
  });
  printers.power.add(gpio.relays);
  return {
    notifications,
    printers,
    native,
    bridge,
    remote,
    inventory,
    spoolDirectory,
    locations,
    history,
    queue,
    presence: new NetworkPresence(ctx, options.network),
    discovery: new PrinterDiscovery(printers.fleet, ctx.log.child('discovery'), options.discovery),
    gpio,
    mqtt: new MqttExport(ctx, printers, options.mqtt),
    usage: options.usage ?? printUsage(history, queue),
    updates: new SystemUpdates(ctx, options.updates),
    webhooks: new WebhookService(ctx, { printers, notifications, history, ...(options.webhooks?.now ? { now: options.webhooks.now } : {}) }),
  };
}
