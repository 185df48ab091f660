/**
 * Migration 0110: one live booking per supplier reference. A database that already holds duplicates (the
 * sandbox handed the same PNRs out again after a restart) migrates: the younger live rows are marked,
 * nothing else changes; from then on a second live booking with the same supplier and PNR is refused, and
 * the refusal is answered 409 `duplicate_supplier_reference`, not a 500.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { knownError } from '../../src/kernel/middleware/error-handler.ts';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { loadMigrations, migrate } from '../../src/storage/migrate.ts';

const url = process.env.TEST_DATABASE_URL;
const opened: Database[] = [];
const schemas: string[] = [];

afterEach(async () => {
  for (const d of opened.splice(0)) await d.close();
  if (!url) return;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  for (const s of schemas.splice(0)) await c.query(`drop schema if exists ${s} cascade`);
  await c.end();
});

async function beforeMigration(): Promise<Database> {
  const schema = `lsr_${randomBytes(6).toString('hex')}`;
  if (url) schemas.push(schema);
  const d = await openDatabase(url ? { databaseUrl: url, schema, migrate: false } : { migrate: false });
  opened.push(d);
  const all = await loadMigrations();
  await migrate(d.db as never, new Map([...all].filter(([name]) => name < '0110')));
  return d;
}

let seq = 0;
function flight(db: Database['db'], pnr: string | null, status: string, supplier = 'amadeus') {
  seq += 1;
  return sql`insert into flight_bookings (pnr, status, payment_mode, supplier, client_reference, offer_id, offer,
      passengers, contact, flights, pricing, user_id)
    values (${pnr}, ${status}, 'PAYMENT_FIRST', ${supplier}, ${`cr-${seq}-${randomBytes(3).toString('hex')}`},
      'off', '{}'::jsonb, '[]'::jsonb, '{}'::jsonb, '[]'::jsonb, '{}'::jsonb, 'u1')
    returning id`.execute(db);
}

function hotel(db: Database['db'], ref: string, status: string) {
  seq += 1;
  return sql`insert into hotel_bookings (status, provider, client_reference, rate_key, supplier_booking_ref, hotel,
      room, check_in, check_out, nights, guests, contact_email, contact_phone, currency, total_minor, user_id)
    values (${status}, 'hotelbeds', ${`hr-${seq}-${randomBytes(3).toString('hex')}`}, 'rk', ${ref}, '{}'::jsonb,
      '{}'::jsonb, '2027-01-01', '2027-01-02', 1, '[]'::jsonb, 'a@b.c', '1', 'EUR', 100, 'u1')`.execute(db);
}

const idOf = (r: { rows: unknown[] }): number => Number((r.rows[0] as { id: string | number }).id);

describe('migration 0110: one live booking per supplier reference', () => {
  it('opens a database that already holds duplicates, marks the younger live ones, then refuses new ones', async () => {
    const d = await beforeMigration();
    const db = d.db;
    const first = idOf(await flight(db, 'HGLEQZ', 'ticketed'));
    const second = idOf(await flight(db, 'HGLEQZ', 'confirmed'));
    const third = idOf(await flight(db, 'HGLEQZ', 'paid'));
    const cancelled = idOf(await flight(db, 'HGLEQZ', 'cancelled'));
    const otherSupplier = idOf(await flight(db, 'HGLEQZ', 'confirmed', 'duffel'));
    const unique = idOf(await flight(db, 'ABCDEF', 'confirmed'));
    await hotel(db, '1-3000001', 'confirmed');
    await hotel(db, '1-3000001', 'confirmed');

    await migrate(db as never);

    const rows = await sql<{ id: string; supplier_ref_duplicate_of: string | null }>`
      select id, supplier_ref_duplicate_of from flight_bookings order by id`.execute(db);
    const marks = new Map(rows.rows.map((r) => [Number(r.id), r.supplier_ref_duplicate_of]));
    expect(marks.get(first)).toBeNull();
    expect(Number(marks.get(second))).toBe(first);
    expect(Number(marks.get(third))).toBe(first);
    expect(marks.get(cancelled)).toBeNull();
    expect(marks.get(otherSupplier)).toBeNull();
    expect(marks.get(unique)).toBeNull();
    const hotels = await sql<{ n: number }>`
      select count(*)::int as n from hotel_bookings where supplier_ref_duplicate_of is not null`.execute(db);
    expect(hotels.rows[0]?.n).toBe(1);

    // From now on: a new live booking with a live PNR is refused, and answered 409, not 500.
    const refused = await flight(db, 'HGLEQZ', 'confirmed').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeDefined();
    const answer = knownError(refused);
    expect(answer?.status).toBe(409);
    expect((answer as { code?: string }).code).toBe('duplicate_supplier_reference');
    await expect(hotel(db, '1-3000001', 'confirmed')).rejects.toThrow();
    // Not live, or another supplier, or no PNR yet: allowed.
    await flight(db, 'HGLEQZ', 'cancelled');
    await flight(db, 'HGLEQZ', 'on_hold', 'mystifly');
    await flight(db, null, 'initiated');
    await flight(db, null, 'initiated');
    // The live PNR is freed when its booking is cancelled: the supplier may reissue it.
    await sql`update flight_bookings set status = 'cancelled' where id = ${first}`.execute(db);
    await flight(db, 'HGLEQZ', 'confirmed');
  });
});
