/**
 * A short-lived link to one spool's label, for opening it in a new browser window: a window opened
 * by the web app cannot send the session's Authorization header, and the label shown from a
 * blob: URL would inherit the app's CSP, which refuses the label's inline style. The ticket names
 * the spool and an expiry, signed (HMAC-SHA256) with a key made at start, so it shows that one
 * label for two minutes and nothing else; a restart of the dashboard ends every ticket.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const LABEL_TICKET_MS = 120_000;

export class LabelTickets {
  private readonly key = randomBytes(32);

  constructor(private readonly now: () => number = Date.now) {}

  /** A ticket for the label of `spoolId` and when it expires. */
  issue(spoolId: number): { ticket: string; expiresAt: Date } {
    const expires = this.now() + LABEL_TICKET_MS;
    const body = `${spoolId}.${expires}`;
    return { ticket: `${body}.${this.sign(body)}`, expiresAt: new Date(expires) };
  }

  /** The spool a ticket names, or null when it is malformed, forged or expired. */
  spoolOf(ticket: string): number | null {
    const parts = ticket.split('.');
    if (parts.length !== 3 || !/^\d{1,15}$/.test(parts[0]) || !/^\d{1,15}$/.test(parts[1])) return null;
    const expected = Buffer.from(this.sign(`${parts[0]}.${parts[1]}`));
    const given = Buffer.from(parts[2]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return Number(parts[1]) >= this.now() ? Number(parts[0]) : null;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
