// The webhook receiver's tables: the durable inbox with the relay's per-row state, and rejected deliveries.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { JsonValue } from './columns';

type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;

/** Where an inbox row stands with the relay. */
export type WebhookInboxStatus = 'pending' | 'done' | 'failed';

/** Every acknowledged webhook delivery, once per (account, event id), committed before the 2xx. */
export interface WebhookInboxTable {
  id: Generated<number>;
  account: string;
  event_id: string;
  event_name: string;
  /** The call's id for call events; null for SMS and unknown events. */
  call_id: number | null;
  received_at: Generated<Date>;
  /** The body as delivered (JSON). */
  body: ColumnType<JsonValue, string, string>;
  status: ColumnType<WebhookInboxStatus, WebhookInboxStatus | undefined, WebhookInboxStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  /** The relay leaves a failed row alone until then (backoff). */
  next_attempt_at: Generated<Date>;
  done_at: NullableTimestamp;
}
export type WebhookInboxRow = Selectable<WebhookInboxTable>;
export type NewWebhookInboxRow = Insertable<WebhookInboxTable>;
export type WebhookInboxUpdate = Updateable<WebhookInboxTable>;

/** Authenticated deliveries the receiver refused (400), kept for inspection. */
export interface WebhookRejectedTable {
  id: Generated<number>;
  account: string;
  received_at: Generated<Date>;
  reason: string;
  /** The raw body text. */
  body: string;
  /** Request headers without Authorization. */
  headers: ColumnType<JsonValue, string, string>;
}
export type WebhookRejectedRow = Selectable<WebhookRejectedTable>;
export type NewWebhookRejectedRow = Insertable<WebhookRejectedTable>;
