/**
 * The consumption modes of a search, all reading the event log and the stored offers: the offer-by-offer
 * stream, the provider-by-provider stream, the batch wait and the results page. None of them touches
 * the fan-out, so any number of readers, in any process, cost it nothing.
 */

import { sql } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import { sharedSseMessage } from '../kernel/sse.ts';
import type { SseMessage } from '../kernel/types.ts';
import type { Db } from '../storage/schema.ts';
import { follow, type LogEvent, type LogEventName, realTimers, type Timers } from './event-log.ts';
import type { Committed, SearchNotifier } from './notifier.ts';
import { findSession, isFinal, type SearchSession } from './session-store.ts';
import { parseJson, searchDb } from './tables.ts';

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

/**
 * Offer-by-offer stream: every log event after `after` that this stream names, with its seq as `id`.
 * A reader resuming at or after the terminal event gets the terminal event again (and nothing else), so
 * it knows the search is over instead of treating an empty close as a dropped connection.
 */
export async function* eventStream(
  deps: ReaderDeps,
  session: SearchSession,
  after: number,
  names: StreamNames,
  signal?: AbortSignal,
): AsyncGenerator<SseMessage> {
  // follow() answers a reader resuming at or after `done` with `done` alone.
  for await (const item of follow({ ...followOpts(deps, session.id, signal), after })) {
    if ('heartbeat' in item) {
      yield heartbeat(deps.clock);
      continue;
    }
    const name = item.event === 'done' ? 'done' : names[item.event];
    if (name) yield messageOf(item, name);
  }
}

/**
 * Provider-by-provider stream: one event per supplier with its complete offer array, as each completes.
 * The whole log is read (offers precede their supplier's completion) but only groups after `after` are
 * sent, so Last-Event-ID works here too.
 */
export async function* groupStream(
  deps: ReaderDeps,
  session: SearchSession,
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
