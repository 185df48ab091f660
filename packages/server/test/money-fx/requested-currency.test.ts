/**
 * Issue 17: the currency a search asks for is the currency of every offer it returns, across every
 * supplier (Hotelbeds prices in EUR, Duffel in GBP); the supplier's own amount is kept beside it with the
 * rate; lists rank by the converted amount; a booking charges exactly the price shown, and the payment
 * provider (the Stripe emulator) is asked for that amount in that currency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exactConversion } from '../../src/internal/fx.ts';
import { toPayable } from '../../src/internal/money.ts';
import { contact, type FxWorld, futureDate, fxWorld, type Json } from './world.ts';

let w: FxWorld;
beforeAll(async () => {
  w = await fxWorld();
}, 120_000);
afterAll(async () => {
  await w?.close();
});

/** The offer's shown amount is its supplier amount at its rate, rounded to the currency's payable step. */
function expectConverted(o: Json, shownMinor: number, currency: string): void {
  expect(o.supplier_price).toBeDefined();
  expect(typeof o.fx_rate).toBe('number');
  const sp = o.supplier_price as { currency: string; amount_minor: number };
  if (sp.currency === currency) expect(o.fx_rate).toBe(1);
  expect(shownMinor).toBe(
    toPayable(exactConversion(sp.amount_minor, sp.currency, currency, o.fx_rate), currency),
  );
}

const sortedAscending = (xs: number[]) => xs.every((x, i) => i === 0 || (xs[i - 1] as number) <= x);

describe.each(['GBP', 'USD', 'EUR', 'KWD'] as const)('a search in %s', (currency) => {
  const day = 50 + ['GBP', 'USD', 'EUR', 'KWD'].indexOf(currency) * 3;
  it('flights: every offer of every supplier is in the currency asked for, ranked by the converted amount', async () => {
    const { id, offers } = await w.search('flight', {
      currency,
      adults: 1,
      journeyType: 'OneWay',
      cabinClass: 'Economy',
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(60) }],
    });
    const suppliers = new Set(offers.map((o) => o.supplier));
    expect([...suppliers].sort()).toEqual(['amadeus', 'duffel', 'mystifly']);
    for (const o of offers) {
      expect(o.price.currency).toBe(currency);
      expect(o.price.base_minor + o.price.taxes_minor + o.price.markup_minor).toBe(o.price.total_minor);
      expectConverted(o, o.price.base_minor + o.price.taxes_minor, currency);
    }
    // Duffel prices in GBP: its original is kept whenever another currency was asked for.
    const duffel = offers.filter((o) => o.supplier === 'duffel');
    expect(duffel.length).toBeGreaterThan(0);
    for (const o of duffel) {
      expect(o.supplier_price.currency).toBe('GBP');
      if (currency !== 'GBP') expect(o.fx_rate).not.toBe(1);
    }
    // The ranked views compare converted amounts (one currency throughout).
    const batch = await w.req('GET', `/api/v1/flight/getFare/batch/${id}`);
    expect(batch.status).toBe(200);
    const all = Object.values(batch.body.results_by_gds as Record<string, Json[]>).flat();
    expect(all.every((o) => o.price.currency === currency)).toBe(true);
  });

  it('hotels: Hotelbeds (EUR) and Duffel Stays offers all in the currency asked for; sort_by price ranks converted amounts', async () => {
    const { id, offers } = await w.search('hotel', {
      destination: 'PMI',
      check_in: futureDate(40),
      check_out: futureDate(43),
      rooms: [{ adults: 2, children: 0, child_ages: [] }],
      currency,
    });
    expect(new Set(offers.map((o) => o.supplier))).toEqual(new Set(['hotelbeds', 'duffel_stays']));
    for (const o of offers) {
      expect(o.price.currency).toBe(currency);
      expect(o.price.base_minor + o.price.taxes_minor).toBe(o.price.total_minor);
      expectConverted(o, o.price.total_minor, currency);
      for (const p of o.cancellation_policies) expect(p.fee.currency).toBe(currency);
    }
    const hb = offers.filter((o) => o.supplier === 'hotelbeds');
    expect(hb.length).toBeGreaterThan(0);
    for (const o of hb) expect(o.supplier_price.currency).toBe('EUR');
    for (const sort of ['price_asc', 'price_desc'] as const) {
      const page = await w.req('GET', `/api/v1/hotel/search/results/${id}?sort_by=${sort}&page_size=100`);
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(offers.length);
      const totals = (page.body.items as Json[]).map((o) => o.price.total_minor as number);
      // The cheapest (or dearest) page holds the extreme converted amounts of the whole search.
      const all = offers.map((o) => o.price.total_minor as number);
      expect(totals[0]).toBe(sort === 'price_asc' ? Math.min(...all) : Math.max(...all));
      expect(sortedAscending(sort === 'price_asc' ? totals : [...totals].reverse())).toBe(true);
    }
  });

  it('transfers: every offer in the currency asked for, with the supplier original', async () => {
    const { id, offers } = await w.search('transport', {
      pickup_location: 'PMI',
      dropoff_location: '39.5696,2.6502',
      pickup_datetime: `${futureDate(30)}T14:30:00`,
      passengers: 2,
      luggage: 2,
      currency,
    });
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) {
      expect(o.price.currency).toBe(currency);
      expectConverted(o, o.price.total_minor, currency);
    }
    const hbt = offers.filter((o) => o.supplier === 'hotelbeds_transfers');
    expect(hbt.length).toBeGreaterThan(0);
    for (const o of hbt) expect(o.supplier_price.currency).toBe('EUR');
    const page = await w.req('GET', `/api/v1/transport/search/results/${id}?sort_by=price_asc&page_size=100`);
    expect(page.status).toBe(200);
    expect(sortedAscending((page.body.items as Json[]).map((o) => o.price.total_minor))).toBe(true);
  });

  it('a Duffel (GBP) flight booked in this currency charges exactly the shown total, and Stripe sees that amount', async () => {
    const { offers } = await w.search('flight', {
      currency,
      adults: 1,
      journeyType: 'OneWay',
      cabinClass: 'Economy',
      sources: ['duffel'],
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(61) }],
    });
    const offer = offers.find((o) => !o.lcc && o.validating_carrier !== 'W6');
    expect(offer).toBeDefined();
    const rv = await w.req('POST', '/api/v1/bookings/revalidation', {
      body: { offer_id: offer.offer_id, currency },
    });
    expect(rv.status).toBe(200);
    expect(rv.body.price_changed).toBe(false);
    expect(rv.body.price_change_cause).toBeNull();
    expect(rv.body.offer.price.total_minor).toBe(offer.price.total_minor);
    const booked = await w.book(offer.offer_id, currency, `fx-book-${currency}`);
    expect(booked.status, booked.text).toBe(200);
    const b = booked.body;
    expect(b.pricing.currency).toBe(currency);
    expect(b.pricing.total_minor).toBe(offer.price.total_minor);
    // The supplier's own amount, in its currency, recorded for reconciliation.
    expect(b.supplier_price.currency).toBe('GBP');
    expect(b.supplier_price.amount_minor).toBe(offer.supplier_price.amount_minor);
    expect(b.fx_rate).toBe(offer.fx_rate);
    const auth = await w.req('POST', `/api/v1/bookings/${b.booking_id}/authorize`, {
      key: `fx-auth-${currency}`,
      body: { token: 'tok_sandbox_ok', currency, amount_minor: offer.price.total_minor },
    });
    expect(auth.status, auth.text).toBe(200);
    const pi = w.stripeIntent(b.booking_id);
    expect(pi.amount).toBe(offer.price.total_minor);
    expect(pi.currency).toBe(currency.toLowerCase());
  });

  it('a Hotelbeds (EUR) room booked in this currency charges the shown total and records the EUR amount', async () => {
    const { offers } = await w.search('hotel', {
      destination: 'PMI',
      check_in: futureDate(day),
      check_out: futureDate(day + 2),
      rooms: [{ adults: 1, children: 0, child_ages: [] }],
      currency,
    });
    const offer = offers.find((o) => o.supplier === 'hotelbeds');
    expect(offer).toBeDefined();
    const cr = await w.req('POST', '/api/v1/hotel/check-rate', {
      body: { rate_key: offer.rate_key, provider: 'hotelbeds' },
    });
    expect(cr.status, cr.text).toBe(200);
    expect(cr.body.offer.price).toEqual(offer.price);
    expect(cr.body.price_changed).toBe(false);
    const booked = await w.req('POST', '/api/v1/hotel/book', {
      key: `fx-hotel-${currency}`,
      body: {
        rate_key: offer.rate_key,
        provider: 'hotelbeds',
        guests: [{ room: 1, type: 'AD', first_name: 'Ayesha', last_name: 'Rahman' }],
        contact_email: contact.email,
        contact_phone: contact.phone,
      },
    });
    expect(booked.status, booked.text).toBe(200);
    expect(booked.body.total).toEqual({ currency, amount_minor: offer.price.total_minor });
    expect(booked.body.supplier_price).toEqual(offer.supplier_price);
    expect(booked.body.fx_rate).toBe(offer.fx_rate);
  });
});

describe('cancellation amounts', () => {
  it('a Hotelbeds (EUR) booking made in GBP is cancelled with its fee and refund in GBP, at the booking rate', async () => {
    const { offers } = await w.search('hotel', {
      destination: 'PMI',
      check_in: futureDate(5),
      check_out: futureDate(7),
      rooms: [{ adults: 1, children: 0, child_ages: [] }],
      currency: 'GBP',
    });
    // A non-refundable rate owes its whole price from now on: a fee to convert.
    const offer = offers.find(
      (o) => o.supplier === 'hotelbeds' && o.cancellation_policies.length > 0 && !o.refundable,
    );
    expect(offer).toBeDefined();
    const booked = await w.req('POST', '/api/v1/hotel/book', {
      key: 'fx-hotel-cancel',
      body: {
        rate_key: offer.rate_key,
        provider: 'hotelbeds',
        guests: [{ room: 1, type: 'AD', first_name: 'Ayesha', last_name: 'Rahman' }],
        contact_email: contact.email,
        contact_phone: contact.phone,
      },
    });
    expect(booked.status, booked.text).toBe(200);
    const c = await w.req('POST', `/api/v1/hotel/bookings/${booked.body.booking_id}/cancel`, {
      key: 'fx-hotel-cancel-1',
    });
    expect(c.status, c.text).toBe(200);
    expect(c.body.cancellation_fee.currency).toBe('GBP');
    expect(c.body.refund.currency).toBe('GBP');
    expect(c.body.cancellation_fee.amount_minor + c.body.refund.amount_minor).toBe(
      booked.body.total.amount_minor,
    );
    const after = await w.req('GET', `/api/v1/hotel/bookings/${booked.body.booking_id}`);
    expect(after.body.cancellation_fee).toEqual(c.body.cancellation_fee);
  });
});

describe('ticket void and refund quotes', () => {
  it('a Duffel (GBP) flight booked in USD is quoted its void in USD at the booking rate, and the card gets exactly that back', async () => {
    const { offers } = await w.search('flight', {
      currency: 'USD',
      adults: 1,
      journeyType: 'OneWay',
      cabinClass: 'Economy',
      sources: ['duffel'],
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(75) }],
    });
    const offer = offers.find((o) => !o.lcc && o.validating_carrier !== 'W6');
    expect(offer).toBeDefined();
    const booked = await w.book(offer.offer_id, 'USD', 'fx-void-book');
    expect(booked.status, booked.text).toBe(200);
    const b = booked.body;
    expect(b.supplier_price.currency).toBe('GBP');
    const total = b.pricing.total_minor as number;
    const id = b.booking_id as number;
    const auth = await w.req('POST', `/api/v1/bookings/${id}/authorize`, {
      key: 'fx-void-auth',
      body: { token: 'tok_sandbox_ok', currency: 'USD', amount_minor: total },
    });
    expect(auth.status, auth.text).toBe(200);
    const ticket = await w.req('POST', `/api/v1/bookings/${id}/ticket`, { key: 'fx-void-ticket', body: {} });
    expect(ticket.status, ticket.text).toBe(200);

    const q = await w.req('POST', `/api/v1/bookings/${id}/ticket/void`);
    expect(q.status, q.text).toBe(200);
    expect([q.body.confirmed, q.body.permitted]).toEqual([false, true]);
    // Shown in the booking's currency: a void gives back the whole total; the supplier's GBP quote beside it.
    expect(q.body.refund).toEqual({ currency: 'USD', amount_minor: total });
    expect(q.body.fee).toEqual({ currency: 'USD', amount_minor: 0 });
    expect(q.body.supplier_refund).toEqual({ currency: 'GBP', amount_minor: b.supplier_price.amount_minor });
    expect(q.body.supplier_fee).toEqual({ currency: 'GBP', amount_minor: 0 });
    expect(q.body.fx_rate).toBe(b.fx_rate);

    const c = await w.req('POST', `/api/v1/bookings/${id}/ticket/void?confirm=true`, { key: 'fx-void-1' });
    expect(c.status, c.text).toBe(200);
    expect(c.body.refund).toEqual(q.body.refund);
    expect(c.body.payment).toEqual({
      action: 'refund',
      amount_minor: q.body.refund.amount_minor,
      currency: 'USD',
      status: 'succeeded',
    });
  });
});
