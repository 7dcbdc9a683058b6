/**
 * The generic outgoing webhook: POST `{"event":"notification","notification":{…}}` as JSON to a
 * URL. With a secret, `X-Printyard-Signature: sha256=<hex>` is the HMAC-SHA256 of the exact body
 * bytes, so the receiver can check origin and integrity; `X-Printyard-Delivery` is one id per
 * notification and channel, the same on every retry, so a receiver can drop duplicates.
 *
 * Each try has a time limit; network errors, time-outs, 408, 429 and 5xx are retried after a
 * backoff, other statuses are final (the receiver said no; asking again will not change that).
 * Redirects are not followed: a POST silently turned into a GET would look delivered.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { packageVersion } from '../../common/version.js';
import type { ChannelSettings, ChannelType, DeliveryResult, NotificationChannel } from './channel.js';
import type { Notification } from './notification.js';

export interface WebhookOptions {
  /** Limit of one try, until the receiver's status line. */
  timeoutMs: number;
  /** Waits between tries; one more try than waits. */
  backoffMs: readonly number[];
}

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = { timeoutMs: 10_000, backoffMs: [1_000, 3_000] };

export const SIGNATURE_HEADER = 'x-printyard-signature';

export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

interface Attempt {
  status: number | null;
  error: string | null;
  retry: boolean;
}

function isRetryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof DOMException && err.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  return err instanceof Error ? err.message : String(err);
}

class WebhookChannel implements NotificationChannel {
  readonly type = 'webhook';

  constructor(
    private readonly url: string,
    private readonly secret: string | null,
    private readonly options: WebhookOptions,
  ) {}

  async send(notification: Notification, signal: AbortSignal): Promise<DeliveryResult> {
    const body = JSON.stringify({ event: 'notification', notification });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': `Printyard/${packageVersion()}`,
      'x-printyard-event': 'notification',
      'x-printyard-delivery': randomUUID(),
    };
    if (this.secret) headers[SIGNATURE_HEADER] = signature(this.secret, body);
    let attempts = 0;
    let last: Attempt = { status: null, error: null, retry: false };
    for (;;) {
      attempts++;
      last = await this.post(body, headers, signal);
      const wait = this.options.backoffMs[attempts - 1];
      if (!last.retry || wait === undefined || signal.aborted) break;
      try {
        await sleep(wait, undefined, { signal });
      } catch {
        break;
      }
    }
    return { ok: last.error === null, attempts, http_status: last.status, error: last.error, at: new Date().toISOString() };
  }

  private async post(body: string, headers: Record<string, string>, stop: AbortSignal): Promise<Attempt> {
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.any([stop, AbortSignal.timeout(this.options.timeoutMs)]),
      });
      await response.body?.cancel();
      if (response.status >= 200 && response.status < 300) return { status: response.status, error: null, retry: false };
      const location = response.headers.get('location');
      const error =
        response.status >= 300 && response.status < 400 && location
          ? `HTTP ${response.status}: redirected to ${location}; configure that URL instead`
          : `HTTP ${response.status}`;
      return { status: response.status, error, retry: isRetryable(response.status) };
    } catch (err) {
      if (stop.aborted) return { status: null, error: 'the service stopped before the delivery finished', retry: false };
      return { status: null, error: describe(err, this.options.timeoutMs), retry: true };
    }
  }
}

export function webhookChannelType(options: WebhookOptions = DEFAULT_WEBHOOK_OPTIONS): ChannelType {
  return {
    type: 'webhook',
    description: 'POSTs {"event":"notification","notification":{…}} as JSON; signed with X-Printyard-Signature when a secret is set.',
    fields: {
      url: { type: 'string', format: 'uri', maxLength: 2048, description: 'http or https URL the notification is POSTed to.' },
      secret: {
        type: ['string', 'null'],
        maxLength: 256,
        description: 'HMAC-SHA256 key of X-Printyard-Signature. Returned as "***"; send "***" to keep it, null or "" to remove it.',
      },
    },
    required: ['url'],
    secrets: ['secret'],
    check(settings: ChannelSettings) {
      let url: URL;
      try {
        url = new URL(String(settings.url));
      } catch {
        return [{ path: 'url', message: 'must be an absolute URL' }];
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return [{ path: 'url', message: 'must be an http or https URL' }];
      if (url.username || url.password) return [{ path: 'url', message: 'must not carry credentials; use the secret to sign deliveries' }];
      return [];
    },
    open(settings: ChannelSettings) {
      const secret = typeof settings.secret === 'string' ? settings.secret : null;
      return new WebhookChannel(String(settings.url), secret, options);
    },
  };
}
