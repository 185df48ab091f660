/**
 * Migration 0060 on a database written before it: several live payments for one booking (left by the old
 * authorize race) are retired with an audit entry so the one-live-payment index can be built.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { loadMigrations, migrate } from '../../src/storage/migrate.ts';

// Unmigrated: in-memory PGlite, or a private schema on TEST_DATABASE_URL's server (dropped after).
const url = process.env.TEST_DATABASE_URL;
const schema = `m_${randomBytes(6).toString('hex')}`;
let database: Database;
beforeAll(async () => {
  database = await openDatabase(url ? { databaseUrl: url, schema, migrate: false } : { migrate: false });
});
afterAll(async () => {
  await database?.close();
  if (!url) return;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`drop schema if exists ${schema} cascade`);
  await c.end();
});

describe('migration 0060 on existing duplicate payments', () => {
  it('keeps the payment that moved the most money live, retires the others with an audit note', async () => {
    const db = database.db as never;
    const all = await loadMigrations();
    const before = new Map([...all].filter(([name]) => name < '0060'));
    await migrate(db, before);
    const rows = await sql<{ id: number }>`
      insert into flight_bookings (status, payment_mode, supplier, client_reference, offer_id, offer,
        passengers, contact, flights, pricing, user_id, company_id)
      values ('payment_pending', 'PNR_ONLY', 'amadeus', 'cr-dup-1', 'of1', '{}', '[]', '{}', '[]', '{}', 'u1', 7),
             ('payment_pending', 'PNR_ONLY', 'amadeus', 'cr-dup-2', 'of2', '{}', '[]', '{}', '[]', '{}', 'u1', 7)
      returning id`.execute(db);
    const [b1, b2] = rows.rows.map((r) => Number(r.id));
    const pay = (booking: number, state: string, captured: number, ref: string, at: string) =>
      sql`insert into booking_payments (booking_id, state, amount_minor, captured_minor, currency, provider,
            provider_payment_ref, created_at)
          values (${booking}, ${state}, 1000, ${captured}, 'EUR', 'stripe', ${ref}, ${at}::timestamptz)`.execute(
        db,
      );
    await pay(b1 as number, 'AUTHORIZED', 0, 'pi_a', '2026-01-01T00:00:01Z');
    await pay(b1 as number, 'CAPTURED', 1000, 'pi_b', '2026-01-01T00:00:02Z');
    await pay(b1 as number, 'AUTHORIZED', 0, 'pi_c', '2026-01-01T00:00:03Z');
    await pay(b1 as number, 'PENDING', 0, 'pi_d', '2026-01-01T00:00:04Z');
    await pay(b2 as number, 'AUTHORIZED', 0, 'pi_e', '2026-01-01T00:00:01Z');
    await pay(b2 as number, 'AUTHORIZED', 0, 'pi_f', '2026-01-01T00:00:02Z');

    const ran = await migrate(db, all);
    expect(ran).toContain('0060-money-serialization');
    const states = await sql<{ booking_id: number; provider_payment_ref: string; state: string }>`
      select booking_id, provider_payment_ref, state from booking_payments order by provider_payment_ref`.execute(
      db,
    );
    expect(states.rows.map((r) => [r.provider_payment_ref, r.state])).toEqual([
      ['pi_a', 'VOIDED'],
      ['pi_b', 'CAPTURED'],
      ['pi_c', 'VOIDED'],
      ['pi_d', 'FAILED'],
      ['pi_e', 'VOIDED'],
      ['pi_f', 'AUTHORIZED'],
    ]);
    const notes = await sql<{ reason: string; changes: { from: string; to: string } }>`
      select reason, changes from audit_log where action = 'duplicate_payment_retired' order by id`.execute(
      db,
    );
    expect(notes.rows).toHaveLength(4);
    expect(notes.rows.map((n) => n.reason).join('\n')).toMatch(/release the hold at the provider \(pi_a\)/);
    // The index now holds: a second live payment for the booking is refused by the database.
    await expect(pay(b2 as number, 'PENDING', 0, 'pi_g', '2026-01-01T00:00:05Z')).rejects.toThrow(
      /booking_payments_one_live/,
    );
  });
});
