/** The `events` table (migration 0190), owned by this module: nobody else writes its rows. */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Db } from '../storage/schema.ts';

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
