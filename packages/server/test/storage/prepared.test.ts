/**
 * Prepared statements (`src/storage/prepared.ts`): the booking lookups compiled once and run by name
 * answer exactly what the query builder answers; they run as named statements of their connection; a
 * migration that changes a statement's result type does not break it; and on PostgreSQL a terminated
 * backend (what a restart looks like to the pool) only means the next connection parses it again. The
 * booking read's lookups coalesce (`coalesced`): the callers of one turn share one statement, each gets
 * its own row and its own tenant check, and none joins a statement sent before it asked.
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
import { arrayLiteral, coalesced, param, prepared } from '../../src/storage/prepared.ts';
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
async function insertBooking(
  db: Db,
  o: { pnr: string; userId: string; companyId: number | null; status?: 'confirmed' | 'cancelled' },
) {
  seq += 1;
  const r = await bookingDb(db)
    .insertInto('flight_bookings')
    .values({
      pnr: o.pnr,
      status: o.status ?? 'confirmed',
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
  // Migration 0110's marker of an old duplicate is a column no booking read selects (nothing reads it).
  const { supplier_ref_duplicate_of: _marker, ...row } = r as Record<string, unknown>;
  return toRow(row as never);
}

const preparedNames = async (db: Db) =>
  (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(db)).rows.map((r) => r.name);

describe('prepared booking lookups', () => {
  it('answer what the query builder answers: by id, by PNR (the newest), for update, and the view', async () => {
    const { db } = await database();
    // A PNR is held by one live booking at a time (migration 0110): the older one was cancelled.
    const older = await insertBooking(db, { pnr: 'QX7P2K', userId: 'u1', companyId: 4, status: 'cancelled' });
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
        expect.arrayContaining(['booking_row_by_id', 'booking_view_by_ids']),
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

/** Every statement `db` runs by `executeQuery` (what `prepared` and `coalesced` call), with its arguments. */
function statements(db: Db) {
  const seen: { sql: string; parameters: readonly unknown[] }[] = [];
  const real = db.executeQuery.bind(db);
  const spy = vi.spyOn(db, 'executeQuery').mockImplementation((async (q: {
    sql: string;
    parameters: readonly unknown[];
  }) => {
    seen.push({ sql: q.sql, parameters: q.parameters });
    return real(q as never);
  }) as never);
  return { seen, spy, real };
}

const company = (companyId: number) =>
  ({ auth: { role: 'company_admin', companyId, userId: 'u9' } }) as never;

describe('coalesced booking reads', () => {
  it('reads asked for in one turn go as one statement; each caller gets its own row after its own tenant check', async () => {
    const { db } = await database();
    const a = await insertBooking(db, { pnr: 'CA1AAA', userId: 'u1', companyId: 1 });
    const b = await insertBooking(db, { pnr: 'CB2BBB', userId: 'u2', companyId: 2 });
    const older = await insertBooking(db, { pnr: 'CC3CCC', userId: 'u3', companyId: 3, status: 'cancelled' });
    const newer = await insertBooking(db, { pnr: 'CC3CCC', userId: 'u3', companyId: 3 });
    const view = async (id: number) => JSON.stringify(bookingView(await reference(db, id)));
    const { seen } = statements(db);

    const asked = [
      loadBookingView(db, company(1), a),
      loadBookingView(db, company(2), String(b)),
      loadBookingView(db, company(1), b), // another company's booking
      loadBookingView(db, company(2), a),
      loadBookingView(db, company(1), String(a)), // the same key twice
      loadBookingView(db, company(1), 999_999),
      loadBookingView(db, company(3), 'cc3ccc'), // by PNR: the newest
      loadBookingView(db, company(2), 'CC3CCC'),
      loadBookingView(db, { auth: undefined } as never, a),
    ];
    const got = await Promise.allSettled(asked);
    const ok = (i: number) => {
      const r = got[i] as PromiseSettledResult<Parameters<typeof bookingView>[0]>;
      if (r.status !== 'fulfilled') throw new Error(`caller ${i} failed: ${r.reason}`);
      return JSON.stringify(bookingView(r.value));
    };
    expect(ok(0)).toBe(await view(a));
    expect(ok(1)).toBe(await view(b));
    expect(ok(4)).toBe(await view(a));
    expect(ok(6)).toBe(await view(newer));
    for (const i of [2, 3, 5, 7, 8]) {
      expect(got[i]).toMatchObject({
        status: 'rejected',
        reason: { status: 404, code: 'booking_not_found' },
      });
    }
    // One statement by id (the distinct ids once each) and one by PNR, for the nine callers.
    const reads = seen.filter((q) => /any\(/.test(q.sql));
    expect(reads).toHaveLength(2);
    expect(reads.map((q) => q.parameters)).toEqual(
      expect.arrayContaining([[arrayLiteral([a, b, 999_999])], [arrayLiteral(['CC3CCC'])]]),
    );
    expect(older).toBeLessThan(newer);
  });

  it('never joins a statement sent before the caller asked: a read sees every write committed before it', async () => {
    const { db } = await database();
    const id = await insertBooking(db, { pnr: 'RW4RRR', userId: 'u1', companyId: 1 });
    const { real } = statements(db);
    // The first statement runs, then its answer is held until the test lets it go.
    let ran!: () => void;
    const firstRan = new Promise<void>((r) => {
      ran = r;
    });
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let calls = 0;
    vi.mocked(db.executeQuery).mockImplementation((async (q: never) => {
      calls += 1;
      const res = await real(q);
      if (calls === 1) {
        ran();
        await held;
      }
      return res;
    }) as never);

    const before = loadBookingView(db, company(1), id);
    await firstRan;
    await bookingDb(db)
      .updateTable('flight_bookings')
      .set({ status: 'ticketed' })
      .where('id', '=', id)
      .execute();
    const after = loadBookingView(db, company(1), id);
    release();
    expect((await before).status).toBe('confirmed');
    expect((await after).status).toBe('ticketed');
    expect(calls).toBe(2);
  });

  it('a failed statement fails each of its callers; the next turn reads again', async () => {
    const { db } = await database();
    const id = await insertBooking(db, { pnr: 'FL5FFF', userId: 'u1', companyId: 1 });
    const { spy } = statements(db);
    const boom = Object.assign(new Error('connection lost'), { code: '57P01' });
    spy.mockRejectedValueOnce(boom);
    const got = await Promise.allSettled([
      loadBookingView(db, company(1), id),
      loadBookingView(db, company(1), 'FL5FFF'),
      loadBookingView(db, company(1), id),
    ]);
    expect(got[0]).toEqual({ status: 'rejected', reason: boom });
    expect(got[2]).toEqual({ status: 'rejected', reason: boom });
    expect(got[1]).toMatchObject({ status: 'fulfilled', value: { id } }); // its own statement
    expect((await loadBookingView(db, company(1), id)).id).toBe(id);
  });

  it('inside a transaction the read runs alone on the transaction, and sees its uncommitted rows', async () => {
    const { db } = await database();
    await db.transaction().execute(async (trx) => {
      const id = await insertBooking(trx, { pnr: 'TX6TTT', userId: 'u1', companyId: 1 });
      expect((await loadBookingView(trx, company(1), id)).id).toBe(id);
      expect((await loadBookingView(trx, company(1), 'TX6TTT')).id).toBe(id);
    });
  });

  it("callers of one key share a read-only row: the view of one cannot change another's", async () => {
    const { db } = await database();
    const id = await insertBooking(db, { pnr: 'SH7SSS', userId: 'u1', companyId: 1 });
    const [x, y] = await Promise.all([
      loadBookingView(db, company(1), id),
      loadBookingView(db, company(1), id),
    ]);
    expect(x).toEqual(y);
    expect(x).not.toBe(y);
    expect(() => {
      (x.passengers[0] as { first_name: string }).first_name = 'Eve';
    }).toThrow(TypeError);
    expect(() => {
      x.pricing.total_minor = 1;
    }).toThrow(TypeError);
    expect(y.passengers[0]).toMatchObject({ first_name: 'Ada' });
  });

  it('carries any text key (quotes, backslashes, commas, braces, NULL), and at most 256 keys a statement', async () => {
    const { db } = await database();
    const table = `co_${randomBytes(4).toString('hex')}`;
    await sql`create table ${sql.table(table)} (k text primary key, v integer not null)`.execute(db);
    const keys = ['a"b', 'c\\d', 'e,f', '{g}', 'NULL', ' h ', '', "i'j"];
    for (const [i, k] of keys.entries())
      await sql`insert into ${sql.table(table)} values (${k}, ${i})`.execute(db);
    const read = coalesced(
      `test_${table}`,
      (d) =>
        d
          .withTables<{ [t: string]: { k: string; v: number } }>()
          .selectFrom(table)
          .select(['k', 'v'])
          .where('k', '=', sql<never>`any(${param(0)})`),
      (r) => r.k,
    );
    expect(await Promise.all([...keys, 'absent'].map((k) => read(db, k)))).toEqual([
      ...keys.map((k, v) => ({ k, v })),
      undefined,
    ]);

    const { seen } = statements(db);
    const many = Array.from({ length: 300 }, (_, i) => `k${i}`);
    expect(await Promise.all(many.map((k) => read(db, k)))).toEqual(many.map(() => undefined));
    expect(seen.map((q) => (q.parameters[0] as string).split(',').length)).toEqual([256, 44]);
  });
});
