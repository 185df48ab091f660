import { randomUUID } from 'node:crypto';
import { type QueryCreator, type RawBuilder, sql } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import type { Db, KernelTables } from '../storage/schema.ts';
import { json } from '../storage/schema.ts';

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type ClaimOutcome =
  | { kind: 'claimed'; owner: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

export interface IdempotencyStoreOptions {
  db: Db;
  clock: Clock;
  /**
   * How long a claim lives without a heartbeat. The holder renews it every third of this while its
   * request runs, so only a dead (or frozen) process lets it lapse; another request may then take it
   * over. Default 15 s (`IDEMPOTENCY_LEASE_SECONDS`).
   */
  leaseSeconds?: number;
  /** Keys are kept at least this long (contracts: 24 h). */
  retentionSeconds?: number;
}

export const DEFAULT_LEASE_SECONDS = 15;

/** How many final answers a store keeps in memory for replays (a few KB each). */
const ANSWERS_KEPT = 2000;

/** What a claim reads of a key that exists. */
interface KeyRow {
  request_hash: string;
  status: string;
  created_at: Date | string;
  response_status: number | null;
  response_body: unknown;
  response_headers: unknown;
}

/**
 * Idempotency keys in the database, so that they hold across processes sharing it. A claim is a lease
 * owned by one request (`lease_owner`): renewed by that request's heartbeat, taken over only once it
 * lapsed, and released or completed only by its owner's request.
 */
export class IdempotencyStore {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly leaseMs: number;
  readonly retentionMs: number;
  /** Final answers read from the database, by scope, oldest first (see `#remember`). */
  readonly #answers = new Map<string, { hash: string; createdAt: number; response: StoredResponse }>();

  constructor(opts: IdempotencyStoreOptions) {
    this.#db = opts.db;
    this.#clock = opts.clock;
    this.leaseMs = (opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000;
    this.retentionMs = (opts.retentionSeconds ?? 24 * 3600) * 1000;
  }

  /** How often a running request renews its lease: three times per lease. */
  get heartbeatMs(): number {
    return Math.max(100, Math.floor(this.leaseMs / 3));
  }

  /**
   * Claims `scope` for this request, or says why not, in one statement: the insert is atomic (primary
   * key), so of many concurrent claims exactly one wins, whatever the number of processes; when the key
   * exists, the same statement returns its row instead (a replay of a stored answer is that one
   * statement, nothing written).
   */
  async claim(c: {
    scope: string;
    caller: string;
    operationId: string;
    key: string;
    hash: string;
  }): Promise<ClaimOutcome> {
    const now = this.#clock.now();
    const expiredBefore = new Date(now.getTime() - this.retentionMs);
    const known = this.#answers.get(c.scope);
    if (known) {
      if (known.createdAt >= expiredBefore.getTime()) {
        return known.hash === c.hash ? { kind: 'replay', response: known.response } : { kind: 'mismatch' };
      }
      this.#answers.delete(c.scope);
    }
    const lockedUntil = new Date(now.getTime() + this.leaseMs);
    const owner = randomUUID();
    // Both branches read the snapshot taken before the insert: a fresh claim returns only `claimed`, a
    // taken key only its row. Neither when another request inserted the key after that snapshot.
    const { rows } = await sql<KeyRow & { claimed: boolean }>`
      with ins as (
        insert into idempotency_keys
          (scope, caller, operation_id, idem_key, request_hash, status, created_at, locked_until, lease_owner)
        values (${c.scope}, ${c.caller}, ${c.operationId}, ${c.key}, ${c.hash}, 'in_progress', ${now},
          ${lockedUntil}, ${owner})
        on conflict (scope) do nothing
        returning scope)
      select true as claimed, null::text as request_hash, null::text as status,
        null::timestamptz as created_at, null::integer as response_status, null::jsonb as response_body,
        null::jsonb as response_headers
      from ins
      union all
      select false, request_hash, status, created_at, response_status, response_body, response_headers
      from idempotency_keys where scope = ${c.scope}`.execute(this.#db);
    const row = rows[0];
    if (row?.claimed) return { kind: 'claimed', owner };
    if (row && new Date(row.created_at).getTime() >= expiredBefore.getTime()) {
      return this.#existing(c, row, now);
    }
    if (row) {
      // An expired key is forgotten, so the key may be used anew.
      await this.#db
        .deleteFrom('idempotency_keys')
        .where('scope', '=', c.scope)
        .where('created_at', '<', expiredBefore)
        .execute();
      const inserted = await this.#db
        .insertInto('idempotency_keys')
        .values({
          scope: c.scope,
          caller: c.caller,
          operation_id: c.operationId,
          idem_key: c.key,
          request_hash: c.hash,
          status: 'in_progress',
          created_at: now,
          locked_until: lockedUntil,
          lease_owner: owner,
        })
        .onConflict((oc) => oc.column('scope').doNothing())
        .returning('scope')
        .executeTakeFirst();
      if (inserted) return { kind: 'claimed', owner };
    }
    // Another request claimed it after our snapshot: answer from its row.
    const other = await this.#db
      .selectFrom('idempotency_keys')
      .select([
        'request_hash',
        'status',
        'created_at',
        'response_status',
        'response_body',
        'response_headers',
      ])
      .where('scope', '=', c.scope)
      .executeTakeFirst();
    if (!other) return this.claim(c); // released before we read it: try again
    return this.#existing(c, other, now);
  }

  async #existing(c: { scope: string; hash: string }, row: KeyRow, now: Date): Promise<ClaimOutcome> {
    if (row.status === 'completed') {
      const response: StoredResponse = {
        status: row.response_status ?? 200,
        body: row.response_body ?? undefined,
        headers: (row.response_headers as Record<string, string> | null) ?? {},
      };
      this.#remember(c.scope, row, response);
      if (row.request_hash !== c.hash) return { kind: 'mismatch' };
      return { kind: 'replay', response };
    }
    if (row.request_hash !== c.hash) return { kind: 'mismatch' };
    // In progress: taken over only when its holder stopped renewing (its process died mid-request).
    // The handler then runs again; effects that may have happened are found by their write-ahead rows.
    const owner = randomUUID();
    const taken = await this.#db
      .updateTable('idempotency_keys')
      .set({ locked_until: new Date(now.getTime() + this.leaseMs), lease_owner: owner })
      .where('scope', '=', c.scope)
      .where('status', '=', 'in_progress')
      .where('locked_until', '<', now)
      .returning('scope')
      .executeTakeFirst();
    return taken ? { kind: 'claimed', owner } : { kind: 'in_progress' };
  }

  /**
   * The final answer kept in memory for `scope` when it was stored for a request of hash `hash` and the
   * key is still within its retention; else undefined (then `claim` decides, with its query if need be).
   * What `claim` would answer as a replay, without a query and without a promise.
   */
  knownAnswer(scope: string, hash: string): StoredResponse | undefined {
    const known = this.#answers.get(scope);
    if (!known || known.hash !== hash) return undefined;
    if (known.createdAt < this.#clock.now().getTime() - this.retentionMs) return undefined;
    return known.response;
  }

  /**
   * Keeps a final answer in memory, so the next replay of its key (or a reuse with another request) is
   * answered without a query. Only answers that never change once stored: a completed 2xx other than 202
   * (a money operation's 202 is rewritten or dropped when the provider settles, `money-ops.ts`), never an
   * error that a later version of the row could replace. It is forgotten with the key, at the end of the
   * retention. At most ANSWERS_KEPT, the oldest dropped first.
   */
  #remember(scope: string, row: KeyRow, response: StoredResponse): void {
    if (response.status < 200 || response.status >= 300 || response.status === 202) return;
    this.#answers.delete(scope);
    this.#answers.set(scope, {
      hash: row.request_hash,
      createdAt: new Date(row.created_at).getTime(),
      response,
    });
    if (this.#answers.size > ANSWERS_KEPT) {
      const oldest = this.#answers.keys().next().value;
      if (oldest !== undefined) this.#answers.delete(oldest);
    }
  }

  /** The heartbeat: extends the lease while `owner` still holds it; false once it was lost. */
  async renew(scope: string, owner: string): Promise<boolean> {
    const r = await this.#db
      .updateTable('idempotency_keys')
      .set({ locked_until: new Date(this.#clock.now().getTime() + this.leaseMs) })
      .where('scope', '=', scope)
      .where('status', '=', 'in_progress')
      .where('lease_owner', '=', owner)
      .returning('scope')
      .executeTakeFirst();
    return r !== undefined;
  }

  /** Whether a live request holds `scope` now (its lease has not lapsed). */
  async isHeld(scope: string, db: Db = this.#db): Promise<boolean> {
    return isLeaseHeld(db, scope, this.#clock.now());
  }

  /** Records the response; call with the transaction that holds the effect so both commit together. */
  async complete(scope: string, r: StoredResponse, trx: Db = this.#db): Promise<void> {
    await idempotencyStatements.storeAnswer(trx, scope, r, this.#clock.now()).execute();
  }

  /**
   * Forgets an in-progress claim whose request committed nothing, so a retry runs anew. Only the owner's:
   * a request whose lease was taken over leaves the new holder's claim alone.
   */
  async release(scope: string, owner?: string): Promise<void> {
    let q = this.#db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', scope)
      .where('status', '=', 'in_progress');
    if (owner !== undefined) q = q.where('lease_owner', '=', owner);
    await q.execute();
  }

  /**
   * Deletes keys past retention, at most `limit` per call so a backlog never holds a long lock (the
   * retention job, jobs/retention.ts, drains the rest); returns how many.
   */
  async purgeExpired(limit = 5000): Promise<number> {
    const cutoff = new Date(this.#clock.now().getTime() - this.retentionMs);
    const r = await sql`delete from idempotency_keys where ctid in (
        select ctid from idempotency_keys where created_at < ${cutoff} limit ${limit} for update skip locked)`.execute(
      this.#db,
    );
    return Number(r.numAffectedRows ?? 0);
  }
}

/** The columns that store a final answer. */
function completion(r: StoredResponse, now: Date) {
  return {
    status: 'completed' as const,
    response_status: r.status,
    response_body: r.body === undefined ? null : json(r.body),
    response_headers: json(r.headers),
    completed_at: now,
    lease_owner: null,
  };
}

/**
 * The writes of `idempotency_keys` a handler or a job makes besides the middleware's claim and completion
 * (issue #29: one owner per table), as statements it composes: execute one in the transaction of the
 * change, or put a `…When` form in the change's own statement as a common table expression, so the
 * answer commits with the effect in the same round trip.
 */
export const idempotencyStatements = {
  /** Stores `r` as the key's final answer. */
  storeAnswer(
    db: Pick<QueryCreator<KernelTables>, 'updateTable'>,
    scope: string,
    r: StoredResponse,
    now: Date,
  ) {
    return db.updateTable('idempotency_keys').set(completion(r, now)).where('scope', '=', scope);
  },

  /**
   * CTE body: `storeAnswer`, only when the CTE `from` has a row (the effect happened); for a handler that
   * stores its answer in the statement that makes its effect (then it says so: `ctx.idempotency.ownAnswer`).
   */
  storeAnswerWhen(from: string, scope: string, r: StoredResponse, now: Date): RawBuilder<unknown> {
    const c = completion(r, now);
    return sql`(update idempotency_keys set status = ${c.status}::text, response_status = ${c.response_status}::integer,
      response_body = ${c.response_body}::jsonb, response_headers = ${c.response_headers}::jsonb,
      completed_at = ${now}::timestamptz, lease_owner = null
    where scope = ${scope}::text and exists (select 1 from ${sql.table(from)})
    returning scope)`;
  },

  /**
   * A stored "pending" answer (its status one of `pending`) becomes the settled one, so a same-key retry
   * gets the truth; any other stored answer is left alone.
   */
  rewritePending(
    db: Pick<QueryCreator<KernelTables>, 'updateTable'>,
    scope: string,
    answer: { status: number; body?: unknown },
    pending: readonly number[],
  ) {
    return db
      .updateTable('idempotency_keys')
      .set({ response_status: answer.status, response_body: json(answer.body) })
      .where('scope', '=', scope)
      .where('status', '=', 'completed')
      .where('response_status', 'in', [...pending]);
  },

  /**
   * A stored "pending" answer whose effect did not happen is dropped, so a same-key retry runs anew
   * (contracts §3: a response that committed no effect is not kept).
   */
  dropPending(db: Pick<QueryCreator<KernelTables>, 'deleteFrom'>, scope: string, pending: readonly number[]) {
    return db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', scope)
      .where('status', '=', 'completed')
      .where('response_status', 'in', [...pending]);
  },
};

/** Whether a live request holds `scope` at `now` (for reconciliation: its effect may still be under way). */
export async function isLeaseHeld(db: Db, scope: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select('scope')
    .where('scope', '=', scope)
    .where('status', '=', 'in_progress')
    .where('locked_until', '>=', now)
    .executeTakeFirst();
  return row !== undefined;
}
