/**
 * The box on the LAN: announces the dashboard (and this box's slicer service) over mDNS and
 * browses for the slicer services of other boxes. It starts once the dashboard listens (the port
 * is known then, and nothing is announced that does not answer yet) and says goodbye first when
 * the dashboard stops. It follows the settings: `mdns.enabled` switches it on and off, a new box
 * name or slicer URL is announced again (only when what is announced changes).
 *
 * Interfaces: a dashboard listening on every address announces on every interface; one that
 * listens on a single address announces only there (127.0.0.1: loopback only — the test
 * dashboards do that, so no test announces on the machine's LAN).
 */
import net from 'node:net';
import { isLoopback } from '../../common/http-server.js';
import { type AnnouncerState, MdnsAnnouncer } from '../../hardware/mdns/announcer.js';
import { createBonjourResponder } from '../../hardware/mdns/bonjour-responder.js';
import type { MdnsResponderFactory, ServiceBrowser } from '../../hardware/mdns/responder.js';
import type { DashboardContext } from '../feature.js';
import type { DashboardSettings } from '../settings/settings.js';
import { buildAnnouncement, SLICER_SERVICE_TYPE } from './announcement.js';
import { loadBoxId } from './box-id.js';

export interface NetworkPresenceOptions {
  /** Makes the mDNS responder for an interface address (undefined: every interface). */
  responder?: (iface: string | undefined) => MdnsResponderFactory;
  /** How often the announcer compares the machine's addresses (ms); 0: never. */
  addressCheckMs?: number;
}

/** A slicer service another box announces. */
export interface OtherBoxSlicer {
  /** The DNS-SD instance name, e.g. `Printyard Basement`. */
  name: string;
  box: string | null;
  box_id: string | null;
  /** What to put into slicer_service.url to use it. */
  url: string;
  host: string;
  port: number;
  addresses: string[];
  version: string | null;
  last_seen: string;
}

/** The interface to announce on for the address the dashboard listens on. */
export function interfaceFor(bind: string): string | undefined {
  if (isLoopback(bind)) return '127.0.0.1';
  if (net.isIPv4(bind) && bind !== '0.0.0.0') return bind;
  return undefined;
}

const bonjourFor =
  (iface: string | undefined): MdnsResponderFactory =>
  (onError) =>
    createBonjourResponder({ interface: iface }, onError);

export class NetworkPresence {
  private boxId: string | null = null;
  private listeningOn: { port: number; iface: string | undefined } | null = null;
  private announcer: MdnsAnnouncer | null = null;
  private browser: ServiceBrowser | null = null;
  private announced = '';
  private error: string | null = null;
  private unwatch: (() => void) | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: DashboardContext,
    private readonly options: NetworkPresenceOptions = {},
  ) {}

  /** Reads (or makes) the box id; the feature's start. */
  async open(): Promise<void> {
    this.boxId = await loadBoxId(this.ctx.dataDir, this.ctx.log.child('mdns'));
  }

  get id(): string | null {
    return this.boxId;
  }

  /** Called once the HTTP server listens: starts announcing and browsing (when switched on). */
  listening(port: number, bind: string): Promise<void> {
    if (this.boxId === null) return Promise.resolve(); // the feature did not start
    this.listeningOn = { port, iface: interfaceFor(bind) };
    this.unwatch = this.ctx.settings.onChange((current) => void this.follow(current));
    return this.follow(this.ctx.settings.current);
  }

  /** For /api/system/info `hardware.mdns`. */
  state(): { running: boolean; note: string; name: string | null } {
    if (!this.ctx.settings.current.mdns.enabled) return { running: false, note: 'switched off (setting mdns.enabled)', name: null };
    if (this.error) return { running: false, note: `mDNS failed: ${this.error}`, name: null };
    if (!this.announcer) return { running: false, note: this.boxId === null ? 'not started' : 'starts once the dashboard listens', name: null };
    const state: AnnouncerState = this.announcer.state();
    return { running: state.running, note: state.note, name: state.name };
  }

  /** The slicer services announced by other boxes (this box's own left out). */
  otherSlicers(): OtherBoxSlicer[] {
    const found = this.browser?.services() ?? [];
    return found
      .filter((s) => s.txt.box_id !== this.boxId)
      .map((s) => {
        const address = s.addresses.find((a) => net.isIPv4(a)) ?? s.addresses[0] ?? s.host;
        const host = net.isIPv6(address) ? `[${address}]` : address;
        return {
          name: s.name,
          box: s.txt.box ?? null,
          box_id: s.txt.box_id ?? null,
          url: `http://${host}:${s.port}`,
          host: s.host,
          port: s.port,
          addresses: s.addresses,
          version: s.txt.version ?? null,
          last_seen: new Date(s.lastSeen).toISOString(),
        };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Goodbye on every interface, then the socket closes. */
  async stop(): Promise<void> {
    this.unwatch?.();
    this.unwatch = null;
    this.listeningOn = null;
    await this.enqueue(() => this.shutDown());
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(step).catch((err: Error) => this.ctx.log.error(`mDNS: ${err.message}`));
    return this.chain;
  }

  private follow(settings: DashboardSettings): Promise<void> {
    return this.enqueue(async () => {
      const on = this.listeningOn;
      if (!on || this.boxId === null) return;
      if (!settings.mdns.enabled) {
        await this.shutDown();
        return;
      }
      if (!this.announcer) this.startUp(on.iface);
      const set = buildAnnouncement({ settings, boxId: this.boxId, port: on.port });
      const key = JSON.stringify(set);
      if (key === this.announced || !this.announcer) return;
      this.announced = key;
      await this.announcer.announce(set);
    });
  }

  private startUp(iface: string | undefined): void {
    const log = this.ctx.log.child('mdns');
    this.error = null;
    const responder = (this.options.responder ?? bonjourFor)(iface)((err) => {
      this.error = err.message;
      log.warn(`mDNS: ${err.message}`);
    });
    this.announcer = new MdnsAnnouncer({ responder, log, addressCheckMs: this.options.addressCheckMs });
    this.browser = responder.browse(SLICER_SERVICE_TYPE);
  }

  private async shutDown(): Promise<void> {
    this.browser?.stop();
    this.browser = null;
    const announcer = this.announcer;
    this.announcer = null;
    this.announced = '';
    await announcer?.stop();
  }
}
