/**
 * Searches whose process died mid fan-out. The process that starts a search is the only writer of its
 * log, so if it is killed (kill -9, OOM, power loss) the session would stay `in_progress` and every
 * reader, on any process, would wait for a `done` that never comes. Each search therefore gets a
 * durable deadline job, committed with the session: every supplier call is bounded by its own
 * `timeout_ms`, so a live owner always finishes before the longest of them plus a grace period, and the
 * owner deletes the job when it writes `done`. A job that still runs means the owner is gone (or wedged):
 * whichever process's job runner claims it closes the log the way the engine would, with the missing
 * suppliers `failed`, and notifies, so readers everywhere get their terminal event.
 */
import type { Clock } from '../internal/clock.ts';
import type { JobHandler } from '../jobs/runner.ts';
import type { Logger } from '../kernel/types.ts';
import type { Db } from '../storage/schema.ts';
import { insertEvents, type LogEvent } from './event-log.ts';
import type { SearchNotifier } from './notifier.ts';
import { isFinal } from './session-store.ts';
import { parseJson, type SearchStatus, type SupplierOutcome, searchDb } from './tables.ts';

export const SEARCH_DEADLINE_QUEUE = 'search.deadline';

/** SEARCH_ORPHAN_GRACE_SECONDS default: room for the owner's last writes after its slowest supplier. */
export const DEFAULT_ORPHAN_GRACE_MS = 10_000;

export interface DeadlinePayload {
  search_id: string;
}

/** When a search whose owner is alive has certainly finished. */
export function searchDeadline(
  startedAt: Date,
  supplierTimeoutsMs: readonly number[],
  graceMs: number,
): Date {
  return new Date(startedAt.getTime() + Math.max(0, ...supplierTimeoutsMs) + graceMs);
}

export function finalStatus(outcomes: readonly SupplierOutcome[]): SearchStatus {
  const ok = outcomes.filter((o) => o === 'completed').length;
  if (ok === outcomes.length) return 'completed';
  return ok === 0 ? 'failed' : 'partial';
}

/** The two events that end every search log, whoever writes them. */
export function closingEvents(lastSeq: number, status: SearchStatus, totalOffers: number): LogEvent[] {
  return [
    {
      seq: lastSeq + 1,
      event: 'status_update',
      data: { status: status === 'failed' ? 'failed' : 'completed' },
    },
    { seq: lastSeq + 2, event: 'done', data: { status, total_offers: totalOffers } },
  ];
}

export interface SweepDeps {
  db: Db;
  notifier: SearchNotifier;
  clock: Clock;
  log?: Logger;
}

/**
 * Closes the log of a search that is past its deadline and not final; returns the final status, or
 * undefined when there was nothing to do (finished meanwhile, or gone). Holds the session row lock, as
 * the engine's appends do, so a late owner and the sweeper never both write the end of one log.
 */
export async function finishAbandoned(deps: SweepDeps, searchId: string): Promise<SearchStatus | undefined> {
  const status = await deps.db.transaction().execute(async (kt) => {
    const trx = searchDb(kt);
    const s = await trx
      .selectFrom('search_sessions')
      .select(['status', 'suppliers', 'total_offers'])
      .where('id', '=', searchId)
      .forUpdate()
      .executeTakeFirst();
    if (!s || isFinal(s.status)) return undefined;
    const log = await trx
      .selectFrom('search_events')
      .select(['seq', 'event', 'data'])
      .where('search_id', '=', searchId)
      .orderBy('seq')
      .execute();
    let seq = log.at(-1)?.seq ?? 0;
    const outcomes = new Map<string, SupplierOutcome>();
    for (const e of log) {
      if (e.event !== 'supplier_done') continue;
      const d = parseJson<{ supplier: string; status: SupplierOutcome }>(e.data);
      outcomes.set(d.supplier, d.status);
    }
    // A supplier's offers commit with its supplier_done, so one without it has no offers in the log.
    const events: LogEvent[] = [];
    for (const supplier of parseJson<string[]>(s.suppliers)) {
      if (outcomes.has(supplier)) continue;
      outcomes.set(supplier, 'failed');
      events.push({
        seq: ++seq,
        event: 'supplier_done',
        data: { supplier, status: 'failed', offer_count: 0 },
      });
    }
    const final = finalStatus([...outcomes.values()]);
    events.push(...closingEvents(seq, final, s.total_offers));
    await insertEvents(trx, searchId, events);
    await trx
      .updateTable('search_sessions')
      .set((eb) => ({
        status: final,
        finished_at: deps.clock.now(),
        completed_suppliers: eb('completed_suppliers', '+', events.length - 2),
      }))
      .where('id', '=', searchId)
      .execute();
    return final;
  });
  if (status) {
    deps.log?.warn(
      { search_id: searchId, status },
      'search abandoned by its process; closed at its deadline',
    );
    await deps.notifier
      .publish(searchId)
      .catch((err) => deps.log?.warn({ err, search_id: searchId }, 'search notify failed'));
  }
  return status;
}

/** Register with the job runner: `new JobRunner({ handlers: { ...searchJobHandlers(deps) } })`. */
export const searchJobHandlers = (deps: SweepDeps): Record<string, JobHandler> => ({
  [SEARCH_DEADLINE_QUEUE]: async (job) => {
    await finishAbandoned(deps, (job.payload as DeadlinePayload).search_id);
  },
});
