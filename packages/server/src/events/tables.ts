/** The `events` table (migration 0190), owned by this module: nobody else writes its rows. */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Db, KernelTables } from '../storage/schema.ts';

export type EventsTable = {
  seq: Generated<string>;
  id: string;
  /** xid8, read as text: the writing transaction's id (the feed's order). */
  txid: Generated<string>;
  type: string;
  company_id: number | null;
  resource_type: string;
  resource_id: string;
  resource_version: number;
  data: ColumnType<unknown, string, string>;
  request_id: string | null;
  job_id: string | null;
  created_at: Generated<Date>;
};

export type EventTables = { events: EventsTable };

export const eventsDb = (db: Db): Kysely<EventTables> =>
  db.withTables<EventTables>() as unknown as Kysely<EventTables>;

export type WebhookEndpointsTable = {
  id: Generated<string>;
  company_id: number;
  url: string;
  description: string | null;
  event_types: ColumnType<string[], string[] | undefined, string[]>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  failing_since: ColumnType<Date | null, Date | null | undefined, Date | null>;
  disabled_reason: string | null;
  created_by: string | null;
  created_at: ColumnType<Date, Date | undefined, Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
};

export type WebhookDeliveriesTable = {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  status: ColumnType<'pending' | 'succeeded' | 'dead', 'pending' | 'succeeded' | 'dead' | undefined>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Date | null;
  first_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  response_excerpt: string | null;
  delivered_at: Date | null;
  created_at: Generated<Date>;
};

export type WebhookTables = EventTables & {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
};

export const webhookDb = (db: Db): Kysely<WebhookTables & KernelTables> =>
  db.withTables<WebhookTables>() as unknown as Kysely<WebhookTables & KernelTables>;
