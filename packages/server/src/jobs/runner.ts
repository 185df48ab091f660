import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import { systemClock } from '../internal/clock.ts';
import { jobsLeaseMs } from '../internal/config.ts';
import { newId } from '../internal/ids.ts';
import type { Logger } from '../internal/logger.ts';
import { observeJob } from '../observability/job-scope.ts';
import { isConnectionError } from '../storage/connection-errors.ts';
import type { Db } from '../storage/schema.ts';

export { enqueue, enqueueOrRearm, finishQueued } from './enqueue.ts';

export interface Job<P = unknown> {
  id: string;
  queue: string;
  payload: P;
  attempts: number;
  maxAttempts: number;
  /** Aborted when the runner stops and its grace period is over: pass it to supplier calls. */
  signal: AbortSignal;
}

export type JobHandler = (job: Job) => Promise<void>;

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
  /**
   * A claimed job is a lease: its worker renews `locked_at` every third of this while the job runs, so a
   * running job whose worker went silent this long (its process died) is requeued by the next poll of any
   * process. Default 30 s (`JOBS_LEASE_MS`).
   */
  lockTimeoutMs?: number;
  /** Polling backoff after a failed poll (database unreachable): pollMs doubling up to this. */
  pollBackoffMaxMs?: number;
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
  #abort = new AbortController();
  /** Consecutive failed polls (the database is unreachable); 0 when healthy. */
  #failures = 0;
  /**
   * Set when a poll failed (the database went away): jobs this worker claimed may then be left `running`
   * (their outcome could not be written, or the claim committed but its answer was lost) and would wait
   * for lockTimeoutMs. A batch is always finished before the next poll, so at the start of a poll this
   * worker holds none: the first poll that reaches the database again requeues every `running` job
   * locked by it.
   */
  #suspect = false;
  #stopping: Promise<void> | undefined;
  /** A wake-up arrived while a batch ran: poll again at once after it. */
  #woken = false;
  /** Starts the next poll now (set by `start`). */
  #tickNow: (() => void) | undefined;

  constructor(o: RunnerOptions) {
    this.#o = {
      clock: systemClock,
      workerId: `${hostname()}:${process.pid}:${newId().slice(0, 8)}`,
      pollMs: 1000,
      batchSize: 5,
      backoffBaseMs: 1000,
      backoffMaxMs: 15 * 60_000,
      lockTimeoutMs: jobsLeaseMs(),
      pollBackoffMaxMs: 5000,
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
    if (this.#suspect) {
      await db
        .updateTable('jobs')
        // An outage is not the job's failure: the attempt it was claimed for is given back.
        .set({
          status: 'queued',
          locked_at: null,
          locked_by: null,
          run_at: now,
          updated_at: now,
          attempts: sql`greatest(attempts - 1, 0)`,
        })
        .where('status', '=', 'running')
        .where('locked_by', '=', workerId)
        .execute();
      this.#suspect = false;
    }
    await db
      .updateTable('jobs')
      .set({ status: 'queued', locked_at: null, locked_by: null })
      .where('status', '=', 'running')
      .where('locked_at', '<', new Date(now.getTime() - this.#o.lockTimeoutMs))
      .execute();
    const claimed = await this.#watch(() =>
      db.transaction().execute(async (trx) => {
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
      }),
    );
    // Renew the lease on the claimed jobs not settled yet while the batch runs (a handler may wait on a
    // supplier for longer than the lease); a process that dies stops renewing, so others requeue them.
    const unsettled = new Set(claimed.map((r) => r.id));
    const renew = setInterval(
      () => {
        if (unsettled.size === 0) return;
        db.updateTable('jobs')
          .set({ locked_at: clock.now() })
          .where('status', '=', 'running')
          .where('locked_by', '=', workerId)
          .where('id', 'in', [...unsettled])
          .execute()
          .catch(() => {
            // The database is away: the outage path requeues this worker's claims once it is back.
          });
      },
      Math.max(50, Math.floor(this.#o.lockTimeoutMs / 3)),
    );
    renew.unref();
    try {
      await this.#runClaimed(claimed, unsettled);
    } finally {
      clearInterval(renew);
    }
    return claimed.length;
  }

  async #runClaimed(
    claimed: Array<{ id: string; queue: string; payload: unknown; attempts: number; max_attempts: number }>,
    unsettled: Set<string>,
  ): Promise<void> {
    const { handlers } = this.#o;
    for (const row of claimed) {
      const job: Job = {
        id: row.id,
        queue: row.queue,
        payload: row.payload,
        attempts: row.attempts,
        maxAttempts: row.max_attempts,
        signal: this.#abort.signal,
      };
      let failure: unknown;
      let ok = false;
      try {
        const handler = handlers[row.queue];
        if (!handler) throw new Error(`no handler for queue ${row.queue}`);
        await observeJob(job, this.#o.log, () => handler(job));
        ok = true;
      } catch (err) {
        failure = err;
      }
      // If the outcome cannot be written, the job runs again once the database is back.
      await this.#watch(() => this.#settle(row, ok, failure));
      unsettled.delete(row.id);
    }
  }

  /** Runs `fn`; when it fails, this worker's claims are suspect until a poll gets through again. */
  async #watch<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      this.#suspect = true;
      throw err;
    }
  }

  async #settle(
    row: { id: string; queue: string; attempts: number; max_attempts: number },
    ok: boolean,
    err: unknown,
  ): Promise<void> {
    const { db, clock } = this.#o;
    if (ok) {
      await db
        .updateTable('jobs')
        .set({ status: 'done', locked_at: null, last_error: null, updated_at: clock.now() })
        .where('id', '=', row.id)
        .execute();
      return;
    }
    const at = clock.now();
    if (isConnectionError(err)) {
      // The database went away under the job, then came back: run it again soon, attempt given back.
      await db
        .updateTable('jobs')
        .set({
          status: 'queued',
          run_at: new Date(at.getTime() + this.#o.backoffBaseMs),
          locked_at: null,
          locked_by: null,
          attempts: sql`greatest(attempts - 1, 0)`,
          last_error: String((err as Error)?.message ?? err).slice(0, 2000),
          updated_at: at,
        })
        .where('id', '=', row.id)
        .execute();
      return;
    }
    const last = row.attempts >= row.max_attempts;
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

  /** Delay before the next poll: pollMs, or after failed polls pollMs doubling up to pollBackoffMaxMs. */
  #nextPollMs(ran: number): number {
    if (this.#failures > 0)
      return Math.min(this.#o.pollBackoffMaxMs, this.#o.pollMs * 2 ** (this.#failures - 1));
    return ran === this.#o.batchSize ? 0 : this.#o.pollMs;
  }

  /**
   * New work was committed (a NOTIFY, e.g. a webhook delivery; events/wake.ts): poll now instead of at
   * the next interval, or right after the batch in hand. Nothing while stopped or backing off an outage.
   */
  wake(): void {
    if (this.#stopped || this.#failures > 0) return;
    if (this.#timer) this.#tickNow?.();
    else this.#woken = true;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#stopping = undefined;
    this.#abort = new AbortController();
    const tick = async () => {
      this.#timer = undefined;
      if (this.#stopped) return;
      const poll = this.runOnce().then(
        (n) => {
          if (this.#failures > 0) this.#o.log?.info({ failed_polls: this.#failures }, 'job runner resumed');
          this.#failures = 0;
          return n;
        },
        (err: unknown) => {
          // One line per outage, not one per poll.
          if (this.#failures === 0) this.#o.log?.error({ err }, 'job poll failed; backing off');
          this.#failures += 1;
          return 0;
        },
      );
      this.#running = poll;
      const n = await poll;
      const woken = this.#woken;
      this.#woken = false;
      if (!this.#stopped) this.#timer = setTimeout(tick, woken ? 0 : this.#nextPollMs(n));
    };
    this.#tickNow = () => {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(tick, 0);
    };
    this.#timer = setTimeout(tick, 0);
  }

  /**
   * Stops polling and waits for the batch in hand; after `graceMs` its jobs' signal is aborted and the
   * wait ends (a job cut short is requeued when its lock times out, as after a crash).
   */
  stop(opts: { graceMs?: number } = {}): Promise<void> {
    // A second call (the runtime's close after main's drain) gets the first one's outcome.
    this.#stopping ??= this.#stop(opts);
    return this.#stopping;
  }

  async #stop(opts: { graceMs?: number }): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    const running = this.#running;
    if (!running) return;
    if (opts.graceMs === undefined) {
      await running;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => {
      timer = setTimeout(() => r('late'), opts.graceMs);
    });
    const outcome = await Promise.race([running.then(() => 'done' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      this.#abort.abort(new Error('job runner stopping'));
      this.#o.log?.warn({}, 'jobs still running at the end of the grace period: aborted');
    }
  }
}
