/**
 * Reads of the `events` table: the feed's order is (txid, seq), and a row is visible only once every
 * transaction that started before its own has finished (`pg_snapshot_xmin`): a transaction that commits
 * late never lands behind a cursor that already moved past it.
 */
import { EVENT_TYPES } from '@travel/contract';
import { sql } from 'kysely';
import { oneOf } from '../internal/narrow.ts';
import type { Db } from '../storage/schema.ts';
import { eventsDb } from './tables.ts';

/** A position in the feed. */
export interface Cursor {
  txid: string;
  seq: string;
}

export interface StoredEvent {
  cursor: Cursor;
  company_id: number | null;
  type: string;
  resource_type: string;
  resource_id: string;
  /** The event as the API and webhooks show it. */
  view: EventView;
}

export type EventView = ReturnType<typeof eventView>;

const VISIBLE = sql<boolean>`txid < pg_snapshot_xmin(pg_current_snapshot())`;

/** Orders two cursors (xid8 and bigint, compared as the numbers they are). */
export function compareCursors(a: Cursor, b: Cursor): number {
  const t = BigInt(a.txid) - BigInt(b.txid);
  if (t !== 0n) return t < 0n ? -1 : 1;
  const s = BigInt(a.seq) - BigInt(b.seq);
  return s === 0n ? 0 : s < 0n ? -1 : 1;
}

const ZERO: Cursor = { txid: '0', seq: '0' };

interface Raw {
  seq: string | number;
  id: string;
  txid: string;
  type: string;
  company_id: number | null;
  resource_type: string;
  resource_id: string;
  resource_version: number;
  data: unknown;
  request_id: string | null;
  job_id: string | null;
  created_at: Date | string;
}

/** The contract's `Event.resource.type`: what an event is about. */
const RESOURCE_TYPES = ['booking', 'hotel_booking', 'payment', 'transport_booking'] as const;

export function eventView(r: Raw) {
  return {
    id: r.id,
    object: 'event' as const,
    type: oneOf(EVENT_TYPES, r.type, 'events.type'),
    created_at: new Date(r.created_at).toISOString(),
    company_id: r.company_id,
    resource: {
      type: oneOf(RESOURCE_TYPES, r.resource_type, 'events.resource_type'),
      id: r.resource_id,
      version: Number(r.resource_version),
    },
    data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
    request_id: r.request_id,
    job_id: r.job_id,
  };
}

const toStored = (r: Raw): StoredEvent => ({
  cursor: { txid: String(r.txid), seq: String(r.seq) },
  company_id: r.company_id,
  type: r.type,
  resource_type: r.resource_type,
  resource_id: r.resource_id,
  view: eventView(r),
});

export interface EventFilter {
  /** undefined: every company's (the process's one feed reader). */
  companyId?: number;
  types?: readonly string[];
  resourceType?: string;
  resourceId?: string;
}

/** Visible events after `after`, in feed order. */
export async function readEvents(
  db: Db,
  f: EventFilter & { after?: Cursor | undefined; limit: number },
): Promise<StoredEvent[]> {
  const after = f.after ?? ZERO;
  let q = eventsDb(db)
    .selectFrom('events')
    .select([
      'seq',
      'id',
      sql<string>`txid::text`.as('txid'),
      'type',
      'company_id',
      'resource_type',
      'resource_id',
      'resource_version',
      'data',
      'request_id',
      'job_id',
      'created_at',
    ])
    .where(VISIBLE)
    .where(sql<boolean>`(txid, seq) > (${after.txid}::xid8, ${after.seq}::bigint)`);
  if (f.companyId !== undefined) q = q.where('company_id', '=', f.companyId);
  if (f.types?.length) q = q.where('type', 'in', f.types);
  if (f.resourceType) q = q.where('resource_type', '=', f.resourceType);
  if (f.resourceId) q = q.where('resource_id', '=', f.resourceId);
  const rows = await q.orderBy('txid').orderBy('seq').limit(f.limit).execute();
  return rows.map((r) => toStored(r as unknown as Raw));
}

/** The cursor of the company's event `id` (undefined: no such event of this company). */
export async function cursorOf(db: Db, companyId: number, id: string): Promise<Cursor | undefined> {
  const r = await eventsDb(db)
    .selectFrom('events')
    .select([sql<string>`txid::text`.as('txid'), sql<string>`seq::text`.as('seq')])
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return r ? { txid: r.txid, seq: r.seq } : undefined;
}

/** The newest visible event's cursor: where a feed starting now begins. */
export async function headCursor(db: Db): Promise<Cursor> {
  const r = await eventsDb(db)
    .selectFrom('events')
    .select([sql<string>`txid::text`.as('txid'), sql<string>`seq::text`.as('seq')])
    .where(VISIBLE)
    .orderBy('txid', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ? { txid: r.txid, seq: r.seq } : ZERO;
}
