/**
 * Port-level conformance for any HotelSupplier wired to its emulator. Assertions use only the port
 * (no supplier wire shapes), so Hotelbeds and Duffel Stays run the same suite.
 */
import { describe, expect, it } from 'vitest';
import { CURRENCIES, SupplierError } from '../../src/suppliers/ports/errors.ts';
import type { HotelOffer, HotelSearchQuery, HotelSupplier } from '../../src/suppliers/ports/hotel.ts';

export interface HotelConformanceOptions {
  query?: Partial<HotelSearchQuery>;
  /** Guest last names the emulator treats as triggers (contracts.md §4). */
  triggers?: { pending?: string; reject?: string };
}

const baseQuery: HotelSearchQuery = {
  destination: 'LON',
  check_in: '2026-12-20',
  check_out: '2026-12-23',
  rooms: [{ adults: 2, children: 0, child_ages: [] }],
  nationality: 'GB',
  currency: 'GBP',
  max_results: 5,
};

async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    if (e instanceof SupplierError) return e.kind;
    throw e;
  }
}

export function hotelSupplierConformance(
  name: string,
  makeAdapter: () => HotelSupplier,
  options: HotelConformanceOptions = {},
): void {
  const query = { ...baseQuery, ...options.query };
  const triggers = { pending: 'PENDING', reject: 'REJECT', ...options.triggers };
  let ref = 0;
  const clientRef = (): string => `conf-${name}-${Date.now()}-${++ref}`;

  async function bookable(adapter: HotelSupplier): Promise<HotelOffer> {
    const offers = await adapter.search(query);
    const offer = offers.find((o) => o.refundable) ?? offers[0];
    if (!offer) throw new Error('no offers');
    if (offer.rate_type === 'BOOKABLE') return offer;
    return (await adapter.checkRate(offer.rate_key)).offer;
  }

  const book = (adapter: HotelSupplier, offer: HotelOffer, lastName: string, reference: string) =>
    adapter.book({
      rate_key: offer.rate_key,
      guests: [
        { room: 1, type: 'AD', first_name: 'Ada', last_name: lastName },
        { room: 1, type: 'AD', first_name: 'Alan', last_name: lastName },
      ],
      holder: { first_name: 'Ada', last_name: lastName },
      contact_email: 'ada@example.com',
      contact_phone: '+447700900123',
      client_reference: reference,
    });

  describe(`HotelSupplier conformance: ${name}`, () => {
    it('searches: well-formed offers in minor units', async () => {
      const adapter = makeAdapter();
      const offers = await adapter.search(query);
      expect(offers.length).toBeGreaterThan(0);
      for (const o of offers) {
        expect(o.supplier).toBe(adapter.name);
        expect(o.rate_key).toBeTruthy();
        expect(['BOOKABLE', 'RECHECK']).toContain(o.rate_type);
        expect(CURRENCIES).toContain(o.price.currency);
        expect(Number.isInteger(o.price.total_minor)).toBe(true);
        expect(o.price.total_minor).toBe(o.price.base_minor + o.price.taxes_minor);
        expect(o.nights).toBe(3);
        expect(o.check_in).toBe(query.check_in);
        expect(o.hotel.name).toBeTruthy();
        for (const p of o.cancellation_policies) expect(Number.isNaN(Date.parse(p.from))).toBe(false);
        if (!o.refundable) expect(o.cancellation_policies.length).toBeGreaterThan(0);
      }
    });

    it('checks a rate before booking', async () => {
      const adapter = makeAdapter();
      const [offer] = await adapter.search(query);
      const check = await adapter.checkRate((offer as HotelOffer).rate_key);
      expect(check.available).toBe(true);
      expect(check.offer.hotel.hotel_id).toBe(offer?.hotel.hotel_id);
      expect(check.previous_total_minor).toBe(offer?.price.total_minor);
      expect(check.price_changed).toBe(check.offer.price.total_minor !== offer?.price.total_minor);
    });

    it('books, reads back, finds by client reference, simulates then cancels', async () => {
      const adapter = makeAdapter();
      const offer = await bookable(adapter);
      const reference = clientRef();
      const booking = await book(adapter, offer, 'Lovelace', reference);
      expect(booking.status).toBe('confirmed');
      expect(booking.total.amount_minor).toBe(offer.price.total_minor);
      const again = await adapter.getBooking(booking.booking_ref);
      expect(again.booking_ref).toBe(booking.booking_ref);
      expect(again.status).toBe('confirmed');
      expect((await adapter.findBookingByClientReference(reference))?.booking_ref).toBe(booking.booking_ref);
      expect(await adapter.findBookingByClientReference(`${reference}-none`)).toBeNull();
      const sim = await adapter.cancel(booking.booking_ref, true);
      expect(sim.cancelled).toBe(false);
      expect(sim.fee.amount_minor + sim.refund.amount_minor).toBe(booking.total.amount_minor);
      expect((await adapter.getBooking(booking.booking_ref)).status).toBe('confirmed');
      const done = await adapter.cancel(booking.booking_ref, false);
      expect(done.cancelled).toBe(true);
      expect(done.fee).toEqual(sim.fee);
      expect((await adapter.getBooking(booking.booking_ref)).status).toBe('cancelled');
    });

    it(`guest last name ${triggers.reject}: rejected`, async () => {
      const adapter = makeAdapter();
      const offer = await bookable(adapter);
      expect(await kindOf(book(adapter, offer, triggers.reject, clientRef()))).toBe('rejected');
    });

    it(`guest last name ${triggers.pending}: unknown outcome, then found by reference`, async () => {
      const adapter = makeAdapter();
      const offer = await bookable(adapter);
      const reference = clientRef();
      expect(await kindOf(book(adapter, offer, triggers.pending, reference))).toBe('unknown_outcome');
      const found = await adapter.findBookingByClientReference(reference);
      expect(found).not.toBeNull();
      expect(['confirmed', 'pending', 'on_request']).toContain(found?.status);
    });

    it('unknown booking: not_found', async () => {
      expect(await kindOf(makeAdapter().getBooking('bok_does_not_exist'))).toBe('not_found');
    });
  });
}
