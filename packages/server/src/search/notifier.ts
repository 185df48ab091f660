/**
 * Tells readers of a search that its event log grew. In-process an EventEmitter is enough (PGlite is
 * one process). On a PostgreSQL server the writer also sends NOTIFY and every process LISTENs, so a
 * search started on one process can be streamed from another. Notifications only wake readers up: the
 * log in the database is the truth, and readers also poll it, so a lost notification costs latency,
 * never an event.
 */
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../kernel/types.ts';
import type { Db } from '../storage/schema.ts';
import type { StoredOffer } from './batch-reader.ts';
import type { LogEvent } from './event-log.ts';
import type { SearchStatus } from './tables.ts';

/** What an append committed, handed to this process's readers with the wake-up (no re-read needed). */
export interface Committed {
  /** The events the append committed, in seq order, right after the ones before them. */
  events: LogEvent[];
  /** Set when the append ended the search: the session's final state and every offer its log announced. */
  final?: {
    status: SearchStatus;
    completed_suppliers: number;
    total_offers: number;
    finished_at: Date;
    offers: readonly StoredOffer[];
  };
}

export interface SearchNotifier {
  /** Call after the events are committed: wakes this process's readers and announces it to others. */
  publish(searchId: string, committed?: Committed): Promise<void>;
  /** `fn` runs on every publish for `searchId` (from any process; `committed` only from this one);
   * returns the unsubscribe. */
  subscribe(searchId: string, fn: (committed?: Committed) => void): () => void;
  /**
   * The NOTIFY channel other processes listen on, when there are other processes (PostgreSQL). A writer
   * may send `pg_notify(channel, searchId)` in its own statement (delivered when it commits) and then
   * call `wake` instead of `publish`.
   */
  readonly channel?: string | undefined;
  /** Wakes this process's readers only. */
  wake(searchId: string, committed?: Committed): void;
  /**
   * This process writes `searchId`'s log and wakes its own readers with what it committed: its own NOTIFYs
   * for that search, heard back from the server, are dropped instead of making every local reader re-read.
   * Returns the release (call it when the writing ends).
   */
  claim(searchId: string): () => void;
  close(): Promise<void>;
}

export class LocalNotifier implements SearchNotifier {
  protected readonly emitter = new EventEmitter();
  readonly channel: string | undefined = undefined;
  constructor() {
    // One listener per open stream or batch wait: many are normal.
    this.emitter.setMaxListeners(0);
  }
  async publish(searchId: string, committed?: Committed): Promise<void> {
    this.wake(searchId, committed);
  }
  wake(searchId: string, committed?: Committed): void {
    this.emitter.emit(searchId, committed);
  }
  /** Every publish of this notifier is local: nothing to drop. */
  claim(_searchId: string): () => void {
    return () => {};
  }
  subscribe(searchId: string, fn: (committed?: Committed) => void): () => void {
    this.emitter.on(searchId, fn);
    return () => this.emitter.off(searchId, fn);
  }
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/**
 * LISTEN/NOTIFY across processes, with reconnect; falls back to readers' polling while disconnected. A
 * LISTEN belongs to its connection, so when the server restarts or the connection drops it is gone with
 * it: the notifier opens a new connection with backoff (250 ms doubling to 5 s) and issues LISTEN again,
 * then wakes every local reader once, since notifications sent meanwhile were lost.
 */
export class PgNotifier extends LocalNotifier {
  readonly #db: Db;
  readonly #url: string;
  readonly #channel: string;
  override readonly channel: string;
  readonly #log: Logger | undefined;
  readonly #baseMs: number;
  readonly #maxMs: number;
  #client: pg.Client | undefined;
  /** Searches whose log this process writes, with how many writers hold them (`claim`). */
  readonly #own = new Map<string, number>();
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #attempts = 0;

  constructor(opts: {
    db: Db;
    databaseUrl: string;
    channel?: string;
    log?: Logger;
    reconnectBaseMs?: number;
    reconnectMaxMs?: number;
  }) {
    super();
    this.#db = opts.db;
    this.#url = opts.databaseUrl;
    // Channels are database-wide: a per-schema channel keeps parallel test schemas apart.
    this.#channel = (opts.channel ?? 'search_events').replace(/[^a-z0-9_]/gi, '_');
    this.channel = this.#channel;
    this.#log = opts.log;
    this.#baseMs = opts.reconnectBaseMs ?? 250;
    this.#maxMs = opts.reconnectMaxMs ?? 5000;
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, keepAlive: true });
    client.on('notification', (m) => {
      if (m.channel === this.#channel && m.payload && !this.#own.has(m.payload)) this.emitter.emit(m.payload);
    });
    // Both fire when the server goes away; only the current connection's first one counts.
    const lost = (err?: Error) => {
      if (this.#client !== client) return;
      this.#log?.warn({ err }, 'search notifier connection lost; polling until it reconnects');
      this.#reconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`listen ${this.#channel}`);
    } catch (err) {
      client.end().catch(() => {});
      throw err;
    }
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    if (this.#attempts > 0) {
      this.#log?.info({ attempts: this.#attempts }, 'search notifier listening again');
      this.#attempts = 0;
      // Anything published while we were deaf: every reader re-reads its log now.
      for (const name of this.emitter.eventNames()) this.emitter.emit(name);
    }
  }

  #reconnect(): void {
    const old = this.#client;
    this.#client = undefined;
    void old?.end().catch(() => {});
    if (this.#closed || this.#retry) return;
    const delay = Math.min(this.#maxMs, this.#baseMs * 2 ** this.#attempts);
    this.#attempts += 1;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.start().catch(() => this.#reconnect());
    }, delay);
    this.#retry.unref();
  }

  override claim(searchId: string): () => void {
    this.#own.set(searchId, (this.#own.get(searchId) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const n = (this.#own.get(searchId) ?? 1) - 1;
      if (n > 0) this.#own.set(searchId, n);
      else this.#own.delete(searchId);
    };
  }

  override async publish(searchId: string, committed?: Committed): Promise<void> {
    // Local readers are woken at once; remote ones through the server (this process hears it too: harmless).
    this.wake(searchId, committed);
    await sql`select pg_notify(${this.#channel}, ${searchId})`.execute(this.#db);
  }

  override async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
    await super.close();
  }
}
