/**
 * Issue #18 for hotel and transport: what a cancellation with a fee does to the money, through the whole
 * server (createRuntime) with the Stripe emulator running. Hotel and transport bookings are not paid by
 * card through the platform (card payments belong to flight bookings), so the cancellation refunds no
 * card: the response, the audit trail and the Stripe emulator all say so, and parallel cancels agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureDate, type Journeys, journeys, key } from '../journeys/world.ts';

let j: Journeys;
let admin: { token: string };
let user: { token: string };
beforeAll(async () => {
  j = await journeys();
  const company = await j.company();
  user = await j.user('company_admin', company.id);
  admin = await j.user('super_admin', null);
});
afterAll(() => j?.close());

const stripe = () => {
  const s = j.mocks.states.stripe;
  if (!s) throw new Error('the Stripe emulator is not running');
  return s;
};

/** A confirmed refundable Hotelbeds booking checking in tomorrow: inside the policy window, so a fee is owed. */
async function hotelInsideFeeWindow() {
  const supplier = j.runtime.suppliers.hotel('hotelbeds');
  if (!supplier) throw new Error('hotelbeds is not configured');
  const offers = await supplier.search({
    destination: 'LON',
    check_in: futureDate(1),
    check_out: futureDate(4),
    rooms: [{ adults: 2, children: 0, child_ages: [] }],
    nationality: 'GB',
    currency: 'GBP',
    max_results: 20,
  });
  const offer = offers.find((o) => o.refundable);
  if (!offer) throw new Error('no refundable offer');
  const booked = await j.req('POST', '/api/v1/hotel/book', {
    token: user.token,
    key: key(),
    body: {
      rate_key: offer.rate_key,
      provider: 'hotelbeds',
      guests: [
        { first_name: 'Ada', last_name: 'Lovelace' },
        { first_name: 'Alan', last_name: 'Lovelace' },
      ],
      contact_email: 'ada@example.com',
      contact_phone: '+447700900123',
    },
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(200);
  return booked.body as { booking_id: number; total: { currency: string; amount_minor: number } };
}

describe('the money of a hotel or transport cancellation', () => {
  it('a cancellation with a fee says no card was charged or refunded, in the response, the audit trail and at Stripe', async () => {
    const intentsBefore = stripe().paymentIntents.size;
    const refundsBefore = stripe().refunds.size;
    const booking = await hotelInsideFeeWindow();
    const path = `/api/v1/hotel/bookings/${booking.booking_id}/cancel`;
    const k = key();
    const cancel = await j.req('POST', path, { token: user.token, key: k });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.cancellation_fee.amount_minor).toBeGreaterThan(0);
    expect(cancel.body.refund.amount_minor).toBe(
      booking.total.amount_minor - cancel.body.cancellation_fee.amount_minor,
    );
    const payment = {
      action: 'none',
      amount_minor: 0,
      currency: booking.total.currency,
      status: 'not_charged',
    };
    expect(cancel.body.payment).toEqual(payment);
    // The same key answers the same (stored with the effect); still nothing at Stripe.
    const replay = await j.req('POST', path, { token: user.token, key: k });
    expect(replay).toEqual(cancel);

    const detail = await j.req('GET', `/api/v1/admin/hotel-bookings/${booking.booking_id}`, {
      token: admin.token,
    });
    const cancelled = detail.body.audit_trail.filter(
      (e: { event: string }) => e.event === 'hotel_booking.cancelled',
    );
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0].details).toMatchObject({ fee: cancel.body.cancellation_fee, payment });

    // No PaymentIntent was ever made for it, and no refund went out.
    expect(stripe().paymentIntents.size).toBe(intentsBefore);
    expect(stripe().refunds.size).toBe(refundsBefore);
    expect(j.violations).toEqual([]);
  });

  it('two parallel cancels: one cancellation written and audited, the same payment answer, no refund', async () => {
    const refundsBefore = stripe().refunds.size;
    const booking = await hotelInsideFeeWindow();
    const path = `/api/v1/hotel/bookings/${booking.booking_id}/cancel`;
    const [a, b] = await Promise.all([
      j.req('POST', path, { token: user.token, key: key() }),
      j.req('POST', path, { token: user.token, key: key() }),
    ]);
    const ok = [a, b].filter((r) => r.status === 200);
    expect(ok.length, JSON.stringify([a.body, b.body])).toBeGreaterThanOrEqual(1);
    // The loser found it cancelled (200, the same answer), is told it is being settled (502), or came
    // after the winner had settled (400 invalid_booking_state: a cancelled booking takes no cancel).
    for (const r of [a, b]) {
      if (r.status === 400) expect(r.body.code).toBe('invalid_booking_state');
      else expect([200, 502]).toContain(r.status);
    }
    for (const r of ok) {
      expect(r.body.payment).toEqual({
        action: 'none',
        amount_minor: 0,
        currency: booking.total.currency,
        status: 'not_charged',
      });
      expect(r.body.cancellation_fee).toEqual(ok[0]?.body.cancellation_fee);
    }
    const detail = await j.req('GET', `/api/v1/admin/hotel-bookings/${booking.booking_id}`, {
      token: admin.token,
    });
    const events = detail.body.audit_trail.map((e: { event: string }) => e.event);
    expect(events.filter((e: string) => e === 'hotel_booking.cancelled')).toHaveLength(1);
    expect(events.filter((e: string) => e === 'hotel_booking.cancel_requested')).toHaveLength(1);
    expect(stripe().refunds.size).toBe(refundsBefore);
    expect(detail.body.status).toBe('cancelled');
  });

  it('a transport cancellation answers the same payment truth, in the booking currency', async () => {
    const supplier = j.runtime.suppliers.transfer('hotelbeds_transfers');
    if (!supplier) throw new Error('hotelbeds_transfers is not configured');
    const [offer] = await supplier.search({
      pickup_location: 'DXB',
      dropoff_location: 'Atlantis The Palm, Dubai',
      pickup_datetime: `${futureDate(30)}T14:30:00`,
      passengers: 2,
      luggage: 2,
      currency: 'EUR',
    });
    if (!offer) throw new Error('no transfer offer');
    const booked = await j.req('POST', '/api/v1/transport/book', {
      token: user.token,
      key: key(),
      body: {
        quote_id: offer.quote_id,
        provider: 'hotelbeds_transfers',
        passengers: [{ first_name: 'Ada', last_name: 'Lovelace' }],
        contact: { email: 'ada@example.com', phone: '+447700900123' },
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const refundsBefore = stripe().refunds.size;
    const cancel = await j.req('POST', `/api/v1/transport/bookings/${booked.body.booking_id}/cancel`, {
      token: user.token,
      key: key(),
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.payment).toEqual({
      action: 'none',
      amount_minor: 0,
      currency: booked.body.total.currency,
      status: 'not_charged',
    });
    expect(stripe().refunds.size).toBe(refundsBefore);
    expect(j.violations).toEqual([]);
  });
});
