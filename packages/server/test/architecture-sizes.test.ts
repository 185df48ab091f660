/**
 * Files a newcomer can hold (issue #29): the size of the server's source files, in lines, against the
 * anchors' band (docs/architecture.md, "Files over 400 lines"). A file over 400 lines passes only when
 * that section names it with its reason; a named file that no longer is over 400 lines fails too, so the
 * list can only shrink.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const ARCHITECTURE = fileURLToPath(new URL('../../../docs/architecture.md', import.meta.url));

const MEDIAN_AT_MOST = 120;
const P90_AT_MOST = 300;
const LONG = 400;
const SECTION = '## Files over 400 lines';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** Lines as `wc -l` counts them (a final line without a newline still counts). */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** The nearest-rank percentile (`q` in 0..1) of ascending `sorted`. */
function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1] as number;
}

/**
 * The files the "Files over 400 lines" section names: the first `path` in backticks of each list item,
 * relative to packages/server/src.
 */
function exemptFiles(markdown: string): string[] {
  const start = markdown.indexOf(`\n${SECTION}\n`);
  if (start < 0) return [];
  const rest = markdown.slice(start + SECTION.length + 2);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const named: string[] = [];
  for (const line of section.split('\n')) {
    const m = /^- `([^`]+\.ts)`/.exec(line);
    if (m) named.push(m[1] as string);
  }
  return named;
}

const sizes = sourceFiles(SRC)
  .map((p) => ({
    path: relative(SRC, p).replaceAll('\\', '/'),
    lines: lineCount(readFileSync(p, 'utf8')),
  }))
  .sort((a, b) => a.lines - b.lines);
const lines = sizes.map((s) => s.lines);
const exempt = exemptFiles(readFileSync(ARCHITECTURE, 'utf8'));

describe('source file sizes (docs/architecture.md, "Files over 400 lines")', () => {
  it('counts and ranks lines as wc -l does', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5)).toBe(5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(
      exemptFiles(`# A\n${SECTION}\n\n- \`a/b.ts\` (410): why.\n- not a file\n\n## Next\n- \`c.ts\``),
    ).toEqual(['a/b.ts']);
    // A parser that found nothing would pass every rule below.
    expect(sizes.length).toBeGreaterThan(200);
  });

  it(`the median file is at most ${MEDIAN_AT_MOST} lines and the 90th percentile at most ${P90_AT_MOST}`, () => {
    expect({ median: percentile(lines, 0.5), p90: percentile(lines, 0.9) }).toEqual({
      median: Math.min(percentile(lines, 0.5), MEDIAN_AT_MOST),
      p90: Math.min(percentile(lines, 0.9), P90_AT_MOST),
    });
  });

  it(`every file over ${LONG} lines is named with its reason, and every named file still is that long`, () => {
    const long = sizes.filter((s) => s.lines > LONG).map((s) => s.path);
    expect(long.filter((p) => !exempt.includes(p))).toEqual([]);
    expect(exempt.filter((p) => !long.includes(p))).toEqual([]);
  });
});
