/**
 * Issue 17, table-driven over the spec's 15 currencies: search (a GBP supplier converted, with a company
 * markup), revalidate, book, authorize, capture and a partial refund agree to the minor unit, the payment
 * provider (the Stripe emulator) is asked for exactly those amounts, and the display reads them back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENCIES } from '../../../../contract/currencies.ts';
import { formatMoney } from '../../../sdk/src/money.ts';
import { markupDb } from '../../src/domains/markup/markup-store.ts';
import { isPayable, toPayable } from '../../src/internal/money.ts';
import { type FxWorld, futureDate, fxWorld, type Json } from './world.ts';

let w: FxWorld;
beforeAll(async () => {
  w = await fxWorld();
  // The agency sells at 7.5% over the fare, whatever the currency.
  await markupDb(w.database.db)
    .insertInto('markup_rules')
    .values({
      company_id: w.company.id,
      rule_type: 'percentage',
      amount: 7.5,
      currency: null,
      origin: null,
      destination: null,
      cabin_class: null,
      airline: null,
      gds_provider: null,
      min_fare: null,
      max_fare: null,
      description: 'agency margin',
      created_by: null,
    })
    .execute();
}, 120_000);
afterAll(async () => {
  await w?.close();
});

const stripeRefunds = (): Json[] => [
  ...(w.mocks.states.stripe as unknown as { refunds: Map<string, Json> }).refunds.values(),
];

/** The displayed text read back into minor units (what a person reading the CLI would type). */
const readBack = (text: string): number => {
  const [, digits] = text.split(' ');
  const [whole, frac = ''] = (digits as string).replaceAll(',', '').split('.');
  return Number(`${whole}${frac}`);
};

describe.each(CURRENCIES.map((c) => [c]))('%s', (currency) => {
  it('search → revalidate → book → authorize → capture → partial refund agree to the minor unit', async () => {
    const day = 70 + CURRENCIES.indexOf(currency);
    const { offers } = await w.search('flight', {
      currency,
      adults: 1,
      journeyType: 'OneWay',
      cabinClass: 'Economy',
      sources: ['duffel'],
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(day) }],
    });
    const offer = offers.find((o) => !o.lcc && o.validating_carrier !== 'W6');
    expect(offer, 'a bookable Duffel offer').toBeDefined();
    const p = offer.price;
    // Search: in the currency asked for, the GBP original beside it, the markup in this currency.
    expect(p.currency).toBe(currency);
    expect(offer.supplier_price.currency).toBe('GBP');
    expect(p.base_minor + p.taxes_minor + p.markup_minor).toBe(p.total_minor);
    expect(p.markup_minor).toBe(toPayable(((p.base_minor + p.taxes_minor) * 7.5) / 100, currency));
    for (const v of [p.base_minor, p.taxes_minor, p.markup_minor, p.total_minor]) {
      expect(isPayable(v, currency)).toBe(true);
    }

    // Revalidate: nothing moved, the same amounts.
    const rv = await w.req('POST', '/api/v1/bookings/revalidation', {
      body: { offer_id: offer.offer_id, currency },
    });
    expect(rv.status, rv.text).toBe(200);
    expect(rv.body.price_changed).toBe(false);
    expect(rv.body.offer.price).toEqual(p);
    expect(rv.body.offer.fx_rate).toBe(offer.fx_rate);

    // Book: the booking charges the total shown.
    const booked = await w.book(offer.offer_id, currency, `every-${currency}-book`);
    expect(booked.status, booked.text).toBe(200);
    const b = booked.body;
    expect(b.pricing.currency).toBe(currency);
    expect(b.pricing.total_minor).toBe(p.total_minor);
    expect(b.pricing.markup_minor).toBe(p.markup_minor);
    expect(b.supplier_price.currency).toBe('GBP');
    const total = p.total_minor as number;

    // Authorize and capture: the provider is asked for exactly the total, in this currency.
    const auth = await w.req('POST', `/api/v1/bookings/${b.booking_id}/authorize`, {
      key: `every-${currency}-auth`,
      body: { token: 'tok_sandbox_ok', currency, amount_minor: total },
    });
    expect(auth.status, auth.text).toBe(200);
    expect(auth.body.amount_minor).toBe(total);
    const pi = w.stripeIntent(b.booking_id);
    expect(pi.amount).toBe(total);
    expect(pi.currency).toBe(currency.toLowerCase());
    const cap = await w.req('POST', `/api/v1/bookings/${b.booking_id}/payment/capture`, {
      key: `every-${currency}-capture`,
    });
    expect(cap.status, cap.text).toBe(200);
    expect(cap.body.captured_minor).toBe(total);
    expect(w.stripeIntent(b.booking_id).amount_received).toBe(total);

    // A partial refund of a third (rounded to what the provider accepts), then never more than is left.
    const part = toPayable(total / 3, currency);
    const before = stripeRefunds().length;
    const ref = await w.req('POST', `/api/v1/bookings/${b.booking_id}/payment/refund?amount_minor=${part}`, {
      key: `every-${currency}-refund-1`,
    });
    expect(ref.status, ref.text).toBe(200);
    expect(ref.body.refunded_minor).toBe(part);
    const made = stripeRefunds().slice(before);
    expect(made.map((r) => [r.amount, r.currency])).toEqual([[part, currency.toLowerCase()]]);
    const over = await w.req(
      'POST',
      `/api/v1/bookings/${b.booking_id}/payment/refund?amount_minor=${total - part + 10}`,
      { key: `every-${currency}-refund-2` },
    );
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('amount_exceeds_refundable');
    expect(stripeRefunds().length).toBe(before + 1);

    // Display: the CLI's formatter shows the currency's decimals and reads back to the same minor units.
    const text = formatMoney(total, currency, 'en-US');
    expect(text.startsWith(`${currency} `)).toBe(true);
    expect(text.split('.')[1]?.length).toBe(['BHD', 'KWD', 'OMR'].includes(currency) ? 3 : 2);
    expect(readBack(text)).toBe(total);
  });
});
