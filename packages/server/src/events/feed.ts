/**
 * The process's event feed: ONE reader polls the `events` table for every open stream of every company
 * (`GET /api/v1/events/stream`), and hands each new event to the streams it concerns, as the search
 * engine's readers share one search's log. A stream resuming with Last-Event-ID first replays what it
 * missed with its own paged read, while the live events that arrive meanwhile wait behind it; each stream
 * drops what is not after its own position, so nothing is lost and nothing repeated.
 */
import { sharedSseMessage } from '../kernel/sse.ts';
import type { SseMessage } from '../kernel/types.ts';
import type { Db } from '../storage/schema.ts';
import {
  type Cursor,
  compareCursors,
  type EventFilter,
  headCursor,
  readEvents,
  type StoredEvent,
} from './store.ts';

const PAGE = 500;

/** Each live event's one message, encoded once for every stream that sends it (kernel/sse.ts). */
const messages = new WeakMap<StoredEvent, SseMessage>();
function messageOf(e: StoredEvent): SseMessage {
  let m = messages.get(e);
  if (!m) {
    m = sharedSseMessage({ id: e.view.id, event: 'event', data: e.view });
    messages.set(e, m);
  }
  return m;
}

export interface EventFeedOptions {
  /** How often the reader looks for new events while streams are open (EVENTS_POLL_MS, default 250). */
  pollMs?: number;
  /** Heartbeat interval of an idle stream (ms, default 15 s). */
  heartbeatMs?: number;
}

export class EventFeed {
  readonly #db: Db;
  readonly #pollMs: number;
  readonly #heartbeatMs: number;
  readonly #subs = new Set<Subscription>();
  #cursor: Cursor | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reading: Promise<void> | undefined;
  /** A wake-up arrived while a read was running (it may have started before that commit): read again. */
  #again = false;
  #retry: NodeJS.Timeout | undefined;
  #retryMs = 0;
  #closed = false;
  /** Reads of the table by the feed's reader (one per poll, whatever the number of streams). */
  reads = 0;

  constructor(db: Db, o: EventFeedOptions = {}) {
    this.#db = db;
    this.#pollMs = o.pollMs ?? 250;
    this.#heartbeatMs = o.heartbeatMs ?? 15_000;
  }

  get subscribers(): number {
    return this.#subs.size;
  }

  /**
   * A stream of the company's events matching `filter`: those after `after` (a resume), or from now on.
   */
  async subscribe(filter: EventFilter & { companyId: number }, after?: Cursor): Promise<Subscription> {
    if (this.#closed) throw new Error('the event feed is closed');
    if (this.#cursor === undefined) this.#cursor = await headCursor(this.#db);
    const sub = new Subscription(filter, after ?? this.#cursor, this.#heartbeatMs, () => this.#drop(sub));
    this.#subs.add(sub);
    this.#schedule();
    if (after) {
      sub.replaying = true;
      try {
        let from: Cursor = after;
        for (;;) {
          const page = await readEvents(this.#db, { ...filter, after: from, limit: PAGE });
          for (const e of page) sub.offer(e, false);
          const last = page.at(-1);
          if (!last || page.length < PAGE) break;
          from = last.cursor;
        }
      } finally {
        sub.endReplay();
      }
    }
    return sub;
  }

  /** Reads what is new now (tests call it instead of waiting for the poll). */
  poll(): Promise<void> {
    this.#reading ??= this.#read().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  /**
   * Events committed (a NOTIFY, or on PGlite this process's own write; events/wake.ts): read now rather
   * than at the next poll. A wake-up during a read reads once more after it. A wake-up whose read finds
   * nothing (the event is not visible yet: an older transaction is still open, see store.ts) reads again
   * after 10 ms, 20 ms, … until the poll interval takes over. A failed read is left to the poll.
   */
  wake(): void {
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = undefined;
    if (this.#closed || this.#subs.size === 0) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    const before = this.#cursor;
    this.poll()
      .catch(() => {})
      .finally(() => {
        if (this.#again) {
          this.#again = false;
          this.wake();
        } else if (this.#cursor === before) this.#retryLater();
        else this.#retryMs = 0;
      });
  }

  #retryLater(): void {
    this.#retryMs = this.#retryMs ? this.#retryMs * 2 : 10;
    if (this.#retryMs >= this.#pollMs || this.#closed) {
      this.#retryMs = 0;
      return;
    }
    this.#retry = setTimeout(() => this.wake(), this.#retryMs);
    this.#retry.unref();
  }

  async #read(): Promise<void> {
    if (this.#subs.size === 0 || this.#cursor === undefined) return;
    for (;;) {
      this.reads += 1;
      const page = await readEvents(this.#db, { after: this.#cursor, limit: PAGE });
      for (const e of page) {
        this.#cursor = e.cursor;
        for (const s of this.#subs) s.offer(e, true);
      }
      if (page.length < PAGE) return;
    }
  }

  #schedule(): void {
    if (this.#timer || this.#closed || this.#subs.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.poll()
        .catch(() => {
          // A failed read is retried at the next poll: the table is the truth, the cursor did not move.
        })
        .finally(() => this.#schedule());
    }, this.#pollMs);
    this.#timer.unref();
  }

  #drop(sub: Subscription): void {
    this.#subs.delete(sub);
    if (this.#subs.size === 0 && this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      // Nobody listens: the next subscriber starts from the head again.
      this.#cursor = undefined;
    }
  }

  close(): void {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    for (const s of [...this.#subs]) s.close();
  }
}

/** One open stream: an async iterable of SSE messages, fed by the feed. */
export class Subscription implements AsyncIterable<SseMessage>, AsyncIterator<SseMessage> {
  replaying = false;
  #last: Cursor;
  readonly #filter: EventFilter & { companyId: number };
  readonly #queue: StoredEvent[] = [];
  readonly #held: StoredEvent[] = [];
  readonly #heartbeatMs: number;
  readonly #onClose: () => void;
  #wake: (() => void) | undefined;
  #closed = false;

  constructor(
    filter: EventFilter & { companyId: number },
    from: Cursor,
    heartbeatMs: number,
    onClose: () => void,
  ) {
    this.#filter = filter;
    this.#last = from;
    this.#heartbeatMs = heartbeatMs;
    this.#onClose = onClose;
  }

  #matches(e: StoredEvent): boolean {
    const f = this.#filter;
    if (e.company_id !== f.companyId) return false;
    if (f.types?.length && !f.types.includes(e.type)) return false;
    if (f.resourceType && e.resource_type !== f.resourceType) return false;
    if (f.resourceId && e.resource_id !== f.resourceId) return false;
    return true;
  }

  /** An event from the replay or the live feed: kept when it is this stream's and after its position. */
  offer(e: StoredEvent, live: boolean): void {
    if (this.#closed || !this.#matches(e)) return;
    if (this.replaying && live) {
      this.#held.push(e);
      return;
    }
    if (compareCursors(e.cursor, this.#last) <= 0) return;
    this.#last = e.cursor;
    this.#queue.push(e);
    this.#wake?.();
  }

  endReplay(): void {
    this.replaying = false;
    for (const e of this.#held.splice(0)) this.offer(e, false);
  }

  async next(): Promise<IteratorResult<SseMessage>> {
    for (;;) {
      if (this.#closed) return { done: true, value: undefined };
      const e = this.#queue.shift();
      if (e) return { done: false, value: messageOf(e) };
      const timedOut = await new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(true), this.#heartbeatMs);
        t.unref();
        this.#wake = () => {
          clearTimeout(t);
          resolve(false);
        };
      });
      this.#wake = undefined;
      if (timedOut && !this.#closed) {
        return { done: false, value: { event: 'heartbeat', data: { ts: new Date().toISOString() } } };
      }
    }
  }

  async return(): Promise<IteratorResult<SseMessage>> {
    this.close();
    return { done: true, value: undefined };
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#wake?.();
    this.#onClose();
  }

  [Symbol.asyncIterator](): AsyncIterator<SseMessage> {
    return this;
  }
}
