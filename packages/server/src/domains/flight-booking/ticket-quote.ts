/**
 * A supplier's void/refund quote as the booking shows money (contract §6: the currency a booking asks for
 * is the currency of every price it shows). Shared by ticketing (the quote in the answer) and the payment
 * settlement (what the card gets back), so the two never disagree.
 */
import { type Currency, payableStepMinor } from '../../internal/money.ts';
import { type Money, shownMoney } from '../../search/exchange.ts';
import type { BookingRow } from './store.ts';

export interface SupplierMoney {
  amount_minor: number;
  currency: string;
}

export interface Quote {
  refund?: SupplierMoney | undefined;
  fee?: SupplierMoney | undefined;
}

/**
 * The customer's share of the supplier's refund, in the minor units of `base` (at most `base`): `base` times
 * refund / supplier total, so markup and conversion are included, a full void returns all of `base` and a
 * refund that keeps a fee returns the same proportion of the customer's price. Without a quote, all of it.
 * Rounded down to an amount the payment provider can move in `currency` (10 fils for KWD, BHD, OMR).
 */
export function customerShare(
  base: number,
  quote: Quote,
  supplierTotal: number | null,
  currency: string,
): number {
  const refund = quote.refund?.amount_minor;
  if (refund === undefined) return base;
  const total = quote.fee ? refund + quote.fee.amount_minor : (supplierTotal ?? refund);
  if (total <= 0 || refund >= total) return base;
  const step = payableStepMinor(currency);
  return Math.min(base, Math.floor((base * refund) / total / step) * step);
}

/** The quote in the booking's currency, with the supplier's own amounts and the booking's rate beside it. */
export interface ShownQuote {
  /** What the customer gets back of the booking's price: exactly what the payment settlement returns. */
  refund?: SupplierMoney;
  /** With a refund, the rest of the booking's price: what the customer pays for the change (the supplier's
   * fee, its share of markup and conversion included). Alone (a reissue), the change's price. */
  fee?: SupplierMoney;
  supplier_refund?: SupplierMoney;
  supplier_fee?: SupplierMoney;
  /** Units of the booking's currency per 1 of the supplier's (the booking's rate). */
  fx_rate?: number;
}

export function shownQuote(
  b: Pick<BookingRow, 'pricing' | 'supplier_total_minor' | 'supplier_currency' | 'fx_rate'>,
  quote: Quote,
): ShownQuote {
  if (!quote.refund && !quote.fee) return {};
  const total = b.pricing.total_minor;
  const currency = b.pricing.currency;
  const rate = Number(b.fx_rate) || 1;
  const out: ShownQuote = {};
  if (quote.refund) {
    const refund = customerShare(total, quote, b.supplier_total_minor, currency);
    out.refund = { currency, amount_minor: refund };
    out.supplier_refund = { ...quote.refund };
    if (quote.fee) out.fee = { currency, amount_minor: total - refund };
  } else if (quote.fee) {
    // A fee alone (a reissue's change price, paid on top of the booking): at the booking's rate when it
    // is in the booking's supplier currency. In the booking's own currency, or a third one (no rate here),
    // it stays as quoted.
    const from = quote.fee.currency;
    out.fee =
      from !== currency && from === b.supplier_currency
        ? shownMoney(quote.fee as Money, {
            currency: currency as Currency,
            from: from as Currency,
            fx_rate: rate,
          })
        : { ...quote.fee };
  }
  if (quote.fee) out.supplier_fee = { ...quote.fee };
  out.fx_rate = rate;
  return out;
}
