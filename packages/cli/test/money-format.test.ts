/** Money display in the CLI: the currency's ISO 4217 decimals from the contract table, and no ranking across currencies. */
import { CURRENCIES, formatMoney, minorUnits } from '@travel/sdk';
import { describe, expect, it } from 'vitest';
import { byPrice, money, priceColumns, supplierPriceNote } from '../src/ui/table.ts';
import { offerSummary, offerTable, rankOffers } from '../src/views/flight-offers.ts';
import { offer } from './helpers/data.ts';

const THREE = new Set(['BHD', 'KWD', 'OMR']);

describe('CLI money display', () => {
  it.each(CURRENCIES.map((c) => [c]))('%s: 123456 minor units show with the ISO 4217 decimals', (c) => {
    const e = THREE.has(c) ? 3 : 2;
    expect(minorUnits(c)).toBe(e);
    const shown = money(123_456, c);
    expect(shown).toBe(e === 3 ? `${c} 123.456` : `${c} 1,234.56`);
    expect(shown).toBe(formatMoney(123_456, c, 'en-US'));
    // Reading the display back gives the same minor units.
    expect(Math.round(Number(shown.slice(4).replaceAll(',', '')) * 10 ** e)).toBe(123_456);
  });

  it('KWD 55.000 shows as KWD 55.000, not KWD 550.00', () => {
    expect(money(55_000, 'KWD')).toBe('KWD 55.000');
    expect(money(5, 'OMR')).toBe('OMR 0.005');
    expect(money(-5, 'USD')).toBe('USD -0.05');
    expect(formatMoney(123_456, 'EUR', 'de-DE')).toBe('EUR 1.234,56');
  });

  it('an unknown currency is not guessed at', () => {
    expect(money(100, 'XYZ')).toBe('XYZ 100 (minor units)');
    expect(money(undefined, 'GBP')).toBe('-');
  });

  it('ranks by price within a currency and never compares bare numbers across currencies', () => {
    const gbp = { ...offer('g', 46_960), price: { ...offer('g', 46_960).price, currency: 'GBP' as const } };
    const usd1 = {
      ...offer('u1', 38_000),
      price: { ...offer('u1', 38_000).price, currency: 'USD' as const },
    };
    const usd2 = {
      ...offer('u2', 66_700),
      price: { ...offer('u2', 66_700).price, currency: 'USD' as const },
    };
    const gbp2 = {
      ...offer('g2', 40_000),
      price: { ...offer('g2', 40_000).price, currency: 'GBP' as const },
    };
    // Groups in order of first appearance, cheapest first inside each.
    expect(rankOffers([usd2, gbp, usd1, gbp2]).map((o) => o.offer_id)).toEqual(['u1', 'u2', 'g2', 'g']);
    expect(byPrice<typeof gbp>()([gbp, gbp2]).map((o) => o.offer_id)).toEqual(['g2', 'g']);
  });

  it('a converted offer shows the supplier original and the rate; an unconverted one does not', () => {
    const converted = {
      ...offer('c', 55_000),
      supplier_price: { amount_minor: 14_999, currency: 'EUR' },
      fx_rate: 0.3667,
    };
    converted.price = { ...converted.price, currency: 'KWD' as never };
    expect(supplierPriceNote(converted)).toBe('EUR 149.99 @ 0.3667');
    expect(offerSummary(converted as never)).toContain('KWD 55.000 (supplier EUR 149.99 @ 0.3667)');
    const plain = {
      ...offer('p', 40_000),
      supplier_price: { amount_minor: 40_000, currency: 'GBP' },
      fx_rate: 1,
    };
    expect(supplierPriceNote(plain)).toBe('');
    expect(priceColumns([plain]).headers).toEqual(['price']);
    expect(priceColumns([plain, converted]).headers).toEqual(['price', 'supplier price']);
    const table = offerTable([converted as never, plain as never]);
    expect(table[0]).toContain('supplier price');
    expect(table.join('\n')).toContain('EUR 149.99 @ 0.3667');
  });
});
