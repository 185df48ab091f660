/**
 * The one place a supplier's price becomes the price a caller sees (contracts.md §6): every offer of a
 * search, and every re-check of one (flight revalidation, hotel check-rate, transfer quote, booking),
 * passes through here after its adapter.
 *
 * - The currency the caller asked for is the currency of every amount shown. A supplier amount in another
 *   currency is converted at the platform's rate (internal/fx.ts); the supplier's own amount stays beside
 *   it as `supplier_price`, with the `fx_rate` used (1 when nothing was converted).
 * - Every amount shown is payable: rounded to the payment provider's step of the currency (10 fils for
 *   KWD, BHD, OMR), so that what is charged is exactly what was shown.
 * - A total is converted once and its parts are derived from it (`taxes = total - base`), so the parts
 *   always add up and the total is never more than half a step away from the exact conversion.
 * - The rate is locked with the offer: re-checks of a stored offer convert at the rate stored with it.
 */
import { exactConversion, type FxRates, FxUnavailable } from '../internal/fx.ts';
import { type Currency, toPayable } from '../internal/money.ts';
import type { FlightPrice } from '../suppliers/ports/flight.ts';
import type { CancellationPolicy, HotelOffer } from '../suppliers/ports/hotel.ts';
import type { TransferOffer } from '../suppliers/ports/transfer.ts';

export interface Exchange {
  /** The currency shown (the one the caller asked for). */
  currency: Currency;
  /** The supplier's currency. */
  from: Currency;
  /** Units of `currency` per 1 `from` (1 when they are the same). */
  fx_rate: number;
}

export interface Money {
  currency: Currency;
  amount_minor: number;
}

/** The exchange from `from` to `to` at today's rates; FxUnavailable when there is no rate. */
export function exchangeAt(rates: FxRates | null, from: Currency, to: Currency): Exchange {
  if (from === to) return { currency: to, from, fx_rate: 1 };
  if (!rates) throw new FxUnavailable(`no exchange rates to convert ${from} to ${to}`);
  return { currency: to, from, fx_rate: rates.rate(from, to) };
}

/** The exchange locked with a stored offer (its `fx_rate`), for a supplier amount in `from`. */
export function lockedExchange(offer: Record<string, unknown>, from: Currency): Exchange | null {
  const price = offer.price as { currency?: Currency } | undefined;
  const sp = offer.supplier_price as Money | undefined;
  const rate = offer.fx_rate;
  if (!price?.currency) return null;
  if (price.currency === from && (sp === undefined || sp.currency === from)) {
    return { currency: price.currency, from, fx_rate: 1 };
  }
  if (sp?.currency !== from || typeof rate !== 'number') return null;
  return { currency: price.currency, from, fx_rate: rate };
}

/**
 * A supplier amount as shown: converted at the exchange's rate and rounded once, half away from zero, to
 * the currency's payable step (the minor unit, or 10 fils for KWD, BHD, OMR).
 */
export function shown(minor: number, ex: Exchange): number {
  const exact = ex.from === ex.currency ? minor : exactConversion(minor, ex.from, ex.currency, ex.fx_rate);
  return toPayable(exact, ex.currency);
}

export function shownMoney(m: Money, ex: Exchange): Money {
  return { currency: ex.currency, amount_minor: shown(m.amount_minor, { ...ex, from: m.currency }) };
}

export function shownPolicies(list: readonly CancellationPolicy[], ex: Exchange): CancellationPolicy[] {
  return list.map((p) => ({ ...p, fee: shownMoney(p.fee, ex) }));
}

/** The FX fields of a public offer or booking. */
export function fxFields(supplier: Money, ex: Exchange): { supplier_price: Money; fx_rate: number } {
  return {
    supplier_price: { currency: supplier.currency, amount_minor: supplier.amount_minor },
    fx_rate: ex.fx_rate,
  };
}

/** A flight supplier price (no markup) in the shown currency; the markup is added by the caller. */
export function shownFlightPrice(p: FlightPrice, ex: Exchange): FlightPrice {
  const supplierTotal = p.base_minor + p.taxes_minor;
  const total = shown(supplierTotal, ex);
  const base = Math.min(total, shown(p.base_minor, ex));
  return {
    currency: ex.currency,
    base_minor: base,
    taxes_minor: total - base,
    markup_minor: 0,
    total_minor: total,
  };
}

/** A hotel offer as shown: prices and cancellation fees converted, with the supplier's total beside. */
export function shownHotelOffer(
  o: HotelOffer,
  ex: Exchange,
): HotelOffer & { supplier_price: Money; fx_rate: number } {
  const total = shown(o.price.total_minor, ex);
  const base = Math.min(total, shown(o.price.base_minor, ex));
  return {
    ...o,
    price: { currency: ex.currency, base_minor: base, taxes_minor: total - base, total_minor: total },
    cancellation_policies: shownPolicies(o.cancellation_policies, ex),
    ...fxFields({ currency: o.price.currency, amount_minor: o.price.total_minor }, ex),
  };
}

/** A transfer offer as shown. */
export function shownTransferOffer(
  o: TransferOffer,
  ex: Exchange,
): TransferOffer & { supplier_price: Money; fx_rate: number } {
  return {
    ...o,
    price: { currency: ex.currency, total_minor: shown(o.price.total_minor, ex) },
    cancellation_policies: shownPolicies(o.cancellation_policies, ex),
    ...fxFields({ currency: o.price.currency, amount_minor: o.price.total_minor }, ex),
  };
}

/**
 * Why a re-checked price differs from the one shown: the supplier's own amount moved (`supplier`), only
 * the exchange rate did (`rate`), both, or nothing (`null`).
 */
export function priceChangeCause(
  before: { supplier_amount_minor: number; fx_rate: number; total_minor: number },
  after: { supplier_amount_minor: number; fx_rate: number; total_minor: number },
): 'supplier' | 'rate' | 'supplier_and_rate' | null {
  if (before.total_minor === after.total_minor) return null;
  const supplier = before.supplier_amount_minor !== after.supplier_amount_minor;
  const rate = before.fx_rate !== after.fx_rate;
  if (supplier && rate) return 'supplier_and_rate';
  if (rate) return 'rate';
  return 'supplier';
}

/** `supplier_price` and `fx_rate` of a hotel or transport booking row (rows older than 0090: unconverted). */
export function bookingFx(r: Record<string, unknown>): { supplier_price: Money; fx_rate: number } {
  const currency = (r.supplier_currency as Currency | null | undefined) ?? (r.currency as Currency);
  const supplierTotal = r.supplier_total_minor;
  return {
    supplier_price: {
      currency,
      amount_minor:
        supplierTotal === null || supplierTotal === undefined ? Number(r.total_minor) : Number(supplierTotal),
    },
    fx_rate: r.fx_rate === null || r.fx_rate === undefined ? 1 : Number(r.fx_rate),
  };
}

/**
 * An amount the provider states for a booking (a cancellation fee), in the booking's currency at the rate
 * the booking was made at: a Hotelbeds fee in EUR on a booking made in GBP is shown and refunded in GBP.
 */
export function inBookingCurrency<M extends { currency: string; amount_minor: number }>(
  m: M,
  booking: object,
): M {
  const row = booking as Record<string, unknown>;
  const currency = row.currency as Currency;
  if (m.currency === currency) return m;
  const supplierCurrency = row.supplier_currency as Currency | null | undefined;
  const rate = row.fx_rate === null || row.fx_rate === undefined ? null : Number(row.fx_rate);
  if (supplierCurrency !== m.currency || rate === null) return m;
  return shownMoney(m as unknown as Money, {
    currency,
    from: m.currency as Currency,
    fx_rate: rate,
  }) as unknown as M;
}
