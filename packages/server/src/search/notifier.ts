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

export interface SearchNotifier {
  /** Call after the events are committed. */
  publish(searchId: string): Promise<void>;
  /** `fn` runs on every publish for `searchId` (from any process); returns the unsubscribe. */
  subscribe(searchId: string, fn: () => void): () => void;
  close(): Promise<void>;
}

export class LocalNotifier implements SearchNotifier {
  protected readonly emitter = new EventEmitter();
  constructor() {
    // One listener per open stream or batch wait: many are normal.
    this.emitter.setMaxListeners(0);
  }
  async publish(searchId: string): Promise<void> {
    this.emitter.emit(searchId);
  }
  subscribe(searchId: string, fn: () => void): () => void {
    this.emitter.on(searchId, fn);
    return () => this.emitter.off(searchId, fn);
  }
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/** LISTEN/NOTIFY across processes, with reconnect; falls back to readers' polling while disconnected. */
export class PgNotifier extends LocalNotifier {
  readonly #db: Db;
  readonly #url: string;
  readonly #channel: string;
  readonly #log: Logger | undefined;
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(opts: { db: Db; databaseUrl: string; channel?: string; log?: Logger }) {
    super();
    this.#db = opts.db;
    this.#url = opts.databaseUrl;
    // Channels are database-wide: a per-schema channel keeps parallel test schemas apart.
    this.#channel = (opts.channel ?? 'search_events').replace(/[^a-z0-9_]/gi, '_');
    this.#log = opts.log;
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url });
    client.on('notification', (m) => {
      if (m.channel === this.#channel && m.payload) this.emitter.emit(m.payload);
    });
    client.on('error', (err) => {
      this.#log?.warn({ err }, 'search notifier connection failed; polling until it reconnects');
      this.#reconnect();
    });
    await client.connect();
    await client.query(`listen ${this.#channel}`);
    this.#client = client;
  }

  #reconnect(): void {
    const old = this.#client;
    this.#client = undefined;
    void old?.end().catch(() => {});
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.start().catch(() => this.#reconnect());
    }, 1000);
    this.#retry.unref();
  }

  override async publish(searchId: string): Promise<void> {
    // Local readers are woken at once; remote ones through the server (this process hears it too: harmless).
    await super.publish(searchId);
    await sql`select pg_notify(${this.#channel}, ${searchId})`.execute(this.#db);
  }

  override async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    await this.#client?.end().catch(() => {});
    await super.close();
  }
}
