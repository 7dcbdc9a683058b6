/**
 * The small interface the appliance uses for mDNS/DNS-SD: publish a service and learn whether it
 * went up or its name is taken, browse a service type, and say goodbye. bonjour-responder.ts is
 * the implementation on bonjour-service; the announcer and the dashboard only see this.
 */

/** One DNS-SD service instance to announce. */
export interface ServiceAnnouncement {
  /** Instance name, e.g. `Printyard Lab` (dots are not allowed in it). */
  name: string;
  /** Service type without the leading underscore and protocol: `http`, `pyard-slicer` (at most 15 characters, RFC 6335). */
  type: string;
  port: number;
  /** Target host of the SRV record (`<name>.local`); its A records name this machine's addresses. */
  host: string;
  txt: Readonly<Record<string, string>>;
}

/** How a publication ended its probing: announced, or another host already uses the name. */
export type PublishOutcome = 'up' | 'conflict';

export interface PublishedService {
  readonly announcement: ServiceAnnouncement;
  /** Settles once probing is over (about a second). */
  readonly outcome: Promise<PublishOutcome>;
  /** Sends the goodbye (TTL 0) for this service and forgets it. */
  withdraw(): Promise<void>;
}

/** A service another host announces, resolved. */
export interface FoundService {
  name: string;
  type: string;
  host: string;
  port: number;
  /** IPv4 and IPv6 addresses of the host, as announced. */
  addresses: string[];
  txt: Record<string, string>;
  /** When a record of it was last received (ms since the epoch). */
  lastSeen: number;
}

export interface ServiceBrowser {
  /** The services currently announced (expired ones are dropped). */
  services(): FoundService[];
  stop(): void;
}

export interface MdnsResponder {
  publish(announcement: ServiceAnnouncement): PublishedService;
  browse(type: string): ServiceBrowser;
  /** Goodbye for everything still published, then the socket closes. */
  close(): Promise<void>;
}

export type MdnsResponderFactory = (onError: (err: Error) => void) => MdnsResponder;
