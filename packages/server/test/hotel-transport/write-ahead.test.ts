/**
 * Write-ahead of hotel and transport bookings and cancellations (domains/reservation/book.ts,
 * reservation-cancel.ts), in process on the test clock: the client reference is derived from the
 * Idempotency-Key, a retry whose earlier attempt died finds its booking instead of booking again,
 * reconciliation waits for a live request's lease, and a cancellation whose answer was lost is pending,
 * then settled by asking the provider (never cancelled twice). The kill -9 versions are in
 * test/faults/hotel.test.ts.
 */
import type { MockStates } from '@travel/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDb } from '../../src/domains/reservation/tables.ts';
import { call, hotelBook, hotelRate, transferQuote, transportBook } from './flows.ts';
import { idem, type World, world } from './setup.ts';

let w: World;
let token: string;
const hb = () => w.mocks.states.hotelbeds as NonNullable<MockStates['hotelbeds']>;
const db = () => serviceDb(w.t.database.db);

beforeAll(async () => {
  w = await world();
  const company = await w.t.company();
  token = (await w.t.user({ role: 'company_admin', companyId: company })).token;
});
afterAll(() => w?.close());

/** Makes the booking look as a crash after the supplier's answer leaves it: row pending, key unanswered. */
async function forgetSettlement(table: 'hotel_bookings' | 'transport_bookings', id: number) {
  const row = await db().selectFrom(table).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  await db()
    .updateTable(table)
    .set({ status: 'pending', supplier_booking_ref: null })
    .where('id', '=', id)
    .execute();
  await w.t.database.db
    .deleteFrom('idempotency_keys')
    .where('scope', '=', row.idempotency_scope as string)
    .execute();
  return row;
}

describe('hotel and transport bookings are written ahead under a reference derived from the key', () => {
  it('hotelbeds: the supplier holds the booking under the row’s reference, the same for the same key and body, another for another key', async () => {
    const offer = await hotelRate(w, 'hotelbeds');
    const body = hotelBook(offer.rate_key, 'hotelbeds');
    const headers = idem();
    const a = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', { token, headers, body });
    expect(a.status).toBe(200);
    const row = await db()
      .selectFrom('hotel_bookings')
      .selectAll()
      .where('id', '=', a.body.booking_id)
      .executeTakeFirstOrThrow();
    expect(row.client_reference).toMatch(/^TH[0-9a-f]{18}$/);
    expect(row.idempotency_scope).toMatch(/^[0-9a-f]{64}$/);
    const atSupplier = [...hb().bookings.values()].filter((b) => b.clientReference === row.client_reference);
    expect(atSupplier).toHaveLength(1);
    expect(atSupplier[0]?.reference).toBe(a.body.supplier_booking_ref);

    const offer2 = await hotelRate(w, 'hotelbeds');
    const b = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
      token,
      headers: idem(),
      body: hotelBook(offer2.rate_key, 'hotelbeds'),
    });
    expect(b.status).toBe(200);
    const other = await db()
      .selectFrom('hotel_bookings')
      .select('client_reference')
      .where('id', '=', b.body.booking_id)
      .executeTakeFirstOrThrow();
    expect(other.client_reference).not.toBe(row.client_reference);
  });

  it.each(['hotelbeds', 'duffel_stays'])(
    '%s: a retry after a crash between the answer and the commit finds the booking by reference: 200, the same booking, no second supplier booking',
    async (provider) => {
      const offer = await hotelRate(w, provider);
      const headers = idem();
      const body = hotelBook(offer.rate_key, provider);
      const first = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', { token, headers, body });
      expect(first.status).toBe(200);
      const row = await forgetSettlement('hotel_bookings', first.body.booking_id);
      const staysBefore = w.mocks.states.duffel?.staysBookings.size;
      const hbBefore = hb().bookings.size;

      const retry = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', { token, headers, body });
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body).toMatchObject({
        booking_id: first.body.booking_id,
        status: 'confirmed',
        supplier_booking_ref: first.body.supplier_booking_ref,
      });
      expect(hb().bookings.size).toBe(hbBefore);
      expect(w.mocks.states.duffel?.staysBookings.size).toBe(staysBefore);
      const rows = await db()
        .selectFrom('hotel_bookings')
        .select('id')
        .where('client_reference', '=', row.client_reference)
        .execute();
      expect(rows).toHaveLength(1);
      const replay = await w.t.request('POST', '/api/v1/hotel/book', { token, headers, body });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(retry.body);
    },
  );

  it('hotelbeds_transfers: the same retry after a crash finds the transfer by reference', async () => {
    const offer = await transferQuote(w, 'hotelbeds_transfers');
    const headers = idem();
    const body = transportBook(offer.quote_id, 'hotelbeds_transfers');
    const first = await call(w, 'bookTransport', 'POST', '/api/v1/transport/book', { token, headers, body });
    expect(first.status).toBe(200);
    await forgetSettlement('transport_bookings', first.body.booking_id);
    const before = w.mocks.states['hotelbeds-transfers']?.bookings.size;
    const retry = await call(w, 'bookTransport', 'POST', '/api/v1/transport/book', { token, headers, body });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toMatchObject({ booking_id: first.body.booking_id, status: 'confirmed' });
    expect(w.mocks.states['hotelbeds-transfers']?.bookings.size).toBe(before);
  });

  it('reconciliation leaves a pending booking to the live request that holds its lease, then settles it by reference once the lease lapsed', async () => {
    const offer = await hotelRate(w, 'hotelbeds');
    const headers = idem();
    const first = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
      token,
      headers,
      body: hotelBook(offer.rate_key, 'hotelbeds'),
    });
    const row = await forgetSettlement('hotel_bookings', first.body.booking_id);
    // A live request holds the key (its heartbeat keeps the lease ahead of now).
    const now = w.t.clock.now();
    await w.t.database.db
      .insertInto('idempotency_keys')
      .values({
        scope: row.idempotency_scope as string,
        caller: 'test',
        operation_id: 'bookHotel',
        idem_key: headers['idempotency-key'] as string,
        request_hash: 'x',
        status: 'in_progress',
        created_at: now,
        locked_until: new Date(now.getTime() + 15_000),
        lease_owner: 'someone-alive',
      })
      .execute();
    const job = () =>
      w.t.database.db
        .selectFrom('jobs')
        .selectAll()
        .where('dedupe_key', '=', `hotel_booking:reconcile:${row.id}`)
        .executeTakeFirst();
    await w.t.database.db
      .insertInto('jobs')
      .values({
        id: `j-${row.id}`,
        queue: 'hotel_booking.reconcile',
        payload: JSON.stringify({ booking_id: row.id }),
        dedupe_key: `hotel_booking:reconcile:${row.id}`,
        run_at: now,
        max_attempts: 12,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .execute();
    await w.t.database.db
      .updateTable('jobs')
      .set({ status: 'queued', run_at: now, attempts: 0 })
      .where('dedupe_key', '=', `hotel_booking:reconcile:${row.id}`)
      .execute();
    await w.jobs.runOnce();
    expect((await job())?.last_error).toContain('still running');
    const still = await db().selectFrom('hotel_bookings').select('status').where('id', '=', row.id).execute();
    expect(still[0]?.status).toBe('pending');

    w.t.clock.advance(16_000); // the holder died: its lease lapses
    await w.jobs.runOnce();
    const settled = await db()
      .selectFrom('hotel_bookings')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(settled.status).toBe('confirmed');
    expect(settled.supplier_booking_ref).toBe(first.body.supplier_booking_ref);
  });
});

describe('cancellations are written ahead; a lost answer is pending and settled by asking the provider', () => {
  async function confirmedWithLostCancel() {
    const offer = await hotelRate(w, 'hotelbeds');
    const booked = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
      token,
      headers: idem(),
      body: hotelBook(offer.rate_key, 'hotelbeds', 'CANCELPENDING'),
    });
    expect(booked.status).toBe(200);
    const id = booked.body.booking_id as number;
    const lost = await call(w, 'cancelHotelBooking', 'POST', `/api/v1/hotel/bookings/${id}/cancel`, {
      token,
    });
    expect(lost.status, JSON.stringify(lost.body)).toBe(502);
    expect(lost.body).toMatchObject({ code: 'cancellation_pending', booking_id: id, status: 'confirmed' });
    expect(JSON.stringify(lost.body)).not.toContain('Gateway timeout');
    // The provider did cancel it; we do not know yet.
    expect(hb().bookings.get(booked.body.supplier_booking_ref)?.status).toBe('CANCELLED');
    const got = await w.t.request('GET', `/api/v1/hotel/bookings/${id}`, { token });
    expect(got.body.status).toBe('confirmed');
    return booked.body as { booking_id: number; total: { amount_minor: number } };
  }

  it('a repeated cancel asks the provider, finds it cancelled: 200 with the policy’s fee, and never calls the cancellation again', async () => {
    const booked = await confirmedWithLostCancel();
    const id = booked.booking_id;
    const deletes = () => hb().calls.filter((c) => c.startsWith('DELETE')).length;
    const before = deletes();
    const again = await call(w, 'cancelHotelBooking', 'POST', `/api/v1/hotel/bookings/${id}/cancel`, {
      token,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ booking_id: id, status: 'cancelled', cancelled: true });
    expect(again.body.cancellation_fee.amount_minor + again.body.refund.amount_minor).toBe(
      booked.total.amount_minor,
    );
    expect(deletes()).toBe(before);
    const third = await call(w, 'cancelHotelBooking', 'POST', `/api/v1/hotel/bookings/${id}/cancel`, {
      token,
    });
    expect(third.status).toBe(400);
    expect(third.body.code).toBe('invalid_booking_state');
  });

  it('nobody asks again: the cancellation check job settles it as cancelled', async () => {
    const { booking_id: id } = await confirmedWithLostCancel();
    await w.jobs.runOnce();
    const got = await call(w, 'getHotelBooking', 'GET', `/api/v1/hotel/bookings/${id}`, { token });
    expect(got.body.status).toBe('cancelled');
    const row = await db()
      .selectFrom('hotel_bookings')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.cancel_requested_at).toBeNull();
  });

  it('a refusal withdraws the intent: the booking stands and can be cancelled later', async () => {
    const offer = await hotelRate(w, 'hotelbeds');
    const booked = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
      token,
      headers: idem(),
      body: hotelBook(offer.rate_key, 'hotelbeds'),
    });
    const id = booked.body.booking_id as number;
    hb().faults.fail(404, { path: /\/bookings\// });
    const refused = await call(w, 'cancelHotelBooking', 'POST', `/api/v1/hotel/bookings/${id}/cancel`, {
      token,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('cancellation_failed');
    const row = await db()
      .selectFrom('hotel_bookings')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect([row.status, row.cancel_requested_at]).toEqual(['confirmed', null]);
    const ok = await call(w, 'cancelHotelBooking', 'POST', `/api/v1/hotel/bookings/${id}/cancel`, { token });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('cancelled');
  });
});
