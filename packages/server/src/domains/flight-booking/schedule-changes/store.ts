/**
 * The `schedule_changes` table (migration 0200): its one owner. Statement builders take the caller's
 * transaction, so a change and its event commit together.
 */
import { randomBytes } from 'node:crypto';
import { type ColumnType, type Kysely, sql } from 'kysely';
import type { Db, KernelTables } from '../../../storage/schema.ts';
import type { FlightSegment } from '../../../suppliers/ports/flight.ts';
import { json, parseJson } from '../tables.ts';

type Json<T> = ColumnType<T, string, string>;
type Time = ColumnType<Date, Date, Date>;

export type ScheduleChangeStatus = 'pending' | 'accepted' | 'superseded';

interface ScheduleChangesTable {
  id: string;
  booking_id: number;
  company_id: number | null;
  supplier: string;
  supplier_change_id: string | null;
  status: ScheduleChangeStatus;
  fingerprint: string;
  old_segments: Json<FlightSegment[]>;
  new_segments: Json<FlightSegment[]>;
  detected_at: Time;
  accepted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  accepted_by_user_id: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: Time;
}

type ChangesDb = Kysely<{ schedule_changes: ScheduleChangesTable } & KernelTables>;
const changesDb = (db: Db): ChangesDb =>
  db.withTables<{ schedule_changes: ScheduleChangesTable }>() as unknown as ChangesDb;

export interface ScheduleChangeRow {
  id: string;
  booking_id: number;
  company_id: number | null;
  supplier: string;
  supplier_change_id: string | null;
  status: ScheduleChangeStatus;
  fingerprint: string;
  old_segments: FlightSegment[];
  new_segments: FlightSegment[];
  detected_at: Date;
  accepted_at: Date | null;
  accepted_by_user_id: string | null;
}

/** A selected row (any shape of the table's columns) as the domain's row. */
function toRow(row: object): ScheduleChangeRow {
  const r = row as Record<string, unknown>;
  return {
    id: String(r.id),
    booking_id: Number(r.booking_id),
    company_id: r.company_id === null ? null : Number(r.company_id),
    supplier: String(r.supplier),
    supplier_change_id: (r.supplier_change_id as string | null) ?? null,
    status: r.status as ScheduleChangeStatus,
    fingerprint: String(r.fingerprint),
    old_segments: parseJson(r.old_segments),
    new_segments: parseJson(r.new_segments),
    detected_at: new Date(r.detected_at as string),
    accepted_at: r.accepted_at ? new Date(r.accepted_at as string) : null,
    accepted_by_user_id: (r.accepted_by_user_id as string | null) ?? null,
  };
}

/** The API's `ScheduleChange`. */
export function scheduleChangeView(c: ScheduleChangeRow) {
  return {
    id: c.id,
    booking_id: c.booking_id,
    status: c.status,
    supplier: c.supplier,
    supplier_change_id: c.supplier_change_id,
    old_segments: c.old_segments,
    new_segments: c.new_segments,
    detected_at: c.detected_at.toISOString(),
    accepted_at: c.accepted_at ? c.accepted_at.toISOString() : null,
    accepted_by_user_id: c.accepted_by_user_id,
  };
}

const newChangeId = () => `sc_${randomBytes(9).toString('base64url')}`;

/** The booking's changes, newest first. */
export async function listChanges(db: Db, bookingId: number): Promise<ScheduleChangeRow[]> {
  const rows = await changesDb(db)
    .selectFrom('schedule_changes')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy(sql`seq`, 'desc')
    .execute();
  return rows.map((r) => toRow(r));
}

export async function findChange(
  db: Db,
  bookingId: number,
  id: string,
  forUpdate = false,
): Promise<ScheduleChangeRow | undefined> {
  let q = changesDb(db)
    .selectFrom('schedule_changes')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  const r = await q.executeTakeFirst();
  return r ? toRow(r) : undefined;
}

export type NewChange = Pick<
  ScheduleChangeRow,
  | 'booking_id'
  | 'company_id'
  | 'supplier'
  | 'supplier_change_id'
  | 'fingerprint'
  | 'old_segments'
  | 'new_segments'
>;

/**
 * Records a pending change, superseding the booking's earlier pending one. Undefined when this very
 * change (same new itinerary) is already recorded: it was found before.
 */
export async function insertChange(trx: Db, c: NewChange, now: Date): Promise<ScheduleChangeRow | undefined> {
  const db = changesDb(trx);
  const seen = await db
    .selectFrom('schedule_changes')
    .select('id')
    .where('booking_id', '=', c.booking_id)
    .where('fingerprint', '=', c.fingerprint)
    .executeTakeFirst();
  if (seen) return undefined;
  await db
    .updateTable('schedule_changes')
    .set({ status: 'superseded', updated_at: now })
    .where('booking_id', '=', c.booking_id)
    .where('status', '=', 'pending')
    .execute();
  const r = await db
    .insertInto('schedule_changes')
    .values({
      id: newChangeId(),
      booking_id: c.booking_id,
      company_id: c.company_id,
      supplier: c.supplier,
      supplier_change_id: c.supplier_change_id,
      status: 'pending',
      fingerprint: c.fingerprint,
      old_segments: json(c.old_segments),
      new_segments: json(c.new_segments),
      detected_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRow(r);
}

/** The booking's pending change, if any (at most one: migration 0200). */
export async function pendingChange(db: Db, bookingId: number): Promise<ScheduleChangeRow | undefined> {
  const r = await changesDb(db)
    .selectFrom('schedule_changes')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return r ? toRow(r) : undefined;
}

/** Supersedes the booking's pending change (the airline went back to the booked schedule). */
export async function supersedePending(trx: Db, id: string, now: Date): Promise<void> {
  await changesDb(trx)
    .updateTable('schedule_changes')
    .set({ status: 'superseded', updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export async function markAccepted(
  trx: Db,
  id: string,
  userId: string | null,
  now: Date,
): Promise<ScheduleChangeRow> {
  const r = await changesDb(trx)
    .updateTable('schedule_changes')
    .set({ status: 'accepted', accepted_at: now, accepted_by_user_id: userId, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRow(r);
}
