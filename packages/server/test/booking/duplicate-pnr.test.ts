/**
 * The supplier hands out a PNR another live booking already holds (what the sandbox did after a restart
 * before its state was kept on disk, issue 27): createPnr answers 409 `duplicate_supplier_reference`, as
 * the contract lists it, not a 500; the first booking keeps its PNR and is found by it.
 */
import { describe, expect, it } from 'vitest';
import { bookingDb } from '../../src/domains/flight-booking/tables.ts';
import { check, useWorld } from './checks.ts';
import { contact, passenger, pickBookable, SANDBOX_ROUTES } from './harness.ts';

const ctx = useWorld();
const { currency } = SANDBOX_ROUTES.amadeus;

describe('createPnr: a PNR that is already live', () => {
  it('is refused with 409 duplicate_supplier_reference; the first booking keeps it', async () => {
    const companyId = await ctx.w.company();
    const agent = await ctx.w.user({ companyId });
    const book = async (key: string) => {
      const hit = pickBookable('amadeus', await ctx.w.seedOffers('amadeus', { userId: agent.id, companyId }));
      if (!hit) throw new Error('no bookable offer');
      const body = { offer_id: hit.offer_id, currency, passengers: [passenger()], contact };
      return ctx.w.req('POST', '/api/v1/bookings/createPnr', { token: agent.token, key, body });
    };
    const first = await book('dup-1');
    check('createPnr', first);
    // The emulator forgets its orders and counters, as it did on every restart: the same PNR comes again.
    const amadeus = ctx.w.mocks.states.amadeus;
    if (!amadeus) throw new Error('no amadeus emulator');
    amadeus.orders.clear();
    amadeus.counters.clear();
    const second = await book('dup-2');
    check('createPnr', second, 409);
    expect(second.body.code).toBe('duplicate_supplier_reference');
    // Nothing of the second order was recorded: its row stays as written ahead, without a PNR, and its
    // reconciliation job stays queued, so it shows in the reconciliation queue for an operator.
    const db = bookingDb(ctx.w.database.db);
    const rows = await db
      .selectFrom('flight_bookings')
      .select(['id', 'status', 'pnr'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.status, r.pnr])).toEqual([
      ['confirmed', first.body.pnr],
      ['initiated', null],
    ]);
    const job = await db
      .selectFrom('jobs')
      .select('status')
      .where('dedupe_key', '=', `booking.reconcile:${rows[1]?.id}`)
      .executeTakeFirst();
    expect(job?.status).toBe('queued');
    const byPnr = await ctx.w.req('GET', `/api/v1/bookings/${first.body.pnr}`, { token: agent.token });
    check('getBooking', byPnr);
    expect(byPnr.body.booking_id).toBe(first.body.booking_id);
  });
});
