/** Hotelbeds Transfers adapter against its emulator (in-process via msw/node): every operation and trigger. */
import { describe, expect, it } from 'vitest';
import { hotelbedsTransfersHandlers } from '../../../mock-server/src/suppliers/hotelbeds-transfers/index.ts';
import { HotelbedsTransfersAdapter } from '../../src/suppliers/hotelbeds-transfers/index.ts';
import type { TransferSearchQuery } from '../../src/suppliers/ports.ts';
import { kindOf as kind } from './flight-conformance-kit.ts';
import { hotelbedsRig } from './hotelbeds-kit.ts';

const BASE = 'https://api.test.hotelbeds-transfers.test';
const { make, adapter, time, underFaults } = hotelbedsRig({
  baseUrl: BASE,
  seed: 5,
  emulator: hotelbedsTransfersHandlers,
  adapter: (config: ConstructorParameters<typeof HotelbedsTransfersAdapter>[0]) =>
    new HotelbedsTransfersAdapter(config),
});

const query = (to = '57', extra: Partial<TransferSearchQuery> = {}): TransferSearchQuery => ({
  pickup_location: 'PMI',
  dropoff_location: to,
  pickup_datetime: '2026-12-20T10:30',
  passengers: 2,
  luggage: 2,
  currency: 'EUR',
  ...extra,
});

let seq = 0;
async function input(surname = 'SMITH', to = '57') {
  const [offer] = await adapter.search(query(to));
  if (!offer) throw new Error('no offer');
  return {
    offer,
    input: {
      quote_id: offer.quote_id,
      passengers: [
        { first_name: 'Jane', last_name: surname, email: 'jane@example.com', phone: '+441234567890' },
      ],
      contact: { email: 'jane@example.com', phone: '+441234567890' },
      flight_number: 'BA478',
      client_reference: `tr_${++seq}_${surname}`,
    },
  };
}

describe('hotelbeds transfers', () => {
  it('searches: private and shared vehicles, integer EUR prices, policies', async () => {
    const offers = await adapter.search(query());
    expect(offers.length).toBeGreaterThanOrEqual(3);
    expect(new Set(offers.map((o) => o.transfer_type))).toEqual(new Set(['PRIVATE', 'SHARED']));
    for (const o of offers) {
      expect(o.supplier).toBe('hotelbeds_transfers');
      expect(o.price.currency).toBe('EUR');
      expect(Number.isInteger(o.price.total_minor)).toBe(true);
      expect(o.cancellation_policies.length).toBe(1);
      expect(o.duration_minutes).toBeGreaterThan(0);
    }
    const shared = await adapter.search(query('57', { transfer_type: 'SHARED' }));
    expect(shared.every((o) => o.transfer_type === 'SHARED')).toBe(true);
  });

  it('round trips price both legs; large groups get bigger vehicles only; GPS pickup works', async () => {
    const one = await adapter.search(query());
    const round = await adapter.search(query('57', { return_datetime: '2026-12-27T18:00' }));
    const car = (list: typeof one) => list.find((o) => o.vehicle.description === 'Car Standard');
    expect(car(round)?.price.total_minor).toBe(2 * (car(one)?.price.total_minor ?? 0));
    const big = await adapter.search(query('57', { passengers: 9, luggage: 9 }));
    expect(big.every((o) => o.vehicle.max_passengers >= 9)).toBe(true);
    expect((await adapter.search(query('39.57,2.65'))).length).toBeGreaterThan(0);
  });

  it('quotes: same price; trigger XPC changes it; XSO is sold out', async () => {
    const [offer] = await adapter.search(query());
    expect(await adapter.quote(offer?.quote_id ?? '')).toMatchObject({
      available: true,
      price_changed: false,
    });
    const [pc] = await adapter.search(query('XPC'));
    const q = await adapter.quote(pc?.quote_id ?? '');
    expect(q.price_changed).toBe(true);
    expect(q.offer.price.total_minor).toBeGreaterThan(pc?.price.total_minor ?? 0);
    const [so] = await adapter.search(query('XSO'));
    expect(await kind(adapter.quote(so?.quote_id ?? ''))).toBe('sold_out');
  });

  it('books by rateKey, reads back, finds by clientReference', async () => {
    const { offer, input: i } = await input();
    const b = await adapter.book(i);
    expect(b).toMatchObject({
      status: 'confirmed',
      total: offer.price && { currency: 'EUR', amount_minor: offer.price.total_minor },
    });
    expect(b.confirmation_number).toMatch(/^102-\d+$/);
    expect((await adapter.getBooking(b.booking_ref)).status).toBe('confirmed');
    expect((await adapter.findBookingByClientReference(i.client_reference))?.booking_ref).toBe(b.booking_ref);
    expect(await adapter.findBookingByClientReference('nothing')).toBeNull();
    expect(await kind(adapter.getBooking('102-0'))).toBe('not_found');
  });

  it('REJECT: rejected; PENDING: unknown_outcome then found; TIMEOUT: unknown_outcome then found', async () => {
    expect(await kind(adapter.book((await input('REJECT')).input))).toBe('rejected');
    const pending = (await input('PENDING')).input;
    expect(await kind(adapter.book(pending))).toBe('unknown_outcome');
    expect((await adapter.findBookingByClientReference(pending.client_reference))?.status).toBe('confirmed');
    const slow = (await input('TIMEOUT')).input;
    expect(await kind(make({ timeoutMs: 150 }).book(slow))).toBe('unknown_outcome');
    expect(await adapter.findBookingByClientReference(slow.client_reference)).not.toBeNull();
  });

  it('SERVERERROR and RESET on create: unknown_outcome, nothing created; 5xx/reset on search: unavailable', async () => {
    for (const name of ['SERVERERROR', 'RESET']) {
      const i = (await input(name)).input;
      expect(await kind(adapter.book(i))).toBe('unknown_outcome');
      expect(await adapter.findBookingByClientReference(i.client_reference)).toBeNull();
    }
    expect(await underFaults(502, () => adapter.search(query()))).toEqual(['unavailable', 'unavailable']);
  });

  it('bad signature is auth_failed', async () => {
    expect(await kind(make({ secret: 'nope' }).search(query()))).toBe('auth_failed');
  });

  it('cancels: free before 48 h, full price inside; twice is refused', async () => {
    const early = await adapter.book((await input()).input);
    expect(await adapter.cancel(early.booking_ref, early.confirmation_number)).toEqual({
      cancelled: true,
      fee: { currency: 'EUR', amount_minor: 0 },
    });
    expect((await adapter.getBooking(early.booking_ref)).status).toBe('cancelled');
    expect(await kind(adapter.cancel(early.booking_ref, early.confirmation_number))).toBe('invalid_request');
    const late = await adapter.book((await input()).input);
    time.now = Date.parse('2026-12-19T12:00:00Z');
    const res = await adapter.cancel(late.booking_ref, late.confirmation_number);
    expect(res.fee.amount_minor).toBe(late.total.amount_minor);
    time.now = Date.parse('2026-06-01T08:00:00Z');
  });
});
