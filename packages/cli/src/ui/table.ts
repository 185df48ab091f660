/** Plain aligned columns; widths ignore ANSI colour codes so coloured cells still line up. */
import { formatMoney, isCurrency } from '@travel/sdk';

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escape sequences is the point.
const ANSI = /\x1b\[[0-9;]*m/g;

const visibleLength = (text: string) => text.replace(ANSI, '').length;

export function renderTable(headers: string[], rows: string[][]): string[] {
  const widths = headers.map((header, i) =>
    Math.max(visibleLength(header), ...rows.map((row) => visibleLength(row[i] ?? ''))),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell + ' '.repeat(Math.max(0, (widths[i] ?? 0) - visibleLength(cell))))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** Nested values as indented `key: value` lines, for records without a dedicated view. */
export function renderRecord(value: unknown, indent = ''): string[] {
  if (value === null || typeof value !== 'object') return [`${indent}${String(value)}`];
  const lines: string[] = [];
  const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(value);
  for (const [key, item] of entries) {
    if (item !== null && typeof item === 'object') {
      if (Array.isArray(item) && item.length === 0) lines.push(`${indent}${key}: []`);
      else lines.push(`${indent}${key}:`, ...renderRecord(item, `${indent}  `));
    } else lines.push(`${indent}${key}: ${item === null || item === undefined ? '-' : String(item)}`);
  }
  return lines;
}

/**
 * Minor units for people, through the SDK's formatMoney (Intl.NumberFormat with the currency's ISO 4217
 * decimals): `GBP 123.45`, `KWD 55.000`. A code outside the contract's list shows its bare integer.
 */
export function money(amountMinor: number | undefined, currency: string | undefined): string {
  if (amountMinor === undefined || amountMinor === null) return '-';
  if (!currency || !isCurrency(currency.toUpperCase()))
    return `${currency ?? ''} ${amountMinor} (minor units)`.trim();
  return formatMoney(amountMinor, currency);
}

/** What a converted price was at the supplier: `EUR 123.45 @ 0.853` (empty when nothing was converted). */
export function supplierPriceNote(offer: {
  price: { currency: string };
  supplier_price?: { amount_minor: number; currency: string } | null;
  fx_rate?: number | null;
}): string {
  const sp = offer.supplier_price;
  if (!sp || sp.currency === offer.price.currency) return '';
  return `${money(sp.amount_minor, sp.currency)}${offer.fx_rate ? ` @ ${offer.fx_rate}` : ''}`;
}

type Priced = Parameters<typeof supplierPriceNote>[0] & { price: { total_minor: number } };

/**
 * The price column(s) of an offer table: `price`, plus `supplier price` (the supplier's own amount and the
 * rate used) when any listed offer was converted from another currency.
 */
export function priceColumns<T extends Priced>(
  offers: readonly T[],
): { headers: string[]; cells: (o: T) => string[] } {
  const converted = offers.some((o) => supplierPriceNote(o) !== '');
  return {
    headers: converted ? ['price', 'supplier price'] : ['price'],
    cells: (o) => {
      const shown = money(o.price.total_minor, o.price.currency);
      return converted ? [shown, supplierPriceNote(o) || '-'] : [shown];
    },
  };
}

/**
 * Cheapest first by `total_minor`, but never across currencies: offers of another currency than the
 * first one seen keep their own group (in order of first appearance) instead of being compared by the
 * bare number. The server answers every offer in the currency asked for, so normally there is one group.
 */
export function byPrice<T extends { price: { currency: string; total_minor: number } }>(
  tieBreak: (a: T, b: T) => number = () => 0,
): (list: readonly T[]) => T[] {
  return (list) => {
    const rank = new Map<string, number>();
    for (const o of list) if (!rank.has(o.price.currency)) rank.set(o.price.currency, rank.size);
    return [...list].sort(
      (a, b) =>
        (rank.get(a.price.currency) ?? 0) - (rank.get(b.price.currency) ?? 0) ||
        a.price.total_minor - b.price.total_minor ||
        tieBreak(a, b),
    );
  };
}

/** Minutes as `6h 35m`. */
export function duration(minutes: number | undefined): string {
  if (minutes === undefined) return '-';
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
