/**
 * Listens for Bambu Lab printers' SSDP announcements (families/bambu-lan/ssdp.ts) on UDP 2021
 * and keeps the printers heard, each until five minutes after its last announcement (they
 * announce every few seconds; Bambuddy forgets after five minutes too). A port already taken
 * (Bambu Studio on the same machine also listens on 2021) is shared (SO_REUSEADDR); a socket
 * that cannot be opened is reported, not fatal.
 */
import dgram from 'node:dgram';
import type { Logger } from '../../../common/logger.js';
import { type BambuAnnouncement, parseBambuAnnouncement } from '../families/bambu-lan/ssdp.js';

const FORGET_AFTER_MS = 5 * 60_000;

export interface HeardPrinter extends BambuAnnouncement {
  /** Where the datagram came from. */
  from: string;
  lastSeen: number;
}

export interface BambuListenerOptions {
  /** Address to listen on: 0.0.0.0 for the LAN (broadcasts arrive there), 127.0.0.1 in tests. */
  address: string;
  port: number;
  log: Logger;
}

export class BambuSsdpListener {
  private socket: dgram.Socket | null = null;
  private readonly heard = new Map<string, HeardPrinter>();
  private problem: string | null = null;

  constructor(private readonly options: BambuListenerOptions) {}

  /** Resolves once listening, or with the problem recorded. */
  start(): Promise<void> {
    return new Promise((resolve) => {
      const socket = dgram.createSocket({ type: 'udp4', reuseAddr: true });
      socket.on('message', (message, rinfo) => this.receive(message, rinfo.address));
      socket.once('error', (err) => {
        this.problem = `cannot listen on UDP ${this.options.address}:${this.options.port}: ${err.message}`;
        this.options.log.warn(`printer discovery: ${this.problem}`);
        socket.close();
        this.socket = null;
        resolve();
      });
      socket.bind(this.options.port, this.options.address, () => {
        this.socket = socket;
        resolve();
      });
    });
  }

  /** The printers heard lately, newest first. */
  printers(): HeardPrinter[] {
    const now = Date.now();
    for (const [serial, p] of this.heard) if (now - p.lastSeen > FORGET_AFTER_MS) this.heard.delete(serial);
    return [...this.heard.values()].sort((a, b) => b.lastSeen - a.lastSeen);
  }

  state(): { listening: boolean; address: string; port: number; error: string | null } {
    return { listening: this.socket !== null, address: this.options.address, port: this.options.port, error: this.problem };
  }

  stop(): Promise<void> {
    const socket = this.socket;
    this.socket = null;
    return new Promise((resolve) => (socket ? socket.close(() => resolve()) : resolve()));
  }

  private receive(message: Buffer, from: string): void {
    const announcement = parseBambuAnnouncement(message);
    if (!announcement) return;
    if (!this.heard.has(announcement.serial))
      this.options.log.info(`printer discovery: heard Bambu Lab ${announcement.model ?? '?'} ${announcement.serial} at ${announcement.host}`);
    this.heard.set(announcement.serial, { ...announcement, from, lastSeen: Date.now() });
  }
}
