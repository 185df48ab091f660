/**
 * Wakes this process's event readers when events commit, instead of leaving them to their poll:
 * - on PostgreSQL, the outbox statement (record.ts) carries `pg_notify('travel_events', <schema>)`, which
 *   the server delivers when the transaction commits, and every process LISTENs on one dedicated
 *   connection; the payload names the schema (parallel test schemas share a database) and, for a
 *   statement that also wrote webhook deliveries, a second one `<schema>:deliveries` wakes the job runner;
 * - on PGlite (one process, one connection) `record()` announces the write on an in-process emitter; a read
 *   it wakes waits for the connection, so it runs after the writing transaction ends.
 * A wake-up only shortens the wait: the readers keep polling, so a lost notification (a listener
 * reconnecting, a statement that notifies nothing) costs latency, never an event.
 */
import { EventEmitter } from 'node:events';
import { type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from '../kernel/types.ts';

export const EVENTS_CHANNEL = 'travel_events';
const DELIVERIES = ':deliveries';

/** A select-list item that notifies the event readers at commit (identical payloads collapse to one). */
export const notifyEvents = (): RawBuilder<unknown> =>
  sql`pg_notify(${EVENTS_CHANNEL}::text, current_schema()::text)`;
/** The same for the webhook delivery worker. */
export const notifyDeliveries = (): RawBuilder<unknown> =>
  sql`pg_notify(${EVENTS_CHANNEL}::text, current_schema() || ${DELIVERIES}::text)`;

/** What a wake-up is for: new events (the feed) or new webhook deliveries (the job runner). */
export type WakeKind = 'events' | 'deliveries';

const local = new EventEmitter();
local.setMaxListeners(0);

/** In-process announcement of an outbox write (record.ts); heard only by a `LocalEventWake` (PGlite). */
export function announceLocally(kind: WakeKind): void {
  if (local.listenerCount(kind) > 0) local.emit(kind);
}

export interface EventWake {
  /** `fn` runs on each wake-up of `kind`; returns the unsubscribe. */
  on(kind: WakeKind, fn: () => void): () => void;
  close(): Promise<void>;
}

/** PGlite: the in-process announcements. */
export class LocalEventWake implements EventWake {
  readonly #offs: Array<() => void> = [];
  on(kind: WakeKind, fn: () => void): () => void {
    local.on(kind, fn);
    const off = () => local.off(kind, fn);
    this.#offs.push(off);
    return off;
  }
  async close(): Promise<void> {
    for (const off of this.#offs.splice(0)) off();
  }
}

export interface PgEventWakeOptions {
  databaseUrl: string;
  /** The schema the pool lives in (tests); default the server's search_path. */
  schema?: string | undefined;
  log?: Logger;
  /** Reconnect backoff: base doubling up to max (default 250 ms .. 5 s). */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
}

/**
 * LISTEN on one dedicated connection, with reconnect: a LISTEN belongs to its connection, so when the
 * server restarts or the connection drops it is gone; the listener opens a new one with backoff and
 * LISTENs again, then wakes everyone once (what was notified meanwhile was lost).
 */
export class PgEventWake implements EventWake {
  readonly #o: PgEventWakeOptions;
  readonly #emitter = new EventEmitter();
  #client: pg.Client | undefined;
  #schema = '';
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #attempts = 0;
  /** The LISTEN connection's server process id (undefined while reconnecting). */
  pid: number | undefined;

  constructor(o: PgEventWakeOptions) {
    this.#o = o;
    this.#emitter.setMaxListeners(0);
  }

  on(kind: WakeKind, fn: () => void): () => void {
    this.#emitter.on(kind, fn);
    return () => this.#emitter.off(kind, fn);
  }

  async start(): Promise<void> {
    const schema = this.#o.schema?.replace(/"/g, '');
    const client = new pg.Client({
      connectionString: this.#o.databaseUrl,
      keepAlive: true,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    client.on('notification', (m) => {
      if (m.channel !== EVENTS_CHANNEL || !m.payload) return;
      if (m.payload === this.#schema) this.#emitter.emit('events');
      else if (m.payload === this.#schema + DELIVERIES) this.#emitter.emit('deliveries');
    });
    // Both fire when the server goes away; only the current connection's first one counts.
    const lost = (err?: Error) => {
      if (this.#client !== client) return;
      this.#o.log?.warn({ err }, 'event listener connection lost; polling until it reconnects');
      this.#reconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      const r = await client.query<{ s: string; pid: number }>(
        'select current_schema()::text as s, pg_backend_pid() as pid',
      );
      this.#schema = r.rows[0]?.s ?? 'public';
      this.pid = r.rows[0]?.pid;
      await client.query(`listen ${EVENTS_CHANNEL}`);
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
      this.#o.log?.info({ attempts: this.#attempts }, 'event listener listening again');
      this.#attempts = 0;
      this.#emitter.emit('events');
      this.#emitter.emit('deliveries');
    }
  }

  /** Tries `start` again after the backoff (a failed first start). */
  retry(): void {
    this.#reconnect();
  }

  #reconnect(): void {
    const old = this.#client;
    this.#client = undefined;
    this.pid = undefined;
    void old?.end().catch(() => {});
    if (this.#closed || this.#retry) return;
    const base = this.#o.reconnectBaseMs ?? 250;
    const delay = Math.min(this.#o.reconnectMaxMs ?? 5000, base * 2 ** this.#attempts);
    this.#attempts += 1;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      this.start().catch(() => this.#reconnect());
    }, delay);
    this.#retry.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    this.#emitter.removeAllListeners();
    await client?.end().catch(() => {});
  }
}

/**
 * The process's wake-up source, wired to its feed and its job runner: LISTEN on PostgreSQL, the
 * in-process emitter on PGlite.
 */
export async function startEventWake(o: {
  databaseUrl: string | undefined;
  schema?: string | undefined;
  log?: Logger;
  feed: { wake(): void };
  jobs: { wake(): void };
}): Promise<EventWake> {
  let wake: EventWake;
  if (o.databaseUrl) {
    const pgw = new PgEventWake({
      databaseUrl: o.databaseUrl,
      schema: o.schema,
      ...(o.log ? { log: o.log } : {}),
    });
    // The database was just opened; should the LISTEN fail anyway, the polls serve until it is back.
    await pgw.start().catch((err: unknown) => {
      o.log?.warn({ err }, 'event listener could not LISTEN; polling until it reconnects');
      pgw.retry();
    });
    wake = pgw;
  } else {
    wake = new LocalEventWake();
  }
  wake.on('events', () => o.feed.wake());
  wake.on('deliveries', () => o.jobs.wake());
  return wake;
}
