/**
 * Checking that a webhook comes from the service: a shared secret compared in constant time, or
 * an HMAC-SHA256 signature over `<timestamp>.<raw body>` with the timestamp inside a window and
 * the signature not seen before inside that window (a captured request cannot be sent again).
 * A failed check is a `VerifyFailure`: the route answers 401 `{error, code, reason}`.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Why a webhook was refused, as the 401's `reason`. */
export const FAILURE_REASONS = [
  'no_receiver',
  'missing_secret',
  'bad_secret',
  'missing_signature',
  'bad_signature',
  'bad_timestamp',
  'stale_timestamp',
  'replayed',
  'receiver_disabled',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export class VerifyFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
  }
}

/** Seconds a signed request's timestamp may be off the box's clock, either way. */
export const SIGNATURE_WINDOW_S = 300;

/** Constant-time comparison of a presented secret with the stored one. */
export function secretMatches(presented: string, stored: string): boolean {
  // Digests have one length, so the time taken tells nothing about the secret's length either.
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(stored));
}

/** The hex HMAC-SHA256 a sender puts in its signature header. */
export function signBody(secret: string, timestamp: string, body: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** True when `signature` (hex, optionally `sha256=`-prefixed) is the body's signature under `secret`. */
export function signatureMatches(secret: string, timestamp: string, body: Buffer, signature: string): boolean {
  const presented = Buffer.from(
    signature
      .trim()
      .replace(/^sha256=/i, '')
      .toLowerCase(),
    'utf8',
  );
  const expected = Buffer.from(signBody(secret, timestamp, body), 'utf8');
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** Throws when the timestamp (Unix seconds) is not a number or outside the window around `nowMs`. */
export function checkTimestamp(timestamp: string | undefined, nowMs: number): void {
  if (timestamp === undefined || timestamp.trim() === '') throw new VerifyFailure('bad_timestamp', 'the request has no signature timestamp');
  const seconds = Number(timestamp);
  if (!/^\d+$/.test(timestamp.trim()) || !Number.isSafeInteger(seconds)) {
    throw new VerifyFailure('bad_timestamp', 'the signature timestamp is not a Unix time in seconds');
  }
  const skew = Math.abs(nowMs / 1000 - seconds);
  if (skew > SIGNATURE_WINDOW_S) {
    throw new VerifyFailure(
      'stale_timestamp',
      `the signature timestamp is ${Math.round(skew)} s off this box's clock (at most ${SIGNATURE_WINDOW_S} s)`,
    );
  }
}

/**
 * The signatures accepted recently: a signature seen again is a replay. A timestamp is accepted
 * up to a window either side of the clock, so a signature is kept for two windows; older ones are
 * dropped (their timestamps are refused as stale by then).
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly windowMs = 2 * SIGNATURE_WINDOW_S * 1000) {}

  /** Remembers the signature; throws when it was seen inside the window. */
  admit(signature: string, nowMs: number): void {
    for (const [key, at] of this.seen) {
      if (nowMs - at <= this.windowMs) break; // insertion order: the rest are newer
      this.seen.delete(key);
    }
    const key = signature
      .trim()
      .replace(/^sha256=/i, '')
      .toLowerCase();
    if (this.seen.has(key)) throw new VerifyFailure('replayed', 'this signed request was already received');
    this.seen.set(key, nowMs);
  }

  get size(): number {
    return this.seen.size;
  }
}
