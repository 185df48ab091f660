/**
 * Every write of the `jobs` table made outside the runner, as statements a caller composes (issue #29:
 * one owner per table). Each builder returns an unexecuted query: execute it in the transaction of the
 * change that needs it, or put it in that change's statement as a common table expression (the `…Each` /
 * `…When` forms are CTE bodies over another CTE's rows), so the job commits with the change in the same
 * round trip. The runner's own claims and outcomes stay in runner.ts.
 */
import { type Expression, type QueryCreator, type RawBuilder, sql } from 'kysely';
import { newId } from '../internal/ids.ts';
import type { KernelTables } from '../storage/schema.ts';
import { json } from '../storage/schema.ts';

type Writer = Pick<QueryCreator<KernelTables>, 'insertInto' | 'updateTable' | 'deleteFrom'>;

export interface NewJob {
  queue: string;
  payload: unknown;
  runAt: Date;
  /** At most one job with this key exists; enqueueing it again inserts nothing. */
  dedupeKey?: string | null;
  maxAttempts?: number;
}

/** A job per row of a CTE: each column an SQL expression that may read the row (`from`'s columns). */
export interface NewJobEach {
  queue: string;
  payload: Expression<unknown>;
  runAt: Date | Expression<Date>;
  dedupeKey?: Expression<string> | null;
  maxAttempts?: number;
  /** Default: a random UUID per row. */
  id?: Expression<string>;
}

const DEFAULT_MAX_ATTEMPTS = 5;

export const jobStatements = {
  /** Inserts the job (nothing on a dedupe-key conflict), returning its id. */
  enqueue(db: Pick<QueryCreator<KernelTables>, 'insertInto'>, j: NewJob) {
    return db
      .insertInto('jobs')
      .values({
        id: newId(),
        queue: j.queue,
        payload: json(j.payload),
        dedupe_key: j.dedupeKey ?? null,
        run_at: j.runAt,
        max_attempts: j.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id');
  },

  /**
   * CTE body: one job per row of the CTE `from` (none when it is empty), nothing on a dedupe-key
   * conflict; returns `id`.
   */
  enqueueEach(from: string, j: NewJobEach): RawBuilder<unknown> {
    return sql`(insert into jobs (id, queue, payload, dedupe_key, run_at, max_attempts)
    select (${j.id ?? sql`gen_random_uuid()::text`})::text, ${j.queue}::text, (${j.payload})::jsonb,
      (${j.dedupeKey ?? null})::text, (${j.runAt})::timestamptz, ${j.maxAttempts ?? DEFAULT_MAX_ATTEMPTS}::integer
    from ${sql.table(from)}
    on conflict (dedupe_key) do nothing
    returning id)`;
  },

  /**
   * The job with this dedupe key runs again from scratch (fresh attempts, this payload, at `runAt`), unless
   * it is running now: for a safety net re-armed after an earlier one finished.
   */
  rearm(db: Writer, dedupeKey: string, r: { payload: unknown; runAt: Date; now: Date }) {
    return db
      .updateTable('jobs')
      .set({
        status: 'queued',
        run_at: r.runAt,
        attempts: 0,
        last_error: null,
        locked_at: null,
        locked_by: null,
        payload: json(r.payload),
        updated_at: r.now,
      })
      .where('dedupe_key', '=', dedupeKey)
      .where('status', '!=', 'running');
  },

  /**
   * The queued job with this dedupe key runs at `runAt` instead (`onlyEarlier`: only when that brings it
   * forward). A job already running or finished is left alone.
   */
  reschedule(db: Writer, dedupeKey: string, runAt: Date, o: { now?: Date; onlyEarlier?: boolean } = {}) {
    let q = db
      .updateTable('jobs')
      .set({ run_at: runAt, locked_at: null, locked_by: null, updated_at: o.now ?? runAt })
      .where('dedupe_key', '=', dedupeKey)
      .where('status', '=', 'queued');
    if (o.onlyEarlier) q = q.where('run_at', '>', runAt);
    return q;
  },

  /**
   * The queued job with this dedupe key is no longer needed (its work was done inline, e.g. by the
   * request it backs up): marked done. A job already running ends by itself.
   */
  finishQueued(db: Writer, dedupeKey: string, now: Date) {
    return db
      .updateTable('jobs')
      .set({ status: 'done', last_error: null, updated_at: now })
      .where('dedupe_key', '=', dedupeKey)
      .where('status', '=', 'queued');
  },

  /** CTE body: `finishQueued`, only when the CTE `from` has a row (the change it backs up happened). */
  finishQueuedWhen(from: string, dedupeKey: string, now: Date): RawBuilder<unknown> {
    return sql`(update jobs set status = 'done', last_error = null, updated_at = ${now}::timestamptz
    where dedupe_key = ${dedupeKey}::text and status = 'queued' and exists (select 1 from ${sql.table(from)})
    returning id)`;
  },

  /** The queued job with this dedupe key is removed (its safety net is not needed any more). */
  dropQueued(db: Writer, dedupeKey: string) {
    return db.deleteFrom('jobs').where('dedupe_key', '=', dedupeKey).where('status', '=', 'queued');
  },

  /** CTE body: the queued job `id` removed, only when the CTE `from` has a row. */
  dropQueuedWhen(from: string, id: Expression<string> | string): RawBuilder<unknown> {
    return sql`(delete from jobs where id = ${id}::text and status = 'queued'
      and exists (select 1 from ${sql.table(from)}) returning id)`;
  },
};
