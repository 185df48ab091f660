/**
 * Money helpers over the contract's one currency table: every amount the API sends is an integer in the
 * currency's ISO 4217 minor unit (`amount_minor`, `total_minor`), and KWD, BHD and OMR have three decimals,
 * not two. Never divide by 100: use these.
 */
import {
  CURRENCIES,
  type Currency,
  minorUnits as exponentOf,
  isCurrency,
  toDecimalString,
} from '@travel/contract/currencies';

export type { Currency };
export { CURRENCIES, isCurrency };

/** The ISO 4217 minor-unit exponent of `currency`: 2 for GBP, 3 for KWD. Throws RangeError for a code the API does not accept. */
export function minorUnits(currency: string): number {
  return exponentOf(currency);
}

const formats = new Map<string, Intl.NumberFormat>();

/**
 * `amount_minor` of `currency` for people: `formatMoney(55000, 'KWD')` is `KWD 55.000`,
 * `formatMoney(123456, 'GBP', 'en-GB')` is `GBP 1,234.56`. Uses Intl.NumberFormat with exactly the
 * currency's decimals (`minimumFractionDigits` = its exponent) and the locale's digits and grouping; the
 * amount is formatted from its exact decimal text, so no float rounding creeps in.
 */
export function formatMoney(amountMinor: number, currency: string, locale?: string): string {
  const code = currency.toUpperCase();
  const e = exponentOf(code);
  const key = `${locale ?? ''}|${e}`;
  let nf = formats.get(key);
  if (!nf) {
    nf = new Intl.NumberFormat(locale, { minimumFractionDigits: e, maximumFractionDigits: e });
    formats.set(key, nf);
  }
  // Intl formats decimal strings exactly (ES2023); the cast keeps older lib typings happy.
  return `${code} ${nf.format(toDecimalString(amountMinor, code) as unknown as number)}`;
}
