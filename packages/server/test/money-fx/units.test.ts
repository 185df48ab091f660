/**
 * Issue 17, without a server: the one currency table (ISO 4217 exponents), conversion, markup and the
 * payable step, table-driven over the spec's 15 currencies, and property tests: converting, marking up
 * and rounding never lose or invent more than one minor unit (and never more than half of the payment
 * provider's step where it asks for one); the rates parser takes both documented formats.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCIES, CURRENCY_TABLE } from '../../../../contract/currencies.ts';
import { ecbXml, SANDBOX_FX_RATES } from '../../../mock-server/src/shared/fx.ts';
import { formatMoney, minorUnits as sdkMinorUnits } from '../../../sdk/src/money.ts';
import { applyMarkup, type MarkupRule } from '../../src/domains/markup/engine.ts';
import { convertMinor, FxRates, FxUnavailable, fxFromEnv, parseFxRates } from '../../src/internal/fx.ts';
import { exponent, isPayable, toMinor, toPayable } from '../../src/internal/money.ts';
import { exchangeAt, shown, shownFlightPrice, shownHotelOffer } from '../../src/search/exchange.ts';
import type { Currency } from '../../src/suppliers/ports/errors.ts';
import type { HotelOffer } from '../../src/suppliers/ports/hotel.ts';

const ISO_4217: Record<string, number> = { BHD: 3, KWD: 3, OMR: 3 };
const rates = new FxRates(SANDBOX_FX_RATES, 'sandbox');

const rule = (over: Partial<MarkupRule>): MarkupRule => ({
  id: 1,
  company_id: null,
  rule_type: 'percentage',
  amount: 0,
  currency: null,
  origin: null,
  destination: null,
  cabin_class: null,
  airline: null,
  gds_provider: null,
  min_fare: null,
  max_fare: null,
  priority: 0,
  is_active: true,
  ...over,
});

describe.each(CURRENCIES.map((c) => [c]))('%s', (c) => {
  const e = ISO_4217[c] ?? 2;
  const step = e === 3 ? 10 : 1;

  it('has its ISO 4217 exponent in the one table, read alike by the server, the SDK and the display', () => {
    expect(CURRENCY_TABLE[c].minor_units).toBe(e);
    expect(exponent(c)).toBe(e);
    expect(sdkMinorUnits(c)).toBe(e);
    expect(CURRENCY_TABLE[c].payable_step_minor).toBe(step);
    // 55 major units: KWD 55.000 is 55000 fils, GBP 55.00 is 5500 pence.
    expect(toMinor(55, c)).toBe(55 * 10 ** e);
    expect(formatMoney(55 * 10 ** e, c, 'en-US')).toBe(`${c} 55.${'0'.repeat(e)}`);
  });

  it('markup rules in major units land on payable minor units of the currency', () => {
    const base = 123_450 * step; // payable
    const ctx = { company_id: null, base_total_minor: base, currency: c, pax_count: 2, segment_count: 3 };
    const fixed = applyMarkup([rule({ rule_type: 'fixed', amount: 12.345 })], ctx);
    expect(fixed.markup_minor).toBe(toPayable(Math.round(12.345 * 10 ** e), c));
    expect(isPayable(fixed.markup_minor, c)).toBe(true);
    const perPax = applyMarkup([rule({ rule_type: 'per_pax', amount: 1.5 })], ctx);
    expect(perPax.markup_minor).toBe(2 * toPayable(1.5 * 10 ** e, c));
    const pct = applyMarkup([rule({ rule_type: 'percentage', amount: 7 })], ctx);
    expect(isPayable(pct.markup_minor, c)).toBe(true);
    expect(Math.abs(pct.markup_minor - base * 0.07)).toBeLessThanOrEqual(step / 2);
    // A base price threshold is in major units of the currency.
    const bounded = applyMarkup([rule({ rule_type: 'fixed', amount: 1, min_fare: base / 10 ** e + 1 })], ctx);
    expect(bounded.markup_minor).toBe(0);
  });

  it('a EUR supplier price shown in this currency: parts add up, payable, within half a step of the exact conversion', () => {
    const ex = exchangeAt(rates, 'EUR', c);
    expect(ex.fx_rate).toBe(c === 'EUR' ? 1 : Number((SANDBOX_FX_RATES.rates[c] as number).toPrecision(6)));
    const p = shownFlightPrice(
      { currency: 'EUR', base_minor: 41_234, taxes_minor: 8_765, markup_minor: 0, total_minor: 49_999 },
      ex,
    );
    expect(p.currency).toBe(c);
    expect(p.base_minor + p.taxes_minor).toBe(p.total_minor);
    expect(isPayable(p.total_minor, c) && isPayable(p.base_minor, c)).toBe(true);
    const exact = 49_999 * ex.fx_rate * 10 ** (e - 2);
    expect(Math.abs(p.total_minor - exact)).toBeLessThanOrEqual(Math.max(0.5, step / 2));
  });
});

describe('conversion, markup and rounding (properties)', () => {
  const currency = fc.constantFrom(...CURRENCIES);
  const amount = fc.integer({ min: 0, max: 5_000_000_000 });

  it('converting never loses or invents more than one minor unit, and the shown amount is within half a payable step', () => {
    fc.assert(
      fc.property(amount, currency, currency, (minor, from, to) => {
        const rate = rates.rate(from, to);
        const exact = minor * rate * 10 ** (exponent(to) - exponent(from));
        const converted = convertMinor(minor, from, to, rate);
        expect(Number.isInteger(converted)).toBe(true);
        expect(Math.abs(converted - exact)).toBeLessThanOrEqual(1);
        const s = shown(minor, { currency: to, from, fx_rate: rate });
        expect(isPayable(s, to)).toBe(true);
        // Rounded once: within one minor unit, and within half a step where the provider asks for one.
        // (0.01: float noise on amounts of 10^12 minor units, trimmed at 15 significant digits.)
        const half = CURRENCY_TABLE[to].payable_step_minor / 2;
        expect(Math.abs(s - exact)).toBeLessThanOrEqual(half === 0.5 ? 1 : half + 0.01);
      }),
      { numRuns: 2000 },
    );
  });

  it('markup on a converted fare: the total is base + taxes + markup exactly, payable, and the markup within one unit (half a step) of the rule', () => {
    fc.assert(
      fc.property(
        amount,
        fc.integer({ min: 0, max: 1_000_000 }),
        currency,
        currency,
        fc.double({ min: -20, max: 40, noNaN: true }),
        (base, taxes, from, to, pct) => {
          const ex = exchangeAt(rates, from, to);
          const fare = shownFlightPrice(
            {
              currency: from,
              base_minor: base,
              taxes_minor: taxes,
              markup_minor: 0,
              total_minor: base + taxes,
            },
            ex,
          );
          const m = applyMarkup([rule({ rule_type: 'percentage', amount: pct })], {
            company_id: null,
            base_total_minor: fare.total_minor,
            currency: to,
            pax_count: 1,
            segment_count: 1,
          });
          const total = fare.total_minor + m.markup_minor;
          expect(fare.base_minor + fare.taxes_minor).toBe(fare.total_minor);
          expect(total).toBeGreaterThanOrEqual(0);
          expect(isPayable(total, to)).toBe(true);
          const exactMarkup = (fare.total_minor * pct) / 100;
          if (fare.total_minor + exactMarkup >= 0) {
            expect(Math.abs(m.markup_minor - exactMarkup)).toBeLessThanOrEqual(
              Math.max(1, CURRENCY_TABLE[to].payable_step_minor / 2),
            );
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a round trip through another currency comes back within the rounding of the two conversions', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), currency, currency, (minor, a, b) => {
        const there = convertMinor(minor, a, b, rates.rate(a, b));
        const back = convertMinor(there, b, a, rates.rate(b, a));
        // Each leg rounds to half a minor unit of its currency; the rates are 6 significant digits.
        const unitA = 10 ** -exponent(a);
        const tolerance = 1 + minor * 2e-5 + (10 ** exponent(a) / 10 ** exponent(b)) * rates.rate(b, a);
        expect(Math.abs(back - minor)).toBeLessThanOrEqual(tolerance + unitA);
      }),
      { numRuns: 500 },
    );
  });

  it('hotel cancellation fees convert with the offer, at the same rate', () => {
    const offer = {
      price: { currency: 'EUR', base_minor: 30_000, taxes_minor: 3_000, total_minor: 33_000 },
      cancellation_policies: [
        { from: '2026-12-01T00:00:00Z', fee: { currency: 'EUR', amount_minor: 11_000 } },
      ],
    } as unknown as HotelOffer;
    const s = shownHotelOffer(offer, exchangeAt(rates, 'EUR', 'KWD'));
    expect(s.price.currency).toBe('KWD');
    expect(s.cancellation_policies[0]?.fee).toEqual({
      currency: 'KWD',
      amount_minor: toPayable(11_000 * s.fx_rate * 10, 'KWD'),
    });
    expect(s.supplier_price).toEqual({ currency: 'EUR', amount_minor: 33_000 });
  });
});

describe('rates sources', () => {
  it('parses the ECB eurofxref XML and JSON {base, rates} alike', () => {
    const xml = parseFxRates(ecbXml(SANDBOX_FX_RATES));
    expect(xml.base).toBe('EUR');
    expect(xml.date).toBe(SANDBOX_FX_RATES.date);
    expect(xml.rates.KWD).toBe(SANDBOX_FX_RATES.rates.KWD);
    const json = parseFxRates(JSON.stringify({ base: 'usd', rates: { GBP: '0.79', EUR: 0.92 } }));
    expect(json).toEqual({ base: 'USD', rates: { GBP: 0.79, EUR: 0.92 } });
    const r = new FxRates(json, 'test');
    // Cross rate through the base, 6 significant digits.
    expect(r.rate('GBP', 'EUR')).toBe(Number((0.92 / 0.79).toPrecision(6)));
    expect(() => parseFxRates('rates')).toThrow();
    expect(() => r.rate('GBP', 'KWD')).toThrow(FxUnavailable);
  });

  it('live mode without FX_RATES_* converts nothing; sandbox uses the emulators’ table', async () => {
    const live = await fxFromEnv({}, false).rates();
    expect(live.rate('GBP', 'GBP')).toBe(1);
    expect(() => live.rate('EUR', 'GBP')).toThrow(FxUnavailable);
    const sandbox = await fxFromEnv({}, true).rates();
    expect(sandbox.rate('EUR', 'KWD')).toBe(SANDBOX_FX_RATES.rates.KWD);
  });

  it('FX_RATES_URL: fetched, re-read after the TTL, the last good table kept when a refresh fails', async () => {
    let body = JSON.stringify({ base: 'EUR', rates: { GBP: 0.85 } });
    let fail = false;
    let calls = 0;
    const fetchImpl = (async () => {
      calls += 1;
      if (fail) return new Response('down', { status: 503 });
      return new Response(body, { status: 200 });
    }) as typeof fetch;
    const src = fxFromEnv(
      { FX_RATES_URL: 'https://rates.test/latest', FX_RATES_TTL_SECONDS: '0' },
      false,
      fetchImpl,
    );
    expect((await src.rates()).rate('EUR', 'GBP')).toBe(0.85);
    body = JSON.stringify({ base: 'EUR', rates: { GBP: 0.9 } });
    expect((await src.rates()).rate('EUR', 'GBP')).toBe(0.9);
    fail = true;
    expect((await src.rates()).rate('EUR', 'GBP')).toBe(0.9);
    expect(calls).toBe(3);
  });

  it('every currency of the list is in the sandbox table', () => {
    for (const c of CURRENCIES) expect(rates.has(c as Currency)).toBe(true);
  });
});
