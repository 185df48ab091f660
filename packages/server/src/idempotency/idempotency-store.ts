import { sql } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import type { Db } from '../storage/schema.ts';
import { json } from '../storage/schema.ts';

export interface StoredResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export type ClaimOutcome =
  | { kind: 'claimed' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

export interface IdempotencyStoreOptions {
  db: Db;
  clock: Clock;
  /** How long a claimed key may stay in progress before another process may take it over. */
  lockSeconds?: number;
  /** Keys are kept at least this long (contracts: 24 h). */
  retentionSeconds?: number;
}

/** Idempotency keys in the database, so that they hold across processes sharing it. */
export class IdempotencyStore {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #lockMs: number;
  readonly retentionMs: number;

  constructor(opts: IdempotencyStoreOptions) {
    this.#db = opts.db;
    this.#clock = opts.clock;
    this.#lockMs = (opts.lockSeconds ?? 300) * 1000;
    this.retentionMs = (opts.retentionSeconds ?? 24 * 3600) * 1000;
  }

  /**
   * Claims `scope` for this request, or says why not. The insert is atomic (primary key), so of many
   * concurrent claims exactly one wins, whatever the number of processes.
   */
  async claim(c: {
    scope: string;
    caller: string;
    operationId: string;
    key: string;
    hash: string;
  }): Promise<ClaimOutcome> {
    const now = this.#clock.now();
    const lockedUntil = new Date(now.getTime() + this.#lockMs);
    // An expired key is forgotten, so the key may be used anew.
    await this.#db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', c.scope)
      .where('created_at', '<', new Date(now.getTime() - this.retentionMs))
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
      })
      .onConflict((oc) => oc.column('scope').doNothing())
      .returning('scope')
      .executeTakeFirst();
    if (inserted) return { kind: 'claimed' };

    const row = await this.#db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', c.scope)
      .executeTakeFirst();
    if (!row) return this.claim(c); // released between our insert and select: try again
    if (row.request_hash !== c.hash) return { kind: 'mismatch' };
    if (row.status === 'completed') {
      return {
        kind: 'replay',
        response: {
          status: row.response_status ?? 200,
          body: row.response_body ?? undefined,
          headers: (row.response_headers as Record<string, string> | null) ?? {},
        },
      };
    }
    // In progress: taken over only when its holder's lock lapsed (the process died mid-request).
    const taken = await this.#db
      .updateTable('idempotency_keys')
      .set({ locked_until: lockedUntil })
      .where('scope', '=', c.scope)
      .where('status', '=', 'in_progress')
      .where('locked_until', '<', now)
      .returning('scope')
      .executeTakeFirst();
    return taken ? { kind: 'claimed' } : { kind: 'in_progress' };
  }

  /** Records the response; call with the transaction that holds the effect so both commit together. */
  async complete(scope: string, r: StoredResponse, trx: Db = this.#db): Promise<void> {
    await trx
      .updateTable('idempotency_keys')
      .set({
        status: 'completed',
        response_status: r.status,
        response_body: r.body === undefined ? null : json(r.body),
        response_headers: json(r.headers),
        completed_at: this.#clock.now(),
      })
      .where('scope', '=', scope)
      .execute();
  }

  /** Forgets an in-progress claim whose request committed nothing, so a retry runs anew. */
  async release(scope: string): Promise<void> {
    await this.#db
      .deleteFrom('idempotency_keys')
      .where('scope', '=', scope)
      .where('status', '=', 'in_progress')
      .execute();
  }

  /** Deletes keys past retention; returns how many. */
  async purgeExpired(): Promise<number> {
    const cutoff = new Date(this.#clock.now().getTime() - this.retentionMs);
    const r = await sql`delete from idempotency_keys where created_at < ${cutoff}`.execute(this.#db);
    return Number(r.numAffectedRows ?? 0);
  }
}
