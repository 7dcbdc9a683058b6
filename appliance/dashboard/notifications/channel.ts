/**
 * Outgoing channels: where notifications go besides the in-app list. A channel type (webhook
 * today; e-mail, Telegram… later) describes its own settings and knows how to deliver; the
 * registry (channels.ts) stores configured channels, checks them with the type, redacts secrets
 * and records each delivery's outcome. Adding a channel type is one module and one entry in
 * CHANNEL_TYPES — routes, storage and redaction come from its description.
 */
import type { JsonSchema } from '../http/route.js';
import type { ValidationIssue } from '../../common/json-schema.js';
import type { Notification } from './notification.js';

export interface DeliveryResult {
  ok: boolean;
  /** Tries made, retries included. */
  attempts: number;
  /** The receiver's last HTTP status, for channels that speak HTTP; null otherwise or without an answer. */
  http_status: number | null;
  /** Why the delivery failed; null when it succeeded. */
  error: string | null;
  /** ISO 8601, when the delivery finished. */
  at: string;
}

/** A configured channel, ready to send. */
export interface NotificationChannel {
  readonly type: string;
  /** Never throws: every failure is in the result. `signal` aborts retries when the service stops. */
  send(notification: Notification, signal: AbortSignal): Promise<DeliveryResult>;
}

export type ChannelSettings = Readonly<Record<string, unknown>>;

export interface ChannelType {
  /** The `type` of channel records, e.g. `webhook`. */
  readonly type: string;
  /** For the API description. */
  readonly description: string;
  /** JSON Schemas of the type's own fields, beside the common ones (name, enabled, kinds). */
  readonly fields: Readonly<Record<string, JsonSchema>>;
  /** Fields a new channel of this type must have. */
  readonly required: readonly string[];
  /** Fields never returned in clear: the API shows `'***'` and a `<field>_set` flag. */
  readonly secrets: readonly string[];
  /** What the schema cannot express, as issues with paths relative to the record (`url`). */
  check(settings: ChannelSettings): ValidationIssue[];
  open(settings: ChannelSettings): NotificationChannel;
}
