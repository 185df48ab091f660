/** Plain aligned columns; widths ignore ANSI colour codes so coloured cells still line up. */
import { formatMoney, isCurrency } from '@travel/sdk';
import { DEFAULT_TABLE_WIDTH } from './width.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escape sequences is the point.
const ANSI = /\x1b\[[0-9;]*m/g;

const visibleLength = (text: string) => text.replace(ANSI, '').length;

const GAP = 2;
/** A column is never squeezed below this (or its header's width, if wider). */
const MIN_COLUMN = 8;
/** Columns at most this wide are never squeezed. */
const KEEP_WHOLE = 14;
/** A word (no spaces) up to this long is cut across lines only when the table cannot fit otherwise. */
const KEEP_WORD = 24;
/** Below this width wrapping cannot help: a table is printed at its natural widths. */
const NARROW = 60;

/** `text` cut into lines of at most `width` characters, at spaces where it can, mid-word where it must. */
export function wrapCell(text: string, width: number): string[] {
  const plain = text.replace(ANSI, '');
  if (plain.length <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of plain.split(/\s+/).filter(Boolean)) {
    let rest = word;
    while (rest.length > 0) {
      const room = line ? width - line.length - 1 : width;
      if (rest.length <= room) {
        line = line ? `${line} ${rest}` : rest;
        rest = '';
      } else if (line && rest.length <= width) {
        lines.push(line);
        line = '';
      } else {
        const cut = line ? room : width;
        if (cut <= 0) {
          lines.push(line);
          line = '';
          continue;
        }
        lines.push(line ? `${line} ${rest.slice(0, cut)}` : rest.slice(0, cut));
        line = '';
        rest = rest.slice(cut);
      }
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Aligned columns that fit `maxWidth` (the terminal's width, or 100): when the natural widths are wider,
 * the widest columns give up room first and their cells wrap at spaces onto more lines (the rows stay
 * whole: nothing is cut off). Columns of at most 14 characters are never cut, words of up to 24 only
 * when the table cannot fit otherwise; on a pane narrower than 60 columns a table that cannot fit is
 * printed at its natural widths. Widths ignore ANSI colour codes.
 */
export function renderTable(headers: string[], rows: string[][], maxWidth = DEFAULT_TABLE_WIDTH): string[] {
  const widths = headers.map((header, i) =>
    Math.max(visibleLength(header), ...rows.map((row) => visibleLength(row[i] ?? ''))),
  );
  // Short columns (prices, codes) keep their width; a longer one gives up room down to its header and
  // its longest word (keys and references are not cut across lines), or, when that is still too wide,
  // down to its header (or 8).
  const floorOf = (keepWords: boolean) =>
    widths.map((w, i) => {
      if (w <= KEEP_WHOLE) return w;
      const cells = keepWords ? [headers[i] ?? '', ...rows.map((r) => r[i] ?? '')] : [headers[i] ?? ''];
      const longestWord = Math.max(
        ...cells.flatMap((c) => c.replace(ANSI, '').split(/\s+/)).map((x) => Math.min(KEEP_WORD, x.length)),
      );
      return Math.min(w, Math.max(MIN_COLUMN, longestWord));
    });
  const total = (list: number[]) => list.reduce((a, b) => a + b, 0) + GAP * Math.max(0, list.length - 1);
  const wordsKept = floorOf(true);
  const floor = total(wordsKept) <= maxWidth ? wordsKept : floorOf(false);
  // Too narrow even so (a 22-column pane): natural widths; the terminal wraps as it will.
  const limit = total(floor) > maxWidth && maxWidth < NARROW ? Number.POSITIVE_INFINITY : maxWidth;
  while (total(widths) > limit) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++)
      if ((widths[i] ?? 0) > (floor[i] ?? 0) && (widest === -1 || (widths[i] ?? 0) > (widths[widest] ?? 0)))
        widest = i;
    if (widest === -1) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell + ' '.repeat(Math.max(0, (widths[i] ?? 0) - visibleLength(cell))))
      .join(' '.repeat(GAP))
      .trimEnd();
  const wrapped = (cells: string[]) => {
    const parts = widths.map((w, i) => wrapCell(cells[i] ?? '', w));
    const height = Math.max(1, ...parts.map((p) => p.length));
    return Array.from({ length: height }, (_, k) => line(parts.map((p) => p[k] ?? '')));
  };
  return [...wrapped(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.flatMap(wrapped)];
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
