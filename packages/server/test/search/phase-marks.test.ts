/**
 * The search path's phase marks (`src/internal/phase-marks.ts`), which the getFare bench prints as the
 * breakdown of its figures: each write's send, commit and hand-over, per search, in order.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/internal/clock.ts';
import type { PhaseMark } from '../../src/internal/phase-marks.ts';
import { LocalNotifier } from '../../src/search/notifier.ts';
import type { Database } from '../../src/storage/database.ts';
import type { SearchableSupplier } from '../../src/suppliers/searchable.ts';
import { testDatabase } from '../helpers/db.ts';
import { bareEngine, futureDate } from './harness.ts';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

/** A supplier that answers (no offers) when the test says so. */
function heldSupplier(name: string) {
  let answer: () => void = () => {};
  let wasAsked: () => void = () => {};
  const asked = new Promise<void>((resolve) => {
    wasAsked = resolve;
  });
  const supplier: SearchableSupplier<unknown, unknown> = {
    name,
    search: () => {
      wasAsked();
      return new Promise((resolve) => {
        answer = () => resolve([]);
      });
    },
  };
  return { supplier, asked, answer: () => answer() };
}

it('marks each phase of a search in order: recorded, then per answer its write sent, committed and handed over', async () => {
  const marks: PhaseMark[] = [];
  const waiting: { phase: string; count: number; resolve: () => void }[] = [];
  const count = (phase: string) => marks.filter((x) => x.phase === phase).length;
  const onMark = (m: unknown) => {
    marks.push(m as PhaseMark);
    for (const w of waiting) if (count(w.phase) >= w.count) w.resolve();
  };
  /** Resolves once `n` marks of `phase` were published. */
  const seen = (phase: string, n: number) =>
    new Promise<void>((resolve) => {
      if (count(phase) >= n) resolve();
      else waiting.push({ phase, count: n, resolve });
    });
  subscribe('travel:phase', onMark);
  try {
    const a = heldSupplier('amadeus');
    const b = heldSupplier('duffel');
    const clock = new ManualClock(new Date());
    const engine = bareEngine({
      db: database.db,
      suppliers: [a.supplier, b.supplier],
      notifier: new LocalNotifier(),
      clock,
    });
    const started = await engine.start(
      'flight',
      { searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(30) }] },
      { userId: 'u1', companyId: null },
    );
    await Promise.all([a.asked, b.asked]);
    a.answer();
    await seen('handed', 1);
    b.answer();
    await seen('handed', 2);
    await engine.close();

    const own = marks.filter((m) => m.search === started.id);
    expect(own.map((m) => [m.phase, m.detail])).toEqual([
      ['recorded', undefined],
      ['answer', 'amadeus'],
      ['sent', 1],
      ['committed', 1],
      ['handed', 1],
      ['answer', 'duffel'],
      ['sent', 1],
      ['committed', 1],
      ['handed', 1],
    ]);
    // One time scale across processes, in order.
    const at = own.map((m) => m.at);
    expect(at).toEqual([...at].sort((x, y) => x - y));
    expect(Math.abs((at[0] as number) - Date.now())).toBeLessThan(60_000);
  } finally {
    unsubscribe('travel:phase', onMark);
  }
});
