/**
 * Table types of the search engine (migration 0010). The kernel's `Db` is widened with
 * `db.withTables<SearchTables>()`, so no kernel file needs to know these tables.
 */
import type { ColumnType, Kysely } from 'kysely';
import type { Db } from '../storage/schema.ts';
import type { GdsConfigTable } from '../suppliers/gds-config.ts';
import type { Vertical } from '../suppliers/searchable.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T = unknown> = ColumnType<T, string, string>;

export type { Vertical };
export type SearchStatus = 'initiated' | 'in_progress' | 'completed' | 'partial' | 'failed';
export type SupplierOutcome = 'completed' | 'timed_out' | 'failed' | 'skipped';

export interface SearchSessionsTable {
  id: string;
  vertical: Vertical;
  status: ColumnType<SearchStatus, SearchStatus | undefined, SearchStatus>;
  user_id: string;
  company_id: number | null;
  request: Json<Record<string, unknown>>;
  /** Supplier names taking part, in priority order (skipped ones included). */
  suppliers: Json<string[]>;
  total_suppliers: ColumnType<number, number | undefined, number>;
  completed_suppliers: ColumnType<number, number | undefined, number>;
  total_offers: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  expires_at: Timestamp;
  finished_at: Timestamp | null;
}

export interface SearchEventsTable {
  search_id: string;
  seq: number;
  event: string;
  data: Json<Record<string, unknown>>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface SearchOffersTable {
  offer_id: string;
  search_id: string;
  supplier: string;
  position: number;
  offer: Json<Record<string, unknown>>;
  supplier_ref: Json<unknown> | null;
  total_minor: number;
  expires_at: Timestamp;
}

export type SearchTables = {
  search_sessions: SearchSessionsTable;
  search_events: SearchEventsTable;
  search_offers: SearchOffersTable;
  gds_config: GdsConfigTable;
};

export type SearchDb = Kysely<SearchTables>;

export const searchDb = (db: Db | Kysely<unknown>): SearchDb =>
  (db as Db).withTables<SearchTables>() as never;

/** JSON columns arrive parsed from both pg and PGlite; this keeps a string from a driver honest. */
export const parseJson = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
