/**
 * MdnsResponder on bonjour-service 1.4.4 (one multicast-dns socket on UDP 5353).
 *
 * Interfaces: by default the socket joins 224.0.0.251 on every IPv4 interface (multicast-dns
 * checks for new ones every 5 s) and sends through the kernel's multicast route; the A/AAAA
 * records name every non-loopback address of the machine. `interface` limits it to one address
 * (a dashboard that listens on 127.0.0.1 only announces on loopback; tests do the same).
 *
 * Name conflicts: bonjour-service probes the name three times before announcing (RFC 6762 §8.1)
 * and, when another host answers for it, only stops the service and logs to the console. The
 * stop is what tells a conflict apart here: the service's stop function is wrapped before the
 * probe ends, and a stop that comes while probing (not from us) is the conflict.
 */
import BonjourService from 'bonjour-service';
import type { FoundService, MdnsResponder, PublishedService, PublishOutcome, ServiceAnnouncement, ServiceBrowser } from './responder.js';

type Bonjour = InstanceType<typeof BonjourService.Bonjour>;
type Service = InstanceType<typeof BonjourService.Service>;

/** A goodbye that cannot be sent (socket gone) must not hold the dashboard's stop. */
const CLOSE_TIMEOUT_MS = 2000;
/** How often a browser asks again and drops services whose records expired. */
const BROWSE_REFRESH_MS = 30_000;

export interface BonjourResponderOptions {
  /** One IPv4 address to announce and listen on; every interface when absent. */
  interface?: string;
}

function textRecord(txt: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (txt && typeof txt === 'object') {
    for (const [key, value] of Object.entries(txt)) out[key] = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
  return out;
}

function found(service: Service): FoundService {
  return {
    name: service.name,
    type: service.type,
    host: service.host,
    port: service.port,
    addresses: [...(service.addresses ?? [])],
    txt: textRecord(service.txt),
    lastSeen: service.lastSeen ?? Date.now(),
  };
}

function publishOn(bonjour: Bonjour, announcement: ServiceAnnouncement): PublishedService {
  const service = bonjour.publish({
    name: announcement.name,
    type: announcement.type,
    port: announcement.port,
    host: announcement.host,
    txt: { ...announcement.txt },
    probe: true,
  });
  const ownStop = service.stop;
  let withdrawing = false;
  let settle: (outcome: PublishOutcome) => void = () => {};
  const outcome = new Promise<PublishOutcome>((resolve) => {
    settle = resolve;
  });
  service.once('up', () => settle('up'));
  // Called by the registry itself when the probe found the name taken (see the header).
  service.stop = (callback?: () => void) => {
    if (!withdrawing && !service.published) settle('conflict');
    return ownStop(callback);
  };
  return {
    announcement,
    outcome,
    withdraw: () =>
      new Promise<void>((resolve) => {
        withdrawing = true;
        settle('up');
        service.stop(() => resolve());
      }),
  };
}

export function createBonjourResponder(options: BonjourResponderOptions, onError: (err: Error) => void): MdnsResponder {
  const config = options.interface ? { interface: options.interface, bind: '0.0.0.0' } : {};
  const bonjour: Bonjour = new BonjourService.Bonjour(config as object, (err: Error) => onError(err));
  const browsers = new Set<ServiceBrowser>();
  let closed: Promise<void> | null = null;
  return {
    publish: (announcement) => publishOn(bonjour, announcement),
    browse(type) {
      const browser = bonjour.find({ type });
      const timer = setInterval(() => {
        browser.expire();
        browser.update();
      }, BROWSE_REFRESH_MS);
      timer.unref();
      const handle: ServiceBrowser = {
        services: () => {
          browser.expire();
          return browser.services.map(found);
        },
        stop() {
          clearInterval(timer);
          browser.stop();
          browsers.delete(handle);
        },
      };
      browsers.add(handle);
      return handle;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const browser of [...browsers]) browser.stop();
        const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
        bonjour.unpublishAll(() =>
          bonjour.destroy(() => {
            clearTimeout(timer);
            resolve();
          }),
        );
      });
      return closed;
    },
  };
}
