import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import { systemClock } from '../internal/clock.ts';
import { newId } from '../internal/ids.ts';
import type { Logger } from '../kernel/types.ts';
import type { Db } from '../storage/schema.ts';
import { json } from '../storage/schema.ts';

export interface Job<P = unknown> {
  id: string;
  queue: string;
  payload: P;
  attempts: number;
  maxAttempts: number;
}

export type JobHandler = (job: Job) => Promise<void>;

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
  /** At most one job with this key exists; enqueueing it again is a no-op. */
  dedupeKey?: string;
}

/** Adds a job; pass the transaction of the change that needs it, so both commit together. */
export async function enqueue(
  db: Db,
  queue: string,
  payload: unknown,
  opts: EnqueueOptions = {},
  clock: Clock = systemClock,
) {
  const id = newId();
  const row = await db
    .insertInto('jobs')
    .values({
      id,
      queue,
      payload: json(payload),
      dedupe_key: opts.dedupeKey ?? null,
      run_at: opts.runAt ?? clock.now(),
      max_attempts: opts.maxAttempts ?? 5,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export interface RunnerOptions {
  db: Db;
  handlers: Record<string, JobHandler>;
  clock?: Clock;
  log?: Logger;
  workerId?: string;
  pollMs?: number;
  batchSize?: number;
  /** Backoff before attempt n+1: base * 2^(n-1), capped. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A running job whose worker went silent this long is considered abandoned and requeued. */
  lockTimeoutMs?: number;
}

/**
 * A durable job runner on the shared database: claims ready jobs with `FOR UPDATE SKIP LOCKED`, so any
 * number of processes can poll the same table without taking a job twice (PGlite, single-connection,
 * simply serializes). A failed job is retried with exponential backoff until max_attempts, then `failed`.
 */
export class JobRunner {
  readonly #o: Required<Omit<RunnerOptions, 'log'>> & { log?: Logger };
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #stopped = true;

  constructor(o: RunnerOptions) {
    this.#o = {
      clock: systemClock,
      workerId: `${hostname()}:${process.pid}:${newId().slice(0, 8)}`,
      pollMs: 1000,
      batchSize: 5,
      backoffBaseMs: 1000,
      backoffMaxMs: 15 * 60_000,
      lockTimeoutMs: 5 * 60_000,
      ...o,
    };
  }

  backoffMs(attempts: number): number {
    return Math.min(this.#o.backoffMaxMs, this.#o.backoffBaseMs * 2 ** Math.max(0, attempts - 1));
  }

  /** Claims and runs one batch of ready jobs; returns how many ran. Tests call it directly. */
  async runOnce(): Promise<number> {
    const { db, clock, handlers, workerId } = this.#o;
    const queues = Object.keys(handlers);
    if (queues.length === 0) return 0;
    const now = clock.now();
    await db
      .updateTable('jobs')
      .set({ status: 'queued', locked_at: null, locked_by: null })
      .where('status', '=', 'running')
      .where('locked_at', '<', new Date(now.getTime() - this.#o.lockTimeoutMs))
      .execute();
    const claimed = await db.transaction().execute(async (trx) => {
      const ready = await trx
        .selectFrom('jobs')
        .select(['id'])
        .where('status', '=', 'queued')
        .where('queue', 'in', queues)
        .where('run_at', '<=', now)
        .orderBy('run_at')
        .limit(this.#o.batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      if (ready.length === 0) return [];
      return trx
        .updateTable('jobs')
        .set({
          status: 'running',
          locked_at: now,
          locked_by: workerId,
          attempts: sql`attempts + 1`,
          updated_at: now,
        })
        .where(
          'id',
          'in',
          ready.map((r) => r.id),
        )
        .returning(['id', 'queue', 'payload', 'attempts', 'max_attempts'])
        .execute();
    });
    for (const row of claimed) {
      const job: Job = {
        id: row.id,
        queue: row.queue,
        payload: row.payload,
        attempts: row.attempts,
        maxAttempts: row.max_attempts,
      };
      try {
        const handler = handlers[row.queue];
        if (!handler) throw new Error(`no handler for queue ${row.queue}`);
        await handler(job);
        await db
          .updateTable('jobs')
          .set({ status: 'done', locked_at: null, last_error: null, updated_at: clock.now() })
          .where('id', '=', row.id)
          .execute();
      } catch (err) {
        const last = row.attempts >= row.max_attempts;
        const at = clock.now();
        await db
          .updateTable('jobs')
          .set({
            status: last ? 'failed' : 'queued',
            run_at: new Date(at.getTime() + this.backoffMs(row.attempts)),
            locked_at: null,
            locked_by: null,
            last_error: String((err as Error)?.message ?? err).slice(0, 2000),
            updated_at: at,
          })
          .where('id', '=', row.id)
          .execute();
        this.#o.log?.warn(
          { job: row.id, queue: row.queue, attempts: row.attempts, final: last, err },
          'job failed',
        );
      }
    }
    return claimed.length;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    const tick = async () => {
      if (this.#stopped) return;
      this.#running = this.runOnce().catch((err) => this.#o.log?.error({ err }, 'job poll failed'));
      const n = await this.#running;
      if (!this.#stopped) this.#timer = setTimeout(tick, n === this.#o.batchSize ? 0 : this.#o.pollMs);
    };
    this.#timer = setTimeout(tick, 0);
  }

  /** Stops polling and waits for the batch in hand. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }
}
