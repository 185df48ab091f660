/** Duffel Stays adapter (official @duffel/api client) against the Duffel emulator, in-process via msw/node. */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { duffelHandlers } from '../../../mock-server/src/suppliers/duffel/index.ts';
import { DuffelStaysAdapter } from '../../src/suppliers/duffel-stays/index.ts';
import { SupplierError } from '../../src/suppliers/ports/errors.ts';
import { hotelSupplierConformance } from './hotel-conformance.ts';

const BASE = 'https://api.duffel.test';
let now = Date.parse('2026-06-01T08:00:00Z');
const clock = () => now;
const emu = duffelHandlers({ baseUrl: BASE, clock, latencyMs: 0, seed: 5, hangMs: 300 });
const server = setupServer(...emu.handlers);
const make = (timeoutMs = 2_000) =>
  new DuffelStaysAdapter({ token: 'duffel_test_conformance', baseUrl: BASE, now: clock, timeoutMs });

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  emu.state.faults.length = 0;
  now = Date.parse('2026-06-01T08:00:00Z');
});
afterAll(() => server.close());

hotelSupplierConformance('duffel_stays', () => make());

async function kind(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    if (e instanceof SupplierError) return e.kind;
    throw e;
  }
}

const query = {
  destination: '51.5072,-0.1276',
  check_in: '2026-12-20',
  check_out: '2026-12-22',
  rooms: [{ adults: 1, children: 1, child_ages: [7] }],
  nationality: 'GB',
  currency: 'GBP' as const,
  max_results: 3,
};
const guest = (last: string) => ({ room: 1, type: 'AD' as const, first_name: 'Grace', last_name: last });
const bookInput = (rateKey: string, last = 'Hopper', ref = `ds-${Math.random()}`) => ({
  rate_key: rateKey,
  guests: [guest(last)],
  holder: { first_name: 'Grace', last_name: last },
  contact_email: 'grace@example.com',
  contact_phone: '+447700900123',
  client_reference: ref,
});

describe('Duffel Stays specifics', () => {
  it('geocodes city names and IATA codes; unknown destination is invalid_request', async () => {
    const a = make();
    expect((await a.search({ ...query, destination: 'Paris' })).length).toBeGreaterThan(0);
    expect((await a.search({ ...query, destination: 'DXB' }))[0]?.hotel.city).toBe('Dubai');
    expect(await kind(a.search({ ...query, destination: 'Atlantis-under-the-sea' }))).toBe('invalid_request');
  });

  it('non-refundable rates carry a full fee from booking; refundable ones step up', async () => {
    const offers = await make().search(query);
    const nonRef = offers.find((o) => !o.refundable);
    const ref = offers.find((o) => o.refundable);
    expect(nonRef?.cancellation_policies).toEqual([
      { from: expect.any(String), fee: { currency: 'GBP', amount_minor: nonRef?.price.total_minor } },
    ]);
    expect(ref?.cancellation_policies.length).toBe(2);
    expect(ref?.cancellation_policies[1]?.fee.amount_minor).toBe(ref?.price.total_minor);
  });

  it('price change at quote time (driftRate knob)', async () => {
    const a = make();
    const [offer] = await a.search(query);
    emu.state.driftRate(offer?.rate_key as string, 1234);
    const check = await a.checkRate(offer?.rate_key as string);
    expect(check.price_changed).toBe(true);
    expect(check.offer.price.total_minor).toBe((offer?.price.total_minor ?? 0) + 1234);
  });

  it('rate expiry (clock) is offer_expired; quote expiry at booking too', async () => {
    const a = make();
    const [offer] = await a.search(query);
    const check = await a.checkRate(offer?.rate_key as string);
    now += 16 * 60_000;
    expect(await kind(a.book(bookInput(check.offer.rate_key)))).toBe('offer_expired');
    now += 20 * 60_000;
    expect(await kind(a.checkRate(offer?.rate_key as string))).toBe('offer_expired');
  });

  it('SOLDOUT guest: sold_out; a quote books once', async () => {
    const a = make();
    const [offer] = await a.search(query);
    expect(await kind(a.book(bookInput(offer?.rate_key as string, 'SOLDOUT')))).toBe('sold_out');
    const [other] = (await a.search({ ...query, destination: '48.8566,2.3522' })).filter((o) => o.refundable);
    const check = await a.checkRate(other?.rate_key as string);
    await a.book(bookInput(check.offer.rate_key));
    expect(await kind(a.book(bookInput(check.offer.rate_key)))).toBe('invalid_request');
  });

  it('TIMEOUT guest: the deadline passes, the booking exists (unknown_outcome)', async () => {
    const a = make(100);
    const [offer] = await a.search(query);
    const ref = 'ds-timeout';
    expect(await kind(a.book(bookInput(offer?.rate_key as string, 'TIMEOUT', ref)))).toBe('unknown_outcome');
    expect((await make().findBookingByClientReference(ref))?.status).toBe('confirmed');
  });

  it('5xx before acting on a read is unavailable; on a booking it is unknown_outcome; reset likewise', async () => {
    const a = make();
    emu.state.injectFault({ method: 'POST', path: '/stays/search', kind: 'http_503' });
    expect(await kind(a.search(query))).toBe('unavailable');
    const [offer] = await a.search(query);
    emu.state.injectFault({ method: 'POST', path: '/stays/bookings', kind: 'reset' });
    expect(await kind(a.book(bookInput(offer?.rate_key as string)))).toBe('unknown_outcome');
  });

  it('refund after the free window: fee per timeline', async () => {
    const a = make();
    const offer = (await a.search(query)).find((o) => o.refundable);
    const booking = await a.book(bookInput(offer?.rate_key as string));
    now = Date.parse('2026-12-20T15:00:00Z') - 2 * 86_400_000; // between the two deadlines: half back
    const sim = await a.cancel(booking.booking_ref, true);
    expect(sim.refund.amount_minor).toBe(Math.round(booking.total.amount_minor / 2));
    now = Date.parse('2026-12-20T16:00:00Z');
    expect((await a.cancel(booking.booking_ref, false)).refund.amount_minor).toBe(0);
  });

  it('bad token: auth_failed', async () => {
    const a = new DuffelStaysAdapter({ token: 'not-a-duffel-token', baseUrl: BASE });
    expect(await kind(a.search(query))).toBe('auth_failed');
  });
});
