/** Plain aligned columns; widths ignore ANSI colour codes so coloured cells still line up. */

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

/** Minor units as `GBP 123.45`. */
export function money(amountMinor: number | undefined, currency: string | undefined): string {
  if (amountMinor === undefined) return '-';
  return `${currency ?? ''} ${(amountMinor / 100).toFixed(2)}`.trim();
}

/** Minutes as `6h 35m`. */
export function duration(minutes: number | undefined): string {
  if (minutes === undefined) return '-';
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
