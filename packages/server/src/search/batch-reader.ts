import { sql } from 'kysely';
import type { Db } from '../storage/schema.ts';
import { realTimers } from './event-log.ts';
import type { Committed } from './notifier.ts';
import type { ReaderDeps } from './reader-feed.ts';
import { findSession, isFinal, type SearchSession } from './session-store.ts';
import { parseJson, searchDb } from './tables.ts';

// The batch answer of a search: waiting for it to end (or for the caller's deadline), then its offers
// grouped by supplier.

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
