/**
 * Keeps a set of services announced under one instance name: publishes them, and when another
 * host already uses the name, withdraws them and tries `<name> (2)`, `(3)`… (what Bonjour and
 * Avahi do); announces again when the set changes (the box was renamed) or the machine's
 * addresses change (the A records and the interfaces joined follow them); sends the goodbye on
 * stop. Changes are applied one after the other, the newest wins.
 */
import os from 'node:os';
import type { Logger } from '../../common/logger.js';
import type { MdnsResponder, PublishedService, ServiceAnnouncement } from './responder.js';

/** Renames tried before giving up (a LAN with 20 boxes of one name is misconfigured). */
const MAX_NAME_ATTEMPTS = 20;
const ADDRESS_CHECK_MS = 10_000;

export type AnnouncedService = Omit<ServiceAnnouncement, 'name'>;

export interface AnnouncementSet {
  /** The instance name wanted; a suffix is added on a conflict. */
  name: string;
  services: readonly AnnouncedService[];
}

export interface AnnouncerState {
  running: boolean;
  /** The instance name in use (after renames), null when nothing is announced. */
  name: string | null;
  note: string;
}

export interface AnnouncerOptions {
  responder: MdnsResponder;
  log: Logger;
  /** How often the machine's addresses are compared with the announced ones (ms); 0: never. */
  addressCheckMs?: number;
}

/** `Lab`, `Lab (2)`, `Lab (3)`… */
export function nameForAttempt(name: string, attempt: number): string {
  return attempt <= 1 ? name : `${name} (${attempt})`;
}

/** The addresses the A/AAAA records carry, as one comparable string. */
function addressKey(): string {
  return Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal)
    .map((a) => a.address)
    .sort()
    .join(',');
}

export class MdnsAnnouncer {
  private published: PublishedService[] = [];
  private wanted: AnnouncementSet | null = null;
  private current: AnnouncerState = { running: false, name: null, note: 'not started' };
  private chain: Promise<void> = Promise.resolve();
  private addresses = addressKey();
  private readonly timer: NodeJS.Timeout | null;
  private stopped = false;

  constructor(private readonly options: AnnouncerOptions) {
    const every = options.addressCheckMs ?? ADDRESS_CHECK_MS;
    this.timer = every > 0 ? setInterval(() => this.checkAddresses(), every) : null;
    this.timer?.unref();
  }

  state(): AnnouncerState {
    return { ...this.current };
  }

  /** Announces `set` (replacing what was announced); resolves when it is up or has failed. */
  announce(set: AnnouncementSet): Promise<void> {
    this.wanted = set;
    return this.enqueue(() => this.apply());
  }

  /** Withdraws everything (goodbye) but keeps the responder, e.g. when announcing is switched off. */
  withdraw(note: string): Promise<void> {
    this.wanted = null;
    return this.enqueue(async () => {
      await this.withdrawAll();
      this.current = { running: false, name: null, note };
    });
  }

  /** Goodbye for every service, then the responder closes. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.wanted = null;
    await this.enqueue(() => this.withdrawAll());
    await this.options.responder.close();
    this.current = { running: false, name: null, note: 'stopped' };
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.chain.then(step, step);
    this.chain = next.catch((err: Error) => this.options.log.error(`mDNS: ${err.message}`));
    return this.chain;
  }

  private checkAddresses(): void {
    const now = addressKey();
    if (now === this.addresses) return;
    this.addresses = now;
    if (this.wanted && !this.stopped) {
      this.options.log.info('mDNS: the network addresses changed, announcing again');
      void this.enqueue(() => this.apply());
    }
  }

  private async withdrawAll(): Promise<void> {
    const old = this.published;
    this.published = [];
    await Promise.all(old.map((p) => p.withdraw()));
  }

  private async apply(): Promise<void> {
    const set = this.wanted;
    if (!set || this.stopped) return;
    await this.withdrawAll();
    for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
      if (set !== this.wanted || this.stopped) return; // a newer set is queued
      const name = nameForAttempt(set.name, attempt);
      const published = set.services.map((service) => this.options.responder.publish({ ...service, name }));
      this.published = published;
      const outcomes = await Promise.all(published.map((p) => p.outcome));
      if (outcomes.every((o) => o === 'up')) {
        this.current = { running: true, name, note: `announced as "${name}" (${set.services.map((s) => `_${s.type}._tcp`).join(', ')})` };
        if (attempt > 1) this.options.log.warn(`mDNS: "${nameForAttempt(set.name, attempt - 1)}" is used by another host, announced as "${name}"`);
        return;
      }
      await this.withdrawAll();
    }
    this.current = { running: false, name: null, note: `no free name: "${set.name}" and ${MAX_NAME_ATTEMPTS - 1} variants are in use` };
  }
}
