/**
 * The append-only per-search event log (`search_events`) and the reader that follows it. One process
 * (the one running the fan-out) writes a search's log, one append at a time, so `seq` grows without gaps
 * and a reader that has seen `seq = n` has seen everything before it. Readers never hold up the writer:
 * they only read committed rows.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../storage/schema.ts';
import type { Committed, SearchNotifier } from './notifier.ts';
import { parseJson, type SearchDb, type SearchTables, searchDb } from './tables.ts';

export type LogEventName = 'offer' | 'supplier_done' | 'status_update' | 'done';

export interface LogEvent {
  seq: number;
  event: LogEventName;
  data: Record<string, unknown>;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

const PAGE = 500;

export async function insertEvents(
  trx: Kysely<SearchTables>,
  searchId: string,
  events: LogEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await trx
    .insertInto('search_events')
    .values(
      events.map((e) => ({ search_id: searchId, seq: e.seq, event: e.event, data: JSON.stringify(e.data) })),
    )
    .execute();
}

export async function readAfter(
  db: SearchDb,
  searchId: string,
  afterSeq: number,
  limit = PAGE,
): Promise<LogEvent[]> {
  const rows = await db
    .selectFrom('search_events')
    .select(['seq', 'event', 'data'])
    .where('search_id', '=', searchId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ seq: r.seq, event: r.event as LogEventName, data: parseJson(r.data) }));
}

export interface FollowOptions {
  db: Db;
  notifier: SearchNotifier;
  searchId: string;
  /** Last seq the reader already has (0: from the start). */
  after: number;
  signal?: AbortSignal;
  /** Yield `{ heartbeat: true }` after this long without an event. */
  heartbeatMs: number;
  /** Re-read the table this often even without a notification (lost NOTIFY, reconnecting listener). */
  pollMs: number;
  timers?: Timers;
}

export type FollowItem = LogEvent | { heartbeat: true };

/**
 * The one reader of a search's log in this process. Every stream of the search in this process follows
 * it instead of querying the table itself: it reads once per notification (and once per `pollMs` as the
 * fallback for a lost one), keeps the events it has read, parsed once, and wakes its followers, who take
 * them from memory. So N readers of one search cost one query per change, not N, and an idle search costs
 * one poll per `pollMs` whatever the number of its readers. It lives while it has followers.
 */
class LogFeed {
  /** Every event read so far, in seq order, from the first one. */
  readonly events: LogEvent[] = [];
  done = false;
  followers = 0;
  #last = 0;
  #dirty = true;
  #reading: Promise<void> | undefined;
  #waiters = new Set<() => void>();
  #poll: unknown;
  readonly #unsubscribe: () => void;
  #failure: unknown;
  readonly db: SearchDb;
  readonly searchId: string;
  readonly pollMs: number;
  readonly timers: Timers;

  constructor(db: SearchDb, notifier: SearchNotifier, searchId: string, pollMs: number, timers: Timers) {
    this.db = db;
    this.searchId = searchId;
    this.pollMs = pollMs;
    this.timers = timers;
    this.#unsubscribe = notifier.subscribe(searchId, (committed) => this.poke(committed));
  }

  /**
   * Something may have been appended: read it (once, however many followers). Events this process's
   * engine just committed, right after the last one read, are taken as they are, without a re-read.
   */
  poke(committed?: Committed): void {
    const first = committed?.events[0];
    if (committed && first?.seq === this.#last + 1 && !this.#reading && !this.#dirty && !this.done) {
      for (const e of committed.events) {
        this.events.push(e);
        this.#last = e.seq;
        if (e.event === 'done') this.done = true;
      }
      this.#wakeAll();
      this.#armPoll();
      return;
    }
    this.#dirty = true;
    void this.refresh();
  }

  /** Resolves once the log has been read up to date at least once since the last poke. */
  refresh(): Promise<void> {
    if (!this.#reading) {
      this.#reading = this.#read().finally(() => {
        this.#reading = undefined;
      });
    }
    return this.#reading;
  }

  async #read(): Promise<void> {
    try {
      while (this.#dirty && !this.done) {
        this.#dirty = false;
        const rows = await readAfter(this.db, this.searchId, this.#last);
        for (const row of rows) {
          this.events.push(row);
          this.#last = row.seq;
          if (row.event === 'done') this.done = true;
        }
        if (rows.length === PAGE) this.#dirty = true;
        if (rows.length > 0) this.#wakeAll();
      }
      this.#failure = undefined;
    } catch (err) {
      // Followers see it on their next wait; the next poke, poll or new follower reads again.
      this.#failure = err;
      this.#dirty = true;
      this.#wakeAll();
    }
    this.#armPoll();
  }

  #armPoll(): void {
    if (this.#poll !== undefined) this.timers.clearTimeout(this.#poll);
    this.#poll = undefined;
    if (this.done || this.followers === 0) return;
    this.#poll = this.timers.setTimeout(() => {
      this.#poll = undefined;
      this.poke();
    }, this.pollMs);
  }

  #wakeAll(): void {
    const ws = [...this.#waiters];
    this.#waiters.clear();
    for (const w of ws) w();
  }

  /** Throws the last read's failure, if the last read failed. */
  check(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Resolves on the next change (new events, a failure); `cancel` stops waiting. */
  wait(): { promise: Promise<void>; cancel(): void } {
    let wake: () => void = () => {};
    const promise = new Promise<void>((resolve) => {
      wake = resolve;
    });
    this.#waiters.add(wake);
    return {
      promise,
      cancel: () => {
        this.#waiters.delete(wake);
        wake();
      },
    };
  }

  close(): void {
    this.#unsubscribe();
    if (this.#poll !== undefined) this.timers.clearTimeout(this.#poll);
    this.#poll = undefined;
    this.#wakeAll();
  }
}

/** Feeds per notifier (one notifier per search service, so per database and process), by search id. */
const feeds = new WeakMap<SearchNotifier, Map<string, LogFeed>>();

function acquireFeed(o: FollowOptions, timers: Timers): LogFeed {
  let byId = feeds.get(o.notifier);
  if (!byId) {
    byId = new Map();
    feeds.set(o.notifier, byId);
  }
  let feed = byId.get(o.searchId);
  if (!feed) {
    feed = new LogFeed(searchDb(o.db), o.notifier, o.searchId, o.pollMs, timers);
    byId.set(o.searchId, feed);
  }
  feed.followers += 1;
  return feed;
}

function releaseFeed(notifier: SearchNotifier, searchId: string, feed: LogFeed): void {
  feed.followers -= 1;
  if (feed.followers > 0) return;
  feed.close();
  const byId = feeds.get(notifier);
  if (byId?.get(searchId) === feed) byId.delete(searchId);
}

/** How many searches this process is reading for its streams right now (tests, metrics). */
export function activeFeeds(notifier: SearchNotifier): number {
  return feeds.get(notifier)?.size ?? 0;
}

/**
 * Every event after `after`, as it is committed, until (and including) `done`; heartbeats in between.
 * A reader that resumes at or after `done` gets `done` again, so it knows the search is over. The events
 * come from the search's shared feed: the same `LogEvent` objects for every follower.
 */
export async function* follow(o: FollowOptions): AsyncGenerator<FollowItem> {
  const timers = o.timers ?? realTimers;
  const feed = acquireFeed(o, timers);
  let beat = false;
  let waiting: { promise: Promise<void>; cancel(): void } | undefined;
  const onAbort = () => waiting?.cancel();
  o.signal?.addEventListener('abort', onAbort);
  let beatTimer: unknown;
  const armBeat = () => {
    if (beatTimer !== undefined) timers.clearTimeout(beatTimer);
    beatTimer = timers.setTimeout(() => {
      beat = true;
      waiting?.cancel();
    }, o.heartbeatMs);
  };
  try {
    armBeat();
    await feed.refresh();
    feed.check();
    let i = 0;
    const last = feed.events.at(-1);
    if (last?.event === 'done' && last.seq <= o.after) {
      yield last;
      return;
    }
    while (i < feed.events.length && (feed.events[i] as LogEvent).seq <= o.after) i++;
    while (!o.signal?.aborted) {
      if (i < feed.events.length) {
        const row = feed.events[i++] as LogEvent;
        yield row;
        armBeat();
        if (row.event === 'done') return;
        continue;
      }
      if (beat) {
        beat = false;
        yield { heartbeat: true };
        armBeat();
        continue;
      }
      waiting = feed.wait();
      await waiting.promise;
      waiting = undefined;
      // Skip whatever this reader had already (a feed made before it may hold events <= after).
      while (i < feed.events.length && (feed.events[i] as LogEvent).seq <= o.after) i++;
      if (i >= feed.events.length) feed.check();
    }
  } finally {
    releaseFeed(o.notifier, o.searchId, feed);
    o.signal?.removeEventListener('abort', onAbort);
    if (beatTimer !== undefined) timers.clearTimeout(beatTimer);
  }
}
