/** Hotelbeds hotel adapter against its APItude emulator (in-process via msw/node): every operation and trigger. */
import { describe, expect, it } from 'vitest';
import { hotelbedsHandlers } from '../../../mock-server/src/suppliers/hotelbeds/index.ts';
import { HotelbedsAdapter } from '../../src/suppliers/hotelbeds/index.ts';
import type { HotelSearchQuery } from '../../src/suppliers/ports.ts';
import { kindOf as kind } from './flight-conformance-kit.ts';
import { hotelSupplierConformance } from './hotel-conformance.ts';
import { hotelbedsRig } from './hotelbeds-kit.ts';

const BASE = 'https://api.test.hotelbeds.test';
const { make, adapter, time, underFaults } = hotelbedsRig({
  baseUrl: BASE,
  seed: 3,
  emulator: hotelbedsHandlers,
  adapter: (config: ConstructorParameters<typeof HotelbedsAdapter>[0]) => new HotelbedsAdapter(config),
});

hotelSupplierConformance('hotelbeds', () => adapter);

const query = (destination = 'BCN', extra: Partial<HotelSearchQuery> = {}): HotelSearchQuery => ({
  destination,
  check_in: '2026-12-20',
  check_out: '2026-12-23',
  rooms: [{ adults: 2, children: 1, child_ages: [8] }],
  nationality: 'GB',
  currency: 'EUR',
  max_results: 100,
  ...extra,
});

let seq = 0;
async function book(
  surname = 'SMITH',
  destination = 'BCN',
  pick = (o: { rate_type: string }) => o.rate_type === 'BOOKABLE',
) {
  const offers = await adapter.search(query(destination));
  const offer = offers.find(pick) ?? offers[0];
  if (!offer) throw new Error('no offer');
  const client_reference = `hb_${++seq}_${surname}`;
  const input = {
    rate_key: offer.rate_key,
    guests: [
      { room: 1, type: 'AD' as const, first_name: 'Jane', last_name: surname },
      { room: 1, type: 'AD' as const, first_name: 'John', last_name: surname },
      { room: 1, type: 'CH' as const, first_name: 'Amy', last_name: surname, age: 8 },
    ],
    holder: { first_name: 'Jane', last_name: surname },
    contact_email: 'jane@example.com',
    contact_phone: '+441234567890',
    client_reference,
  };
  return { offer, input, client_reference };
}

describe('hotelbeds: availability and rates', () => {
  it('searches a destination: varied hotels, stars, boards, rate types, integer EUR money', async () => {
    const offers = await adapter.search(query());
    expect(offers.length).toBeGreaterThan(10);
    expect(new Set(offers.map((o) => o.hotel.star_rating)).size).toBeGreaterThan(1);
    expect(new Set(offers.map((o) => o.room.board)).size).toBeGreaterThan(1);
    expect(offers.some((o) => o.rate_type === 'RECHECK')).toBe(true);
    expect(offers.some((o) => !o.refundable)).toBe(true);
    for (const o of offers) {
      expect(o.supplier).toBe('hotelbeds');
      expect(o.nights).toBe(3);
      expect(o.price.total_minor).toBe(o.price.base_minor + o.price.taxes_minor);
      expect(o.cancellation_policies.length).toBe(1);
    }
    expect((await adapter.search(query())).map((o) => o.rate_key)).toEqual(offers.map((o) => o.rate_key));
  });

  it('searches by city name, by geolocation with distances, and by minimum stars', async () => {
    expect((await adapter.search(query('Barcelona')))[0]?.hotel.city).toBe('Barcelona');
    const geo = await adapter.search(query('41.3874,2.1686'));
    expect(geo.length).toBeGreaterThan(0);
    expect(geo.every((o) => o.hotel.distance_km !== null && o.hotel.distance_km <= 20)).toBe(true);
    const four = await adapter.search(query('DXB', { min_star_rating: 4 }));
    expect(four.every((o) => o.hotel.star_rating >= 4)).toBe(true);
  });

  it('checkrates a rate: same price, bookable', async () => {
    const [offer] = await adapter.search(query());
    const check = await adapter.checkRate(offer?.rate_key ?? '');
    expect(check).toMatchObject({ available: true, price_changed: false });
    expect(check.offer.rate_type).toBe('BOOKABLE');
  });

  it('trigger XPC: price change at checkrates; booking the stale rateKey is price_changed', async () => {
    const { offer, input } = await book('SMITH', 'XPC');
    const check = await adapter.checkRate(offer.rate_key);
    expect(check.price_changed).toBe(true);
    expect(check.offer.price.total_minor).toBeGreaterThan(check.previous_total_minor);
    expect(await kind(adapter.book(input))).toBe('price_changed');
    const booked = await adapter.book({ ...input, rate_key: check.offer.rate_key });
    expect(booked.total.amount_minor).toBe(check.offer.price.total_minor);
  });

  it('trigger XSO: sold out at checkrates and at booking', async () => {
    const { offer, input } = await book('SMITH', 'XSO');
    expect(await kind(adapter.checkRate(offer.rate_key))).toBe('sold_out');
    expect(await kind(adapter.book(input))).toBe('sold_out');
  });

  it('a RECHECK rate must go through checkrates before it can be booked', async () => {
    const { offer, input } = await book('SMITH', 'BCN', (o) => o.rate_type === 'RECHECK');
    expect(offer.rate_type).toBe('RECHECK');
    expect(await kind(adapter.book(input))).toBe('invalid_request');
    const check = await adapter.checkRate(offer.rate_key);
    expect((await adapter.book({ ...input, rate_key: check.offer.rate_key })).status).toBe('confirmed');
  });

  it('a bad signature or key is auth_failed (401 in the Hotelbeds error shape)', async () => {
    expect(await kind(make({ secret: 'wrong' }).search(query()))).toBe('auth_failed');
    expect(await kind(make({ apiKey: 'wrong' }).search(query()))).toBe('auth_failed');
    const res = await fetch(`${BASE}/hotel-api/1.0/hotels`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'AUTHENTICATION_REQUIRED' } });
  });

  it('5xx and connection reset knobs on search: unavailable', async () => {
    expect(await underFaults(503, () => adapter.search(query()))).toEqual(['unavailable', 'unavailable']);
  });
});

describe('hotelbeds: bookings', () => {
  it('books, reads back, finds by clientReference (long references hashed to 20 chars)', async () => {
    const { input } = await book();
    const long = { ...input, client_reference: `booking_${'x'.repeat(40)}` };
    const b = await adapter.book(long);
    expect(b).toMatchObject({ supplier: 'hotelbeds', status: 'confirmed', total: { currency: 'EUR' } });
    expect(b.booking_ref).toMatch(/^1-\d+$/);
    expect((await adapter.getBooking(b.booking_ref)).status).toBe('confirmed');
    expect((await adapter.findBookingByClientReference(long.client_reference))?.booking_ref).toBe(
      b.booking_ref,
    );
    expect(await adapter.findBookingByClientReference('nothing')).toBeNull();
    expect(await kind(adapter.getBooking('1-0'))).toBe('not_found');
  });

  it('REJECT: rejected', async () => {
    const { input } = await book('REJECT');
    expect(await kind(adapter.book(input))).toBe('rejected');
  });

  it('PENDING: 5xx after creating is unknown_outcome; the lookup by clientReference finds it', async () => {
    const { input, client_reference } = await book('PENDING');
    expect(await kind(adapter.book(input))).toBe('unknown_outcome');
    expect((await adapter.findBookingByClientReference(client_reference))?.status).toBe('confirmed');
  });

  it('TIMEOUT: the create call times out after creating: unknown_outcome, found later', async () => {
    const { input, client_reference } = await book('TIMEOUT');
    expect(await kind(make({ timeoutMs: 150 }).book(input))).toBe('unknown_outcome');
    expect(await adapter.findBookingByClientReference(client_reference)).not.toBeNull();
  });

  it('SERVERERROR and RESET on create: unknown_outcome, nothing created', async () => {
    for (const name of ['SERVERERROR', 'RESET']) {
      const { input, client_reference } = await book(name);
      expect(await kind(adapter.book(input))).toBe('unknown_outcome');
      expect(await adapter.findBookingByClientReference(client_reference)).toBeNull();
    }
  });

  it('cancellation SIMULATION quotes without cancelling; CANCELLATION cancels; fee follows the policy', async () => {
    const { input } = await book(
      'SMITH',
      'BCN',
      (o) => o.rate_type === 'BOOKABLE' && (o as unknown as { refundable: boolean }).refundable,
    );
    const b = await adapter.book(input);
    const sim = await adapter.cancel(b.booking_ref, true);
    expect(sim).toMatchObject({ cancelled: false, fee: { amount_minor: 0 } });
    expect(sim.refund.amount_minor).toBe(b.total.amount_minor);
    expect((await adapter.getBooking(b.booking_ref)).status).toBe('confirmed');
    time.now = Date.parse('2026-12-19T08:00:00Z'); // inside the 3-day window: the first night is owed
    const late = await adapter.cancel(b.booking_ref, true);
    expect(late.fee.amount_minor).toBeGreaterThan(0);
    const done = await adapter.cancel(b.booking_ref, false);
    expect(done.cancelled).toBe(true);
    expect(done.fee).toEqual(late.fee);
    expect((await adapter.getBooking(b.booking_ref)).status).toBe('cancelled');
    expect(await kind(adapter.cancel(b.booking_ref, false))).toBe('invalid_request');
    time.now = Date.parse('2026-06-01T08:00:00Z');
  });

  it('a non-refundable rate owes everything at once', async () => {
    const { input } = await book(
      'SMITH',
      'BCN',
      (o) => o.rate_type === 'BOOKABLE' && !(o as unknown as { refundable: boolean }).refundable,
    );
    const b = await adapter.book(input);
    const sim = await adapter.cancel(b.booking_ref, true);
    expect(sim.fee.amount_minor).toBe(b.total.amount_minor);
    expect(sim.refund.amount_minor).toBe(0);
  });
});
