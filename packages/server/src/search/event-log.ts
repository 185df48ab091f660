/**
 * The append-only per-search event log (`search_events`) and the reader that follows it. One process
 * (the one running the fan-out) writes a search's log; its appends commit in seq order, each only on top
 * of the one before (engine.ts, WRITES), so `seq` grows without gaps and a reader that has seen
 * `seq = n` has seen everything before it. Readers never hold up the writer: they only read committed
 * rows.
 */
import type { Kysely } from 'kysely';
import { mark } from '../internal/phase-marks.ts';
import type { Db } from '../storage/schema.ts';
import { FinishedFeeds } from './finished-feeds.ts';
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
const UP_TO_DATE = Promise.resolve();

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
  /** A heartbeat after a whole tick of this length without an event (one timer per search, not per reader). */
  heartbeatMs: number;
  /** Re-read the table this often even without a notification (lost NOTIFY, reconnecting listener). */
  pollMs: number;
  timers?: Timers;
}

export type FollowItem = LogEvent | { heartbeat: true };

/**
 * One local reader of a search's log, driven by the search's feed: it owns no timer and no pending
 * promise, so an open stream costs the feed one entry in a set.
 */
export interface FeedSubscriber {
  /** The feed changed: new events at the end of `events`, or a failed read (`failure`). */
  wake(): void;
  /** The feed's heartbeat tick (every `heartbeatMs`, one timer for all its subscribers). */
  tick(): void;
}

/** What a subscriber sees of its feed. */
export interface FeedView {
  /** Every event read so far, in seq order, from the first one; shared by every subscriber. */
  readonly events: readonly LogEvent[];
  /** The last read's failure, if the last read failed (cleared by the next good read). */
  readonly failure: unknown;
}

/**
 * The one reader of a search's log in this process. Every stream of the search in this process follows
 * it instead of querying the table itself: it reads once per notification (and once per `pollMs` as the
 * fallback for a lost one), keeps the events it has read, parsed once, and wakes its subscribers, who take
 * them from memory. So N readers of one search cost one query per change, not N, and an idle search costs
 * one poll per `pollMs` and one heartbeat tick per `heartbeatMs` whatever the number of its readers. It
 * lives while it has subscribers.
 */
class LogFeed implements FeedView {
  readonly events: LogEvent[] = [];
  done = false;
  readonly subscribers = new Set<FeedSubscriber>();
  #last = 0;
  #dirty = true;
  #reading: Promise<void> | undefined;
  #poll: unknown;
  #beat: unknown;
  readonly #unsubscribe: () => void;
  #failure: unknown;
  readonly db: SearchDb;
  readonly searchId: string;
  readonly pollMs: number;
  readonly heartbeatMs: number;
  readonly timers: Timers;

  constructor(
    db: SearchDb,
    notifier: SearchNotifier,
    searchId: string,
    o: { pollMs: number; heartbeatMs: number; timers: Timers },
  ) {
    this.db = db;
    this.searchId = searchId;
    this.pollMs = o.pollMs;
    this.heartbeatMs = o.heartbeatMs;
    this.timers = o.timers;
    this.#unsubscribe = notifier.subscribe(searchId, (committed) => this.poke(committed));
  }

  get failure(): unknown {
    return this.#failure;
  }

  /**
   * Something may have been appended: read it (once, however many subscribers). Events this process's
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
    // Up to date, and followed (its poll armed) or finished: a reader joining now reads nothing, and the
    // poll is not re-armed once per joining reader.
    if (!this.#reading && !this.#dirty && (this.done || this.#poll !== undefined)) return UP_TO_DATE;
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
      // Subscribers see it once they have taken every event; the next poke, poll or new subscriber reads again.
      this.#failure = err;
      this.#dirty = true;
      this.#wakeAll();
    }
    this.#armPoll();
  }

  #armPoll(): void {
    if (this.#poll !== undefined) this.timers.clearTimeout(this.#poll);
    this.#poll = undefined;
    if (this.done || this.subscribers.size === 0) return;
    this.#poll = this.timers.setTimeout(() => {
      this.#poll = undefined;
      this.poke();
    }, this.pollMs);
  }

  #armBeat(): void {
    this.#beat = this.timers.setTimeout(() => {
      this.#beat = undefined;
      for (const s of this.subscribers) s.tick();
      if (this.subscribers.size > 0) this.#armBeat();
    }, this.heartbeatMs);
  }

  #wakeAll(): void {
    for (const s of this.subscribers) s.wake();
    if (this.subscribers.size > 0) mark(this.searchId, 'streamed', this.events.length);
  }

  add(s: FeedSubscriber): void {
    this.subscribers.add(s);
    if (this.#beat === undefined) this.#armBeat();
  }

  close(): void {
    this.#unsubscribe();
    if (this.#poll !== undefined) this.timers.clearTimeout(this.#poll);
    this.#poll = undefined;
    if (this.#beat !== undefined) this.timers.clearTimeout(this.#beat);
    this.#beat = undefined;
  }
}

/** Feeds per notifier (one notifier per search service, so per database and process), by search id. */
const feeds = new WeakMap<SearchNotifier, Map<string, LogFeed>>();

/** Per notifier, the finished feeds kept for later readers (finished-feeds.ts). */
const finished = new WeakMap<SearchNotifier, FinishedFeeds<LogFeed>>();

/** How to reach a search's feed: `FollowOptions` without the reader's own position and signal. */
export type FeedOptions = Omit<FollowOptions, 'after' | 'signal'>;

export interface FeedHandle {
  readonly feed: FeedView;
  /** Resolves once the log has been read up to date (rejects with a failed read). */
  readonly ready: Promise<void>;
  /** Leaves the feed (idempotent); the last subscriber to leave closes it. */
  close(): void;
}

/** Joins the search's feed in this process (made on first use) as `sub`. */
export function subscribe(o: FeedOptions, sub: FeedSubscriber): FeedHandle {
  const timers = o.timers ?? realTimers;
  let byId = feeds.get(o.notifier);
  if (!byId) {
    byId = new Map();
    feeds.set(o.notifier, byId);
    finished.set(o.notifier, new FinishedFeeds(byId));
  }
  let feed = byId.get(o.searchId);
  if (!feed) {
    finished.get(o.notifier)?.sweep();
    feed = new LogFeed(searchDb(o.db), o.notifier, o.searchId, {
      pollMs: o.pollMs,
      heartbeatMs: o.heartbeatMs,
      timers,
    });
    byId.set(o.searchId, feed);
  } else if (feed.subscribers.size === 0) finished.get(o.notifier)?.taken(o.searchId);
  const f = feed;
  f.add(sub);
  let open = true;
  return {
    feed: f,
    ready: f.refresh().then(() => {
      if (f.failure !== undefined) throw f.failure;
    }),
    close() {
      if (!open) return;
      open = false;
      f.subscribers.delete(sub);
      if (f.subscribers.size > 0) return;
      f.close();
      const m = feeds.get(o.notifier);
      if (m?.get(o.searchId) !== f) return;
      if (f.done) finished.get(o.notifier)?.keep(o.searchId, f);
      else m.delete(o.searchId);
    },
  };
}

/** How many searches this process is reading for its streams right now (tests, metrics): finished
 * searches kept for later readers are not read any more and do not count. */
export function activeFeeds(notifier: SearchNotifier): number {
  let n = 0;
  for (const f of feeds.get(notifier)?.values() ?? []) if (f.subscribers.size > 0) n += 1;
  return n;
}

/** How many local readers follow the search right now (tests, metrics). */
export function feedSubscribers(notifier: SearchNotifier, searchId: string): number {
  return feeds.get(notifier)?.get(searchId)?.subscribers.size ?? 0;
}

/** Index of the first event after `after` (events are in seq order). */
export function firstAfter(events: readonly LogEvent[], after: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((events[mid] as LogEvent).seq <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Every event after `after`, as it is committed, until (and including) `done`; a heartbeat after a whole
 * heartbeat tick without an event. A reader that resumes at or after `done` gets `done` again, so it
 * knows the search is over. The events come from the search's shared feed: the same `LogEvent` objects
 * for every follower.
 */
export async function* follow(o: FollowOptions): AsyncGenerator<FollowItem> {
  let beat = false;
  let sent = false;
  let wake: (() => void) | undefined;
  const handle = subscribe(o, {
    wake: () => wake?.(),
    tick: () => {
      if (!sent) {
        beat = true;
        wake?.();
      }
      sent = false;
    },
  });
  const onAbort = () => wake?.();
  o.signal?.addEventListener('abort', onAbort);
  try {
    await handle.ready;
    const events = handle.feed.events;
    const last = events.at(-1);
    if (last?.event === 'done' && last.seq <= o.after) {
      yield last;
      return;
    }
    let i = firstAfter(events, o.after);
    while (!o.signal?.aborted) {
      if (i < events.length) {
        const row = events[i++] as LogEvent;
        sent = true;
        yield row;
        if (row.event === 'done') return;
        continue;
      }
      if (handle.feed.failure !== undefined) throw handle.feed.failure;
      if (beat) {
        beat = false;
        yield { heartbeat: true };
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    handle.close();
    o.signal?.removeEventListener('abort', onAbort);
  }
}
