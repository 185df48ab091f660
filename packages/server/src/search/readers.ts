/**
 * The consumption modes of a search, all reading the event log and the stored offers: the offer-by-offer
 * stream, the provider-by-provider stream, the batch wait and the results page. None of them touches
 * the fan-out, so any number of readers, in any process, cost it nothing.
 */

import { sql } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import {
  MAX_UNREAD_BYTES,
  type PushSource,
  SSE_PUSH,
  type SseWriter,
  sharedSseMessage,
  sseBytes,
} from '../kernel/sse.ts';
import type { SseMessage } from '../kernel/types.ts';
import type { Db } from '../storage/schema.ts';
import {
  type FeedHandle,
  type FeedSubscriber,
  firstAfter,
  follow,
  type LogEvent,
  type LogEventName,
  realTimers,
  subscribe,
  type Timers,
} from './event-log.ts';
import type { Committed, SearchNotifier } from './notifier.ts';
import {
  assertReadable,
  type Caller,
  findSession,
  isFinal,
  type SearchSession,
  type SessionIdentity,
} from './session-store.ts';
import { parseJson, searchDb, type Vertical } from './tables.ts';

export interface ReaderDeps {
  db: Db;
  notifier: SearchNotifier;
  clock: Clock;
  heartbeatMs: number;
  pollMs: number;
  timers?: Timers;
}

/** How one stream names the log's events; a log event without a name here is not part of that stream. */
export type StreamNames = Partial<Record<LogEventName, string>>;

const heartbeat = (clock: Clock): SseMessage => ({
  event: 'heartbeat',
  data: { ts: clock.now().toISOString() },
});

/** Identities of sessions this process has streamed (per reader deps, so per database), by id; bounded. */
const identities = new WeakMap<ReaderDeps, Map<string, Promise<SessionIdentity | undefined>>>();
const MAX_IDENTITIES = 10_000;

/**
 * The session a caller may stream, checked exactly as `readableSession` checks it (404 not theirs or
 * unknown, 410 expired), from the session's identity, which is read once per search and process however
 * many readers attach (concurrent first readers share one read). Safe to keep: nothing updates who owns
 * a session, its vertical or its expiry; an unknown id is not remembered.
 */
export async function streamableSession(
  deps: ReaderDeps,
  id: string,
  caller: Caller,
  vertical: Vertical,
): Promise<SessionIdentity> {
  let byId = identities.get(deps);
  if (!byId) {
    byId = new Map();
    identities.set(deps, byId);
  }
  const known = byId;
  let found = known.get(id);
  if (!found) {
    const read = findSession(deps.db, id).then((s) =>
      s
        ? {
            id: s.id,
            vertical: s.vertical,
            user_id: s.user_id,
            company_id: s.company_id,
            expires_at: s.expires_at,
          }
        : undefined,
    );
    found = read;
    known.set(id, read);
    if (known.size > MAX_IDENTITIES) known.delete(known.keys().next().value as string);
    read.then(
      (s) => {
        if (!s && known.get(id) === read) known.delete(id);
      },
      () => {
        if (known.get(id) === read) known.delete(id);
      },
    );
  }
  const s = await found;
  assertReadable(s, caller, vertical, deps.clock.now());
  return s;
}

/** Parses a Last-Event-ID header: our ids are the log's seq numbers. Anything else restarts from 0. */
export function lastEventId(header: string | undefined): number {
  if (!header) return 0;
  const n = Number(header.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** The stream message of a log event under a stream's name: made once per event and name, shared by every
 * reader of the search (the kernel then encodes each message object once, not once per stream). */
const messages = new WeakMap<LogEvent, { name: string; message: SseMessage }>();
function messageOf(item: LogEvent, name: string): SseMessage {
  const hit = messages.get(item);
  if (hit?.name === name) return hit.message;
  const message = sharedSseMessage({ id: String(item.seq), event: name, data: item.data });
  messages.set(item, { name, message });
  return message;
}

/** The last burst made of each feed's events: what readers at one place in it take, made once per pass. */
const bursts = new WeakMap<
  readonly LogEvent[],
  { from: number; to: number; names: StreamNames; bytes: Uint8Array }
>();

/**
 * The bytes of `events[from, to)` under a stream's names, as one piece. Every reader of a search at the
 * same place (all of them, when they keep up) takes the same piece: it is made once, not once per reader.
 */
function burstBytes(events: readonly LogEvent[], from: number, to: number, names: StreamNames): Uint8Array {
  const hit = bursts.get(events);
  if (hit && hit.from === from && hit.to === to && hit.names === names) return hit.bytes;
  const parts: Uint8Array[] = [];
  for (let i = from; i < to; i++) {
    const item = events[i] as LogEvent;
    const name = item.event === 'done' ? 'done' : names[item.event];
    if (name) parts.push(sseBytes(messageOf(item, name)));
  }
  const bytes = parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
  bursts.set(events, { from, to, names, bytes });
  return bytes;
}

/** One heartbeat message per clock millisecond, whatever the number of streams it goes to. */
let lastBeat: { at: number; bytes: Uint8Array } | undefined;
function heartbeatBytes(clock: Clock): Uint8Array {
  const now = clock.now();
  const at = now.getTime();
  if (lastBeat?.at !== at) {
    lastBeat = { at, bytes: sseBytes({ event: 'heartbeat', data: { ts: now.toISOString() } }) };
  }
  return lastBeat.bytes;
}

/**
 * Offer-by-offer stream: every log event after `after` that this stream names, with its seq as `id`.
 * A reader resuming at or after the terminal event gets the terminal event again (and nothing else), so
 * it knows the search is over instead of treating an empty close as a dropped connection.
 *
 * On the node path it is a push source: the search's feed writes each event's shared bytes to the
 * stream's writer (no iterator, promise or timer per stream). A reader more than MAX_UNREAD_BYTES behind
 * is paused at its place in the feed (the events are in memory anyway) and resumed when it drains; one
 * still behind after a whole heartbeat interval is cut, and resumes with Last-Event-ID. Iterated (the
 * web `handle` path, tests) it yields the same messages, with heartbeats.
 */
export function eventStream(
  deps: ReaderDeps,
  session: Pick<SearchSession, 'id'>,
  after: number,
  names: StreamNames,
  signal?: AbortSignal | (() => AbortSignal),
): AsyncIterable<SseMessage> & PushSource {
  const searchId = session.id;
  return {
    [Symbol.asyncIterator]: () =>
      eventMessages(deps, searchId, after, names, typeof signal === 'function' ? signal() : signal),
    [SSE_PUSH]: (out) => pushEvents(deps, searchId, after, names, out),
  };
}

async function* eventMessages(
  deps: ReaderDeps,
  searchId: string,
  after: number,
  names: StreamNames,
  signal: AbortSignal | undefined,
): AsyncGenerator<SseMessage> {
  // follow() answers a reader resuming at or after `done` with `done` alone.
  for await (const item of follow({ ...followOpts(deps, searchId, signal), after })) {
    if ('heartbeat' in item) {
      yield heartbeat(deps.clock);
      continue;
    }
    const name = item.event === 'done' ? 'done' : names[item.event];
    if (name) yield messageOf(item, name);
  }
}

function pushEvents(
  deps: ReaderDeps,
  searchId: string,
  after: number,
  names: StreamNames,
  out: SseWriter,
): { stop(): void } {
  const reader = new PushReader(deps, after, names, out);
  reader.handle = subscribe(followOpts(deps, searchId, undefined), reader);
  reader.handle.ready.then(
    () => reader.start(),
    (err: unknown) => reader.failed(err),
  );
  return reader;
}

/**
 * One reader of the offer stream on the node path: its place in the feed and its writer. A class, so an
 * open stream is one small object (methods shared), not a dozen closures.
 */
class PushReader implements FeedSubscriber {
  handle!: FeedHandle;
  /** Index in the feed's events of the next one to take. */
  next = 0;
  ready = false;
  stopped = false;
  /** Something was written since the feed's last heartbeat tick. */
  sent = false;
  /** Heartbeat ticks seen while paused (-1: not paused). */
  pausedTicks = -1;
  /** A `drain` listener is waiting (at most one per stream, however often it pauses). */
  drainArmed = false;
  readonly deps: ReaderDeps;
  readonly after: number;
  readonly names: StreamNames;
  readonly out: SseWriter;

  constructor(deps: ReaderDeps, after: number, names: StreamNames, out: SseWriter) {
    this.deps = deps;
    this.after = after;
    this.names = names;
    this.out = out;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.handle.close();
  }

  /** The feed has read the log: a reader resuming at or after `done` gets `done` alone; others catch up. */
  start(): void {
    if (this.stopped) return;
    this.ready = true;
    const events = this.handle.feed.events;
    const last = events.at(-1);
    if (last?.event === 'done' && last.seq <= this.after) {
      this.out.write(sseBytes(messageOf(last, 'done')));
      this.stop();
      this.out.end();
      return;
    }
    this.next = firstAfter(events, this.after);
    this.wake();
  }

  failed(err: unknown): void {
    if (this.stopped) return;
    this.stop();
    this.out.fail(err);
  }

  /** New events (or a failed read): write what the client can take now. */
  wake(): void {
    const events = this.handle.feed.events;
    while (!this.stopped && this.ready && this.pausedTicks < 0 && this.next < events.length) {
      // What the reader takes now leaves in one write (one syscall), ended with it when it holds `done`.
      this.out.cork();
      try {
        if (this.take(events)) {
          this.out.end();
          return;
        }
      } finally {
        this.out.uncork();
      }
      // Corked bytes count as unread until the uncork hands them to the socket, which may take them all.
      if (this.pausedTicks >= 0 && this.out.buffered <= MAX_UNREAD_BYTES) this.pausedTicks = -1;
    }
    const failure = this.handle.feed.failure;
    if (!this.stopped && this.ready && this.next >= events.length && failure !== undefined) {
      this.failed(failure);
    }
  }

  /**
   * Writes, as one piece, the events from its place up to `done` or up to the one that takes it past
   * MAX_UNREAD_BYTES (then it pauses); true when that included `done` (the caller ends the stream).
   */
  take(events: readonly LogEvent[]): boolean {
    const from = this.next;
    let to = from;
    let unread = this.out.buffered;
    let named = false;
    let done = false;
    while (to < events.length) {
      const item = events[to++] as LogEvent;
      const name = item.event === 'done' ? 'done' : this.names[item.event];
      if (name) {
        unread += sseBytes(messageOf(item, name)).byteLength;
        named = true;
      }
      if (item.event === 'done') {
        done = true;
        break;
      }
      if (unread > MAX_UNREAD_BYTES) break;
    }
    this.next = to;
    if (named) {
      this.out.write(burstBytes(events, from, to, this.names));
      this.sent = true;
    }
    if (done) {
      this.stop();
      return true;
    }
    if (this.out.buffered > MAX_UNREAD_BYTES) {
      this.pausedTicks = 0;
      if (!this.drainArmed) {
        this.drainArmed = true;
        this.out.onDrain(() => this.resume());
      }
    }
    return false;
  }

  resume(): void {
    this.drainArmed = false;
    if (this.pausedTicks < 0) return;
    this.pausedTicks = -1;
    this.wake();
  }

  /** The feed's heartbeat tick: a heartbeat if nothing was sent since the last one; a reader still
   * behind a whole interval after the previous tick found it behind is cut. */
  tick(): void {
    if (this.stopped) return;
    if (this.pausedTicks >= 0) {
      if (++this.pausedTicks >= 2) {
        this.stop();
        this.out.cut();
      }
      return;
    }
    if (!this.sent) this.out.write(heartbeatBytes(this.deps.clock));
    this.sent = false;
  }
}

/**
 * Provider-by-provider stream: one event per supplier with its complete offer array, as each completes.
 * The whole log is read (offers precede their supplier's completion) but only groups after `after` are
 * sent, so Last-Event-ID works here too.
 */
export async function* groupStream(
  deps: ReaderDeps,
  session: Pick<SearchSession, 'id'>,
  after: number,
  groupEvent: string,
  key: 'gds' | 'provider',
  signal?: AbortSignal,
): AsyncGenerator<SseMessage> {
  const bySupplier = new Map<string, unknown[]>();
  for await (const item of follow({ ...followOpts(deps, session.id, signal), after: 0 })) {
    if ('heartbeat' in item) {
      yield heartbeat(deps.clock);
      continue;
    }
    if (item.event === 'offer') {
      const offer = item.data.offer as { supplier: string };
      const list = bySupplier.get(offer.supplier) ?? [];
      list.push(offer);
      bySupplier.set(offer.supplier, list);
    } else if (item.event === 'supplier_done') {
      const supplier = item.data.supplier as string;
      if (item.seq > after) {
        yield {
          id: String(item.seq),
          event: groupEvent,
          data: { [key]: supplier, status: item.data.status, offers: bySupplier.get(supplier) ?? [] },
        };
      }
      bySupplier.delete(supplier);
    } else if (item.event === 'done') {
      yield { id: String(item.seq), event: 'done', data: item.data };
    }
  }
}

function followOpts(deps: ReaderDeps, searchId: string, signal: AbortSignal | undefined) {
  return {
    db: deps.db,
    notifier: deps.notifier,
    searchId,
    heartbeatMs: deps.heartbeatMs,
    pollMs: deps.pollMs,
    timers: deps.timers ?? realTimers,
    ...(signal ? { signal } : {}),
  };
}

/**
 * Resolves with the session once it is final, or with its state when `deadline` settles first. Wakes on
 * notifications and polls as a fallback. When this process's engine ends the search, its notification
 * carries the final state and every offer, which come back as `offers` (no re-read of either).
 */
export async function waitForSearch(
  deps: ReaderDeps,
  searchId: string,
  deadline: Promise<void>,
  signal?: AbortSignal,
): Promise<{ session: SearchSession; cut: boolean; offers?: readonly StoredOffer[] }> {
  const timers = deps.timers ?? realTimers;
  let cut = false;
  let final: Committed['final'];
  // Set by any wake-up, also one that comes while the session is being read: it is read again at once.
  let poked = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    poked = true;
    wake?.();
  };
  const unsubscribe = deps.notifier.subscribe(searchId, (committed) => {
    // This process's engine says exactly when the search ends: its other appends need no re-read.
    if (committed && !committed.final) return;
    if (committed?.final) final = committed.final;
    poke();
  });
  void deadline.then(() => {
    cut = true;
    poke();
  });
  signal?.addEventListener('abort', poke);
  let s: SearchSession | undefined;
  try {
    for (;;) {
      poked = false;
      if (final && s) {
        const { offers, ...state } = final;
        return { session: { ...s, ...state }, cut: false, offers };
      }
      s = await findSession(deps.db, searchId);
      if (!s) throw new Error(`search ${searchId} vanished`);
      if (final) continue;
      if (isFinal(s.status) || cut || signal?.aborted) return { session: s, cut: !isFinal(s.status) };
      if (poked) continue;
      await new Promise<void>((resolve) => {
        const t = timers.setTimeout(resolve, deps.pollMs);
        wake = () => {
          timers.clearTimeout(t);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener('abort', poke);
  }
}

export interface StoredOffer {
  supplier: string;
  offer: Record<string, unknown>;
  total_minor: number;
}

/**
 * The search's results: exactly the offers its suppliers answered. The engine stores each with the `offer`
 * event announcing it (position = that event's seq, same transaction); the booking domain stores offers
 * derived from them (upsell alternatives, bag re-prices) in the same table so they resolve by offer_id,
 * but never logs them. Only offers the log announced are results, so derived rows stay out of the batch
 * and results page exactly as they stay out of the streams.
 */
export async function searchOffers(db: Db, searchId: string): Promise<StoredOffer[]> {
  const rows = await searchDb(db)
    .selectFrom('search_offers as o')
    .innerJoin('search_events as e', (j) =>
      j
        .onRef('e.search_id', '=', 'o.search_id')
        .onRef('e.seq', '=', 'o.position')
        .on('e.event', '=', 'offer'),
    )
    .select(['o.supplier', 'o.offer', 'o.total_minor'])
    .where('o.search_id', '=', searchId)
    .where(sql<string>`e.data -> 'offer' ->> 'offer_id'`, '=', sql.ref<string>('o.offer_id'))
    .orderBy('o.position')
    .execute();
  return rows.map((r) => ({
    supplier: r.supplier,
    offer: parseJson(r.offer),
    total_minor: Number(r.total_minor),
  }));
}

/** Batch body: offers grouped by supplier in the session's (priority) order; every supplier has a key. */
export async function batchResult(
  db: Db,
  session: SearchSession,
  cut: boolean,
  key: 'gds' | 'provider',
  known?: readonly StoredOffer[],
) {
  const offers = known ?? (await searchOffers(db, session.id));
  const groups: Record<string, unknown[]> = {};
  for (const name of session.suppliers) groups[name] = [];
  for (const o of offers) {
    const list = groups[o.supplier] ?? [];
    list.push(o.offer);
    groups[o.supplier] = list;
  }
  return {
    search_id: session.id,
    status: session.status,
    [`results_by_${key}`]: groups,
    total_offers: offers.length,
    [`completed_${key}_count`]: session.completed_suppliers,
    [`total_${key}_count`]: session.total_suppliers,
    timed_out: cut,
  };
}
