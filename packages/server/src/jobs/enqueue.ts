/** Jobs queued by a change (its transaction, or its statement as a CTE), through `jobStatements`. */
import type { QueryCreator } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import { systemClock } from '../internal/clock.ts';
import type { Db, KernelTables } from '../storage/schema.ts';
import { jobStatements } from './statements.ts';

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
  /** At most one job with this key exists; enqueueing it again is a no-op. */
  dedupeKey?: string;
}

/**
 * Adds a job; pass the transaction of the change that needs it, so both commit together, or a query
 * creator with that change as a data-modifying CTE (`db.with('x', insert…)`): one statement, one commit.
 * Returns its id, or undefined when a job with its dedupe key exists (statements.ts `jobStatements`).
 */
export async function enqueue(
  db: Pick<QueryCreator<KernelTables>, 'insertInto'>,
  queue: string,
  payload: unknown,
  opts: EnqueueOptions = {},
  clock: Clock = systemClock,
) {
  const row = await jobStatements
    .enqueue(db, {
      queue,
      payload,
      dedupeKey: opts.dedupeKey ?? null,
      runAt: opts.runAt ?? clock.now(),
      ...(opts.maxAttempts !== undefined ? { maxAttempts: opts.maxAttempts } : {}),
    })
    .executeTakeFirst();
  return row?.id;
}

/**
 * Enqueues a job that may exist already under its dedupe key: a finished one (done or failed) is re-armed
 * from scratch with this payload; one running now is left alone.
 */
export async function enqueueOrRearm(
  db: Db,
  queue: string,
  payload: unknown,
  opts: EnqueueOptions & { dedupeKey: string },
  clock: Clock = systemClock,
): Promise<void> {
  const runAt = opts.runAt ?? clock.now();
  const id = await enqueue(db, queue, payload, { ...opts, runAt }, clock);
  if (id) return;
  await jobStatements.rearm(db, opts.dedupeKey, { payload, runAt, now: clock.now() }).execute();
}

/**
 * The queued job with this dedupe key is no longer needed (its work was done inline, e.g. by the request
 * it backs up): marked done. A job already running ends by itself.
 */
export async function finishQueued(db: Db, dedupeKey: string, now: Date): Promise<void> {
  await jobStatements.finishQueued(db, dedupeKey, now).execute();
}
