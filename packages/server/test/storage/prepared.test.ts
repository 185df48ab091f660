/**
 * Prepared statements (`src/storage/prepared.ts`): the booking lookups compiled once and run by name
 * answer exactly what the query builder answers; they run as named statements of their connection; a
 * migration that changes a statement's result type does not break it; and on PostgreSQL a terminated
 * backend (what a restart looks like to the pool) only means the next connection parses it again.
 * Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findBooking, loadBookingView, toRow } from '../../src/domains/flight-booking/store.ts';
import { bookingDb, json } from '../../src/domains/flight-booking/tables.ts';
import { bookingView } from '../../src/domains/flight-booking/view.ts';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { param, prepared } from '../../src/storage/prepared.ts';
import type { Db } from '../../src/storage/schema.ts';

const url = process.env.TEST_DATABASE_URL;
const opened: { d: Database; schema?: string }[] = [];

/** A migrated database with a one-connection pool, so every query below shares one session. */
async function database(): Promise<Database> {
  const schema = url ? `pr_${randomBytes(6).toString('hex')}` : undefined;
  const d = await openDatabase(
    url ? { databaseUrl: url, schema, poolSize: 1, reconnectBaseMs: 5, reconnectMaxMs: 20 } : {},
  );
  opened.push({ d, ...(schema ? { schema } : {}) });
  return d;
}

afterEach(async () => {
  for (const { d, schema } of opened.splice(0)) {
    await d.close();
    if (!url || !schema) continue;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
  }
});

let seq = 0;
async function insertBooking(db: Db, o: { pnr: string; userId: string; companyId: number | null }) {
  seq += 1;
  const r = await bookingDb(db)
    .insertInto('flight_bookings')
    .values({
      pnr: o.pnr,
      status: 'confirmed',
      payment_mode: 'PNR_FIRST',
      supplier: 'duffel',
      supplier_order_ref: `ord_${seq}`,
      client_reference: `cr-${seq}-${randomBytes(4).toString('hex')}`,
      offer_id: `off_${seq}`,
      offer: json({ id: `off_${seq}`, legs: [{ from: 'LHR', to: 'DXB' }] }),
      supplier_ref: json({ order: `ord_${seq}` }),
      passengers: json([{ passenger_id: '1', type: 'ADT', first_name: 'Ada', last_name: 'Lovelace' }]),
      contact: json({ email: 'ada@example.org', phone: '+447700900123' }),
      flights: json([{ segment_id: 's1', origin: 'LHR', destination: 'DXB' }]),
      pricing: json({
        currency: 'GBP',
        base_minor: 8000,
        taxes_minor: 1500,
        markup_minor: 500,
        bags_minor: 0,
        total_minor: 10000,
      }),
      supplier_total_minor: 9500,
      supplier_currency: 'EUR',
      fx_rate: 0.85,
      order_remarks: json(['window seat']),
      ticketing_deadline: new Date('2026-12-01T10:00:00Z'),
      user_id: o.userId,
      company_id: o.companyId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

/** The row as the query builder reads it (`select *`), through the same conversion. */
async function reference(db: Db, id: number) {
  const r = await bookingDb(db)
    .selectFrom('flight_bookings')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return toRow(r as never);
}

const preparedNames = async (db: Db) =>
  (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(db)).rows.map((r) => r.name);

describe('prepared booking lookups', () => {
  it('answer what the query builder answers: by id, by PNR (the newest), for update, and the view', async () => {
    const { db } = await database();
    const older = await insertBooking(db, { pnr: 'QX7P2K', userId: 'u1', companyId: 4 });
    const newer = await insertBooking(db, { pnr: 'QX7P2K', userId: 'u1', companyId: 4 });
    const other = await insertBooking(db, { pnr: 'ZZ9Z9Z', userId: 'u2', companyId: null });

    for (const id of [older, newer, other]) {
      const want = await reference(db, id);
      expect(await findBooking(db, id)).toEqual(want);
      expect(await findBooking(db, String(id))).toEqual(want);
      expect(await findBooking(db, id)).toEqual(want); // the second run goes by name
    }
    expect(await findBooking(db, 'qx7p2k')).toEqual(await reference(db, newer));
    expect(await findBooking(db, 'ZZ9Z9Z')).toEqual(await reference(db, other));
    expect(await findBooking(db, 999_999)).toBeUndefined();
    expect(await findBooking(db, 'NOPE00')).toBeUndefined();
    await db.transaction().execute(async (trx) => {
      expect(await findBooking(trx, older, { forUpdate: true })).toEqual(await reference(trx, older));
      expect(await findBooking(trx, 'QX7P2K', { forUpdate: true })).toEqual(await reference(trx, newer));
    });

    // The read selects only what the view shows; its JSON is byte for byte the view of the whole row.
    const company = { auth: { role: 'company_admin', companyId: 4, userId: 'u9' } } as never;
    const owner = { auth: { role: 'customer', companyId: null, userId: 'u2' } } as never;
    expect(JSON.stringify(bookingView(await loadBookingView(db, company, older)))).toBe(
      JSON.stringify(bookingView(await reference(db, older))),
    );
    expect(JSON.stringify(bookingView(await loadBookingView(db, company, 'qx7p2k')))).toBe(
      JSON.stringify(bookingView(await reference(db, newer))),
    );
    expect(JSON.stringify(bookingView(await loadBookingView(db, owner, String(other))))).toBe(
      JSON.stringify(bookingView(await reference(db, other))),
    );
    // The tenant check stays: another company's or another customer's booking is not found.
    await expect(loadBookingView(db, company, other)).rejects.toMatchObject({ status: 404 });
    await expect(loadBookingView(db, owner, older)).rejects.toMatchObject({ status: 404 });
    await expect(loadBookingView(db, { auth: undefined } as never, older)).rejects.toMatchObject({
      status: 404,
    });
    await expect(loadBookingView(db, company, 999_999)).rejects.toMatchObject({ status: 404 });
  });

  it('run as named statements of their connection', async () => {
    const { db } = await database();
    const id = await insertBooking(db, { pnr: 'NM3D4S', userId: 'u1', companyId: 1 });
    await db.connection().execute(async (c) => {
      await findBooking(c, id);
      await loadBookingView(c, { auth: { role: 'super_admin', companyId: null, userId: 'a' } } as never, id);
      expect(await preparedNames(c)).toEqual(
        expect.arrayContaining(['booking_row_by_id', 'booking_view_by_id']),
      );
    });
  });

  it('are prepared again when a migration changes their result type or the session drops them', async () => {
    const { db } = await database();
    const table = `stale_${randomBytes(4).toString('hex')}`;
    await sql`create table ${sql.table(table)} (id integer primary key, v integer not null)`.execute(db);
    await sql`insert into ${sql.table(table)} values (1, 7)`.execute(db);
    const read = prepared(`test_${table}`, (d) =>
      d
        .withTables<{ [k: string]: { id: number; v: number | string } }>()
        .selectFrom(table)
        .select(['id', 'v'])
        .where('id', '=', param<number>(0)),
    );
    expect(await read(db, 1)).toEqual([{ id: 1, v: 7 }]);
    expect(await preparedNames(db)).toContain(`test_${table}`);
    await sql`alter table ${sql.table(table)} alter column v type text`.execute(db);
    expect(await read(db, 1)).toEqual([{ id: 1, v: '7' }]);
    expect(await read(db, 1)).toEqual([{ id: 1, v: '7' }]);
    // Inside a transaction the refusal aborts it: the caller sees the database's own error, and the
    // statement answers again once the transaction is over.
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`alter table ${sql.table(table)} alter column v type integer using v::integer`.execute(trx);
        return read(trx, 1);
      }),
    ).rejects.toMatchObject({ code: '0A000' });
    expect(await read(db, 1)).toEqual([{ id: 1, v: '7' }]);
    // A session that dropped its prepared statements gets them prepared again.
    await sql`deallocate all`.execute(db);
    expect(await read(db, 1)).toEqual([{ id: 1, v: '7' }]);
    expect(await findBooking(db, 1)).toBeUndefined();
    await sql`deallocate all`.execute(db);
    expect(await findBooking(db, 1)).toBeUndefined();
    // A failing run throws the database's error (its SQLSTATE) and leaves the statement usable.
    await expect(read(db, 'not a number')).rejects.toMatchObject({ code: '22P02' });
    expect(await read(db, 1)).toEqual([{ id: 1, v: '7' }]);
    expect(await read(db, 2)).toEqual([]);
  });

  it.skipIf(!url)('survive a terminated backend: the next connection parses them again', async () => {
    const d = await database();
    const id = await insertBooking(d.db, { pnr: 'RS7T8U', userId: 'u1', companyId: 1 });
    const want = await reference(d.db, id);
    const pid = async () =>
      (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(d.db)).rows[0]?.pid;
    expect(await findBooking(d.db, id)).toEqual(want);
    const before = await pid();
    expect(await preparedNames(d.db)).toContain('booking_row_by_id');

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [before]);
    } finally {
      await admin.end();
    }
    // Until the pool has noticed and reconnected, reads fail (503 upstream); then the same read answers.
    await vi.waitFor(() => findBooking(d.db, id), { timeout: 10_000, interval: 10 });
    expect(await findBooking(d.db, id)).toEqual(want);
    expect(await pid()).not.toBe(before);
    expect(await preparedNames(d.db)).toContain('booking_row_by_id');
    expect(d.link().up).toBe(true);
  });
});
