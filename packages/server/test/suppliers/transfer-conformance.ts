/**
 * Port-level conformance for any TransferSupplier wired to its emulator; only port shapes are asserted,
 * so Hotelbeds Transfers and Amadeus Transfers can share it.
 */
import { describe, expect, it } from 'vitest';
import { CURRENCIES } from '../../src/suppliers/ports/errors.ts';
import type { TransferSearchQuery, TransferSupplier } from '../../src/suppliers/ports/transfer.ts';
import { clientRef, kindOf } from './flight-conformance.ts';

export interface TransferConformanceOptions {
  query?: Partial<TransferSearchQuery>;
  triggers?: { pending?: string; reject?: string };
}

export const baseTransferQuery: TransferSearchQuery = {
  pickup_location: 'CDG',
  dropoff_location: '48.859466,2.2976965',
  pickup_datetime: '2026-12-20T10:30:00',
  passengers: 2,
  luggage: 2,
  currency: 'EUR',
};

export function transferSupplierConformance(
  name: string,
  makeAdapter: () => TransferSupplier,
  options: TransferConformanceOptions = {},
): void {
  const query = { ...baseTransferQuery, ...options.query };
  const triggers = { pending: 'PENDING', reject: 'REJECT', ...options.triggers };
  const book = async (a: TransferSupplier, lastName: string, ref = clientRef(name)) => {
    const [offer] = await a.search(query);
    return a.book({
      quote_id: offer?.quote_id ?? '',
      passengers: [
        { first_name: 'Ann', last_name: lastName, email: 'ann@example.com', phone: '+447700900123' },
      ],
      contact: { email: 'ann@example.com', phone: '+447700900123' },
      client_reference: ref,
    });
  };

  describe(`TransferSupplier conformance: ${name}`, () => {
    it('searches well-formed, deterministic offers', async () => {
      const a = makeAdapter();
      const offers = await a.search(query);
      expect(offers.length).toBeGreaterThan(0);
      for (const o of offers) {
        expect(o.supplier).toBe(a.name);
        expect(CURRENCIES).toContain(o.price.currency);
        expect(o.price.total_minor).toBeGreaterThan(0);
        expect(o.vehicle.max_passengers).toBeGreaterThanOrEqual(query.passengers);
        expect(o.quote_id).toBeTruthy();
      }
      expect((await a.search(query)).map((o) => o.price.total_minor)).toEqual(
        offers.map((o) => o.price.total_minor),
      );
    });

    it('quotes an offer', async () => {
      const a = makeAdapter();
      const [offer] = await a.search(query);
      const q = await a.quote(offer?.quote_id ?? '');
      expect(q.available).toBe(true);
      expect(q.price_changed).toBe(false);
      expect(q.offer.price).toEqual(offer?.price);
    });

    it('books, reads, finds by client reference and cancels', async () => {
      const a = makeAdapter();
      const ref = clientRef(name);
      const b = await book(a, 'Smith', ref);
      expect(b.status).toBe('confirmed');
      expect(b.confirmation_number).toBeTruthy();
      expect((await a.getBooking(b.booking_ref)).booking_ref).toBe(b.booking_ref);
      expect((await a.findBookingByClientReference(ref))?.booking_ref).toBe(b.booking_ref);
      expect(await a.findBookingByClientReference(clientRef('nobody'))).toBeNull();
      const c = await a.cancel(b.booking_ref, b.confirmation_number);
      expect(c.cancelled).toBe(true);
      expect((await a.getBooking(b.booking_ref)).status).toBe('cancelled');
    });

    it(`last name ${triggers.reject} is rejected`, async () => {
      expect(await kindOf(book(makeAdapter(), triggers.reject))).toBe('rejected');
    });

    it(`last name ${triggers.pending} is an unknown outcome that reconciliation finds`, async () => {
      const a = makeAdapter();
      const ref = clientRef(name);
      expect(await kindOf(book(a, triggers.pending, ref))).toBe('unknown_outcome');
      expect((await a.findBookingByClientReference(ref))?.booking_ref).toBeTruthy();
    });

    it('an unknown booking is not_found', async () => {
      expect(await kindOf(makeAdapter().getBooking('nope'))).toBe('not_found');
    });
  });
}
