/**
 * A document a customer could be sent (e-ticket receipt, hotel voucher, transfer voucher), described once
 * and rendered twice: as terminal lines (`documentLines`) and as a PDF (`pdf.ts`). The builders in this
 * folder only decide what the document says.
 */
import { renderTable, wrapCell } from '../ui/table.ts';
import { DEFAULT_TABLE_WIDTH } from '../ui/width.ts';

/** `[label, value]`: aligned in two columns on the terminal and in the PDF. */
export type Pair = [string, string];

export interface DocumentSection {
  heading: string;
  pairs?: Pair[];
  /** Plain lines. */
  lines?: string[];
  table?: { headers: string[]; rows: string[][] };
}

export interface DocumentModel {
  /** e.g. `E-ticket receipt and itinerary`. */
  title: string;
  /** The references a customer quotes, right under the title. */
  subtitle: Pair[];
  sections: DocumentSection[];
  /** Small print at the end. */
  notes: string[];
}

/** The document as terminal lines: title, references, then each section with its table or lines. */
export function documentLines(doc: DocumentModel, width?: number): string[] {
  const out = [doc.title, '='.repeat(doc.title.length), ...pairLines(doc.subtitle)];
  for (const section of doc.sections) {
    out.push('', section.heading, '-'.repeat(section.heading.length));
    if (section.pairs) out.push(...pairLines(section.pairs));
    if (section.table) out.push(...renderTable(section.table.headers, section.table.rows, width));
    if (section.lines) out.push(...section.lines.flatMap((l) => wrapCell(l, width ?? DEFAULT_TABLE_WIDTH)));
  }
  // Small print wraps at the width like the tables (a note naming every time zone can be long).
  if (doc.notes.length > 0)
    out.push('', ...doc.notes.flatMap((n) => wrapCell(n, width ?? DEFAULT_TABLE_WIDTH)));
  return out;
}

/** The pairs that have a value (a missing reference or an empty field is left out, not shown as `-`). */
export function labelled(pairs: [string, string | null | undefined][]): Pair[] {
  return pairs.filter((p): p is Pair => p[1] !== undefined && p[1] !== null && p[1] !== '');
}

function pairLines(pairs: Pair[]): string[] {
  const width = Math.max(0, ...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${value}`);
}

const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
const DATE = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/**
 * A local date-time as the contract gives it (`2026-12-20T09:00`, no offset: already the local time at the
 * place) for people: `Sun, 20 Dec 2026, 09:00`. It is formatted as written, never shifted to another zone.
 */
export function localDateTime(value: string | null | undefined): string {
  if (!value) return '-';
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(value);
  if (!m) return value;
  const [, y, mo, d, h, mi] = m;
  const at = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0));
  return (h === undefined ? DATE : DATE_TIME).format(at);
}

/** A calendar date (`2026-12-20`) for people: `Sun, 20 Dec 2026`. */
export const localDate = (value: string | null | undefined): string =>
  localDateTime(value ? value.slice(0, 10) : value);
