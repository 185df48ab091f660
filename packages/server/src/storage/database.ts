import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../internal/logger.ts';
import { DatabaseUnavailableError, isConnectionError, markDatabaseError } from './connection-errors.ts';
import { migrate, migrationStatus } from './migrate.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { afterRetry, isStalePlan, statementName } from './prepared.ts';
import type { Db } from './schema.ts';
import {
  checkRoomForFresh,
  explainOpenFailure,
  StorageMonitor,
  type StorageState,
} from './storage-faults.ts';
import { tracedDialect } from './traced-dialect.ts';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Round-trip latency of a trivial query, for health checks. */
  ping(): Promise<number>;
  /** Whether the server is reachable as far as this process knows (always true on PGlite). */
  link(): LinkState;
  /** Whether writes fail for want of disk space (storage-faults.ts). */
  storage(): StorageState;
  /**
   * PGlite only: a consistent copy of the data directory (a tar), taken at a transaction boundary while
   * this process holds the one connection: no statement runs during it (backup.ts).
   */
  snapshot?(): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface LinkState {
  up: boolean;
  /** When the current outage began (ms since the epoch), or null while up. */
  downSince: number | null;
  lastError: string | null;
  /** Reconnect attempts made in the current outage. */
  attempts: number;
}

export interface DatabaseOptions {
  /** postgres://… uses a PostgreSQL server; otherwise embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string | undefined;
  /** PostgreSQL schema to live in (created if missing): lets parallel test files share one server. */
  schema?: string | undefined;
  poolSize?: number;
  migrate?: boolean;
  log?: Logger;
  /** What opening is doing, for a start-up that says so (creating the embedded database, migrating). */
  progress?: (message: string, fields?: Record<string, unknown>) => void;
  /** Reconnect backoff while the server is unreachable: base * 2^n, capped (default 100 ms .. 1 s). */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** A connection attempt that takes longer fails (default 5 s), so an unreachable host cannot hang requests. */
  connectTimeoutMs?: number;
  /** Called with the text of every statement sent to the database, BEGIN and COMMIT included (tests count round trips). */
  onStatement?: (sql: string) => void;
}

/**
 * The connection to a PostgreSQL server, and what this process knows about it. A server restart
 * (`pg_ctl restart`), a terminated backend or a network cut surfaces as an `error` on the pool or on a
 * checked-out client: pg emits it as an event, which kills the process unless something listens, so
 * every pool and client gets a listener that logs it and marks the link down. While down, queries fail
 * at once with `DatabaseUnavailableError` (503 `database_unavailable`) instead of each trying to
 * connect; one probe at a time retries with backoff (100 ms doubling to 1 s), and the first that gets
 * `select 1` through marks the link up again. pg-pool itself discards clients that errored, so
 * connections are re-established on demand once the server answers.
 */
class Link {
  readonly #pool: pg.Pool;
  readonly #log: Logger | undefined;
  readonly #baseMs: number;
  readonly #maxMs: number;
  #state: LinkState = { up: true, downSince: null, lastError: null, attempts: 0 };
  #timer: NodeJS.Timeout | undefined;
  #nextProbeAt = 0;
  #closed = false;

  constructor(pool: pg.Pool, o: DatabaseOptions) {
    this.#pool = pool;
    this.#log = o.log;
    this.#baseMs = o.reconnectBaseMs ?? 100;
    this.#maxMs = o.reconnectMaxMs ?? 1000;
  }

  state(): LinkState {
    return { ...this.#state };
  }

  /** A connection-class failure seen anywhere: mark down (once per outage) and start probing. */
  down(err: unknown): void {
    if (this.#closed) return;
    const message = (err as Error)?.message ?? String(err);
    if (!this.#state.up) {
      this.#state.lastError = message;
      return;
    }
    this.#state = { up: false, downSince: Date.now(), lastError: message, attempts: 0 };
    this.#log?.warn({ err }, 'database unreachable; answering 503 and reconnecting with backoff');
    this.#schedule();
  }

  /** Throws at once while down, so requests answer 503 without waiting on a dead server. */
  check(): void {
    if (this.#state.up) return;
    const wait = Math.max(0, this.#nextProbeAt - Date.now());
    throw new DatabaseUnavailableError('The database is unreachable; reconnecting.', wait / 1000);
  }

  #schedule(): void {
    if (this.#closed || this.#timer) return;
    const delay = Math.min(this.#maxMs, this.#baseMs * 2 ** this.#state.attempts);
    this.#nextProbeAt = Date.now() + delay;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#probe();
    }, delay);
    // Reconnecting must not keep a process alive that is otherwise done.
    this.#timer.unref();
  }

  async #probe(): Promise<void> {
    if (this.#closed || this.#state.up) return;
    this.#state.attempts += 1;
    try {
      const client = await this.#pool.connect();
      try {
        await client.query('select 1');
      } finally {
        client.release();
      }
      const downMs = Date.now() - (this.#state.downSince ?? Date.now());
      this.#state = { up: true, downSince: null, lastError: null, attempts: 0 };
      this.#log?.info({ down_ms: downMs }, 'database reachable again');
    } catch (err) {
      this.#state.lastError = (err as Error)?.message ?? String(err);
      this.#schedule();
    }
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/** Observes every error of `pool` and its clients; failing queries are marked as the database's. */
function watch(pool: pg.Pool, link: Link, log: Logger | undefined, storage: StorageMonitor): void {
  const onError = (err: Error) => {
    markDatabaseError(err);
    if (isConnectionError(err)) link.down(err);
    else log?.error({ err }, 'database connection error');
  };
  // An idle client's error (the server went away while nothing ran).
  pool.on('error', onError);
  pool.on('connect', (client) => {
    // A checked-out client's error: pg-pool listens only while the client is idle.
    client.on('error', onError);
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    const stale = new Map<string, number>();
    client.query = ((...args: unknown[]) => {
      const name = typeof args[0] === 'string' && args.length <= 2 ? statementName(args[0]) : undefined;
      const r = name ? named(query, stale, name, args[0] as string, args[1]) : query(...args);
      if (r && typeof (r as Promise<unknown>).then === 'function') {
        return (r as Promise<unknown>).then(
          (res) => {
            const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown })?.text;
            if (wrote(res as pg.QueryResult, text)) storage.wrote();
            return res;
          },
          (err: unknown) => {
            markDatabaseError(err);
            storage.error(err);
            if (isConnectionError(err)) link.down(err);
            throw err;
          },
        );
      }
      return r;
    }) as typeof client.query;
  });
}

/**
 * A result that shows the database found room to write: rows added (a delete may need none); an insert
 * inside a `with` answers as a SELECT, so the rows it returns count.
 */
const wrote = (res: pg.QueryResult | undefined, text: unknown) =>
  !!res &&
  ((res.command === 'INSERT' && (res.rowCount ?? 0) > 0) ||
    (typeof text === 'string' && /\binsert\s+into\b/i.test(text) && (res.rows?.length ?? 0) > 0));

/**
 * Runs a registered statement (`prepared.ts`) by name: parsed once per connection. When a migration
 * changed its result type under it, the server refuses the old plan; the statement is then parsed again
 * under a fresh name on this connection (the old one is left to the session) and run once more. Inside
 * a transaction that refusal has already aborted it, so the retry fails too and the original error is
 * what the caller sees (`afterRetry`).
 */
async function named(
  query: (...a: unknown[]) => unknown,
  stale: Map<string, number>,
  name: string,
  text: string,
  values: unknown,
): Promise<unknown> {
  const generation = stale.get(name) ?? 0;
  try {
    return await query({ name: generation ? `${name}.${generation}` : name, text, values });
  } catch (err) {
    if (!isStalePlan(err)) throw err;
    stale.set(name, generation + 1);
    try {
      return await query({ name: `${name}.${generation + 1}`, text, values });
    } catch (again) {
      throw afterRetry(err, again);
    }
  }
}

/** The pool as Kysely sees it: connecting fails fast while the link is down. */
function guarded(pool: pg.Pool, link: Link) {
  return {
    options: pool.options,
    Client: pg.Client,
    async connect() {
      link.check();
      try {
        return await pool.connect();
      } catch (err) {
        markDatabaseError(err);
        if (!isConnectionError(err)) throw err;
        link.down(err);
        throw new DatabaseUnavailableError('The database is unreachable; reconnecting.', 1, { cause: err });
      }
    },
    async end() {
      link.close();
      await pool.end();
    },
  };
}

const elapsed = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

const INT8 = 20;
const NUMERIC = 1700;

/** Kysely's `log` hook when `onStatement` is given (none otherwise: no cost per query). */
const statementLog = (opts: DatabaseOptions) => {
  const on = opts.onStatement;
  return on ? { log: (e: { query: { sql: string } }) => on(e.query.sql) } : {};
};

export async function openDatabase(opts: DatabaseOptions = {}): Promise<Database> {
  let db: Db;
  let kind: Database['kind'];
  let link: Link | undefined;
  let snapshot: Database['snapshot'];
  const storage = new StorageMonitor({ log: opts.log });
  if (opts.databaseUrl) {
    kind = 'postgres';
    if (opts.schema) {
      // Created on a separate short-lived client before the pool pins search_path to it.
      const c = new pg.Client({ connectionString: opts.databaseUrl });
      await c.connect();
      try {
        await c.query(`create schema if not exists "${opts.schema.replace(/"/g, '')}"`);
      } finally {
        await c.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
      keepAlive: true,
      options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
      types: {
        getTypeParser: (oid: number, format?: string) =>
          oid === INT8 || oid === NUMERIC
            ? (v: string) => Number(v)
            : pg.types.getTypeParser(oid, format as 'text'),
      } as pg.CustomTypesConfig,
    });
    link = new Link(pool, opts);
    watch(pool, link, opts.log, storage);
    db = new Kysely({
      dialect: tracedDialect(new PostgresDialect({ pool: guarded(pool, link) }), 'postgresql'),
      ...statementLog(opts),
    });
  } else {
    kind = 'pglite';
    const dir = opts.dataDir;
    const fresh = !!dir && !existsSync(join(dir, 'PG_VERSION'));
    if (dir) await mkdir(dir, { recursive: true });
    if (dir && fresh) await checkRoomForFresh(dir);
    let lite: PGlite;
    const t0 = performance.now();
    if (fresh)
      opts.progress?.(`creating the embedded database in ${dir} (first start: this can take a minute)`, {
        dir,
      });
    else opts.progress?.(`opening the embedded database in ${dir ?? 'memory'}`, { dir });
    try {
      lite = await PGlite.create(dir, {
        // Trigram indexes serve the lists' `search=` (migration 0180).
        extensions: { pg_trgm },
        parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v) },
      });
    } catch (err) {
      throw dir ? await explainOpenFailure(err, dir, fresh) : err;
    }
    if (fresh) opts.progress?.(`embedded database created in ${elapsed(t0)}`);
    db = new Kysely({
      dialect: tracedDialect(new PGliteDialect(lite, storage), 'postgresql'),
      ...statementLog(opts),
    });
    const held = db;
    snapshot = () =>
      held.connection().execute(async (conn) => {
        // Dirty pages to the files first, so the copy needs no WAL replay to open.
        await sql`checkpoint`.execute(conn);
        const tar = await lite.dumpDataDir('none');
        return new Uint8Array(await tar.arrayBuffer());
      });
  }
  if (opts.migrate !== false) {
    try {
      const pending = opts.progress
        ? (await migrationStatus(db as never)).filter((m) => !m.executedAt).length
        : 0;
      const t0 = performance.now();
      if (pending > 0)
        opts.progress?.(`migrating: ${pending} migration${pending === 1 ? '' : 's'} to apply`, { pending });
      const applied = await migrate(db as never);
      if (applied.length > 0)
        opts.progress?.(`migrated ${applied.length} in ${elapsed(t0)}`, { applied: applied.length });
    } catch (err) {
      throw opts.dataDir && !opts.databaseUrl ? await explainOpenFailure(err, opts.dataDir, false) : err;
    }
  }
  return {
    db,
    kind,
    async ping() {
      const t0 = performance.now();
      await sql`select 1`.execute(db);
      return performance.now() - t0;
    },
    link: () => link?.state() ?? { up: true, downSince: null, lastError: null, attempts: 0 },
    storage: () => storage.state(),
    ...(snapshot ? { snapshot } : {}),
    close: () => db.destroy(),
  };
}
