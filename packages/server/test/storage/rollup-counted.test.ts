/**
 * The statuses a report counts live twice: `COUNTED` in flight-booking/revenue.ts (the edge days, read from
 * flight_bookings) and its copy in migration 0240 (the rollups' triggers). A change to one alone would
 * make the reports' whole days and edge days disagree; changing the set needs a new migration that
 * replaces the triggers and rebuilds the rollups (docs/decisions/0008-report-rollups.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const statuses = (file: string) => {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const m = /const COUNTED = [^;]*?not in \(([^)]*)\)/.exec(text);
  if (!m?.[1]) throw new Error(`no COUNTED in ${file}`);
  return m[1].split(',').map((s) => s.trim().replace(/^'|'$/g, ''));
};

describe('the counted statuses', () => {
  it('are the same in the reports and in the rollups migration', () => {
    const reports = statuses('../../src/domains/flight-booking/revenue.ts');
    expect(reports).toContain('initiated');
    expect(statuses('../../src/storage/migrations/0240-booking-rollups.ts')).toEqual(reports);
  });
});
