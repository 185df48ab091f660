/**
 * The order-refresh job (issue 30): every `SCHEDULE_CHANGE_SCAN_MINUTES` one run, whatever the number of
 * processes (the job's dedupe key names its slot), re-reads the supplier order of every watched booking
 * whose flights are still ahead and records the changes it finds (`detect.ts`). A supplier failure on one
 * booking is logged and the run goes on; the next run tries again.
 */
import type { Clock } from '../../../internal/clock.ts';
import { enqueue, type JobHandler } from '../../../jobs/runner.ts';
import type { Db } from '../../../storage/schema.ts';
import type { BookingDeps } from '../deps.ts';
import { bookingDb } from '../tables.ts';
import { detectScheduleChange, WATCHED_STATUSES } from './detect.ts';

export const SCHEDULE_CHANGE_QUEUE = 'schedule_changes.scan';
const PAGE = 100;
/** A flight is still ahead until a day after its local departure time (local times carry no offset). */
const DAY_MS = 86_400_000;

/** Queues the run of the current (`now`) or the next (`next`) slot of `intervalMs`. */
export async function scheduleScheduleChangeScan(
  db: Db,
  clock: Clock,
  intervalMs: number,
  when: 'now' | 'next',
): Promise<void> {
  const t = clock.now().getTime();
  const slot = (Math.floor(t / intervalMs) + (when === 'next' ? 1 : 0)) * intervalMs;
  await enqueue(
    db,
    SCHEDULE_CHANGE_QUEUE,
    {},
    {
      dedupeKey: `${SCHEDULE_CHANGE_QUEUE}:${new Date(slot).toISOString()}`,
      runAt: new Date(when === 'now' ? t : slot),
      maxAttempts: 3,
    },
    clock,
  );
}

/** One pass over the watched bookings; returns how many were read and how many changes were found. */
export async function scanScheduleChanges(
  d: BookingDeps,
  signal?: AbortSignal,
): Promise<{ read: number; changed: number }> {
  let after = 0;
  let read = 0;
  let changed = 0;
  const horizon = new Date(d.clock.now().getTime() - DAY_MS).toISOString().slice(0, 19);
  for (;;) {
    const page = await bookingDb(d.db)
      .selectFrom('flight_bookings')
      .select(['id', 'flights'])
      .where('status', 'in', [...WATCHED_STATUSES])
      .where('supplier_order_ref', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const row of page) {
      after = Number(row.id);
      const flights = (typeof row.flights === 'string' ? JSON.parse(row.flights) : row.flights) as {
        departure_at?: string;
      }[];
      if (!flights.some((f) => String(f.departure_at ?? '') > horizon)) continue;
      read += 1;
      try {
        if (await detectScheduleChange(d, after, signal ? { signal } : undefined)) changed += 1;
      } catch (err) {
        d.logger?.warn({ err, booking_id: after }, 'schedule change check failed');
      }
    }
    if (page.length < PAGE || signal?.aborted) break;
  }
  return { read, changed };
}

export function scheduleChangeJobHandlers(d: BookingDeps, intervalMs: number): Record<string, JobHandler> {
  return {
    [SCHEDULE_CHANGE_QUEUE]: async (job) => {
      try {
        const r = await scanScheduleChanges(d, job.signal);
        d.logger?.info(r, 'schedule change scan');
      } finally {
        await scheduleScheduleChangeScan(d.db, d.clock, intervalMs, 'next');
      }
    },
  };
}
