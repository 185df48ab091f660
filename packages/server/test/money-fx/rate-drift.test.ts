/**
 * Issue 17: the exchange rate is locked with an offer. A flight revalidation re-prices at today's rate and
 * reports a drift like any price change, naming the rate as its cause; the offer then keeps the new rate
 * and booking it charges the re-priced total. Hotel check-rate and booking keep the rate the search
 * showed. Live-mode rates come from FX_RATES_FILE (JSON {base, rates}), re-read here on every use.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_FX_RATES } from '../../../mock-server/src/shared/fx.ts';
import { exactConversion } from '../../src/internal/fx.ts';
import { toPayable } from '../../src/internal/money.ts';
import { contact, type FxWorld, futureDate, fxWorld } from './world.ts';

const file = join(mkdtempSync(join(tmpdir(), 'fx-')), 'rates.json');
const writeRates = (gbp: number) =>
  writeFileSync(
    file,
    JSON.stringify({ ...SANDBOX_FX_RATES, rates: { ...SANDBOX_FX_RATES.rates, GBP: gbp } }),
  );

let w: FxWorld;
beforeAll(async () => {
  writeRates(0.8531);
  process.env.FX_RATES_FILE = file;
  process.env.FX_RATES_TTL_SECONDS = '0';
  w = await fxWorld();
}, 120_000);
afterAll(async () => {
  delete process.env.FX_RATES_FILE;
  delete process.env.FX_RATES_TTL_SECONDS;
  await w?.close();
});

describe('exchange-rate drift', () => {
  it('revalidation reports a rate-only change with cause "rate"; the offer keeps the new rate and books at it', async () => {
    writeRates(0.8531);
    const { offers } = await w.search('flight', {
      currency: 'USD',
      adults: 1,
      journeyType: 'OneWay',
      cabinClass: 'Economy',
      sources: ['duffel'],
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(90) }],
    });
    const offer = offers.find((o) => !o.lcc && o.validating_carrier !== 'W6');
    expect(offer.fx_rate).toBe(Number((1.0812 / 0.8531).toPrecision(6)));
    const same = await w.req('POST', '/api/v1/bookings/revalidation', {
      body: { offer_id: offer.offer_id, currency: 'USD' },
    });
    expect(same.body).toMatchObject({ price_changed: false, price_change_cause: null });

    // The pound weakens: the same GBP fare is fewer dollars.
    writeRates(0.9);
    const rv = await w.req('POST', '/api/v1/bookings/revalidation', {
      body: { offer_id: offer.offer_id, currency: 'USD' },
    });
    expect(rv.status, rv.text).toBe(200);
    const newRate = Number((1.0812 / 0.9).toPrecision(6));
    expect(rv.body.price_changed).toBe(true);
    expect(rv.body.price_change_cause).toBe('rate');
    expect(rv.body.previous_total_minor).toBe(offer.price.total_minor);
    expect(rv.body.offer.fx_rate).toBe(newRate);
    expect(rv.body.offer.supplier_price).toEqual(offer.supplier_price);
    const fare = toPayable(exactConversion(offer.supplier_price.amount_minor, 'GBP', 'USD', newRate), 'USD');
    expect(rv.body.offer.price.base_minor + rv.body.offer.price.taxes_minor).toBe(fare);
    expect(rv.body.offer.price.total_minor).toBeLessThan(offer.price.total_minor);

    // Booked after the revalidation: charged what the revalidation showed, at its rate.
    const booked = await w.book(offer.offer_id, 'USD', 'drift-book');
    expect(booked.status, booked.text).toBe(200);
    expect(booked.body.pricing.total_minor).toBe(rv.body.offer.price.total_minor);
    expect(booked.body.fx_rate).toBe(newRate);
    expect(booked.body.supplier_price).toEqual({
      currency: 'GBP',
      amount_minor: offer.supplier_price.amount_minor,
    });
  });

  it('a hotel rate keeps the exchange rate of its search through check-rate and booking', async () => {
    writeRates(0.8531);
    const { offers } = await w.search('hotel', {
      destination: 'PMI',
      check_in: futureDate(95),
      check_out: futureDate(97),
      rooms: [{ adults: 1, children: 0, child_ages: [] }],
      currency: 'GBP',
    });
    const offer = offers.find((o) => o.supplier === 'hotelbeds');
    expect(offer.supplier_price.currency).toBe('EUR');
    writeRates(0.95);
    const cr = await w.req('POST', '/api/v1/hotel/check-rate', {
      body: { rate_key: offer.rate_key, provider: 'hotelbeds' },
    });
    expect(cr.status, cr.text).toBe(200);
    expect(cr.body.price_changed).toBe(false);
    expect(cr.body.price_change_cause).toBeNull();
    expect(cr.body.offer.fx_rate).toBe(offer.fx_rate);
    expect(cr.body.offer.price).toEqual(offer.price);
    const booked = await w.req('POST', '/api/v1/hotel/book', {
      key: 'drift-hotel',
      body: {
        rate_key: offer.rate_key,
        provider: 'hotelbeds',
        guests: [{ room: 1, type: 'AD', first_name: 'Ayesha', last_name: 'Rahman' }],
        contact_email: contact.email,
        contact_phone: contact.phone,
      },
    });
    expect(booked.status, booked.text).toBe(200);
    expect(booked.body.total).toEqual({ currency: 'GBP', amount_minor: offer.price.total_minor });
    expect(booked.body.fx_rate).toBe(offer.fx_rate);
  });
});
