/**
 * The append-only per-search event log (`search_events`) and the reader that follows it. One process
 * (the one running the fan-out) writes a search's log, one append at a time, so `seq` grows without gaps
 * and a reader that has seen `seq = n` has seen everything before it. Readers never hold up the writer:
 * they only read committed rows.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../storage/schema.ts';
import type { SearchNotifier } from './notifier.ts';
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

/** Every event after `after`, as it is committed, until (and including) `done`; heartbeats in between. */
export async function* follow(o: FollowOptions): AsyncGenerator<FollowItem> {
  const db = searchDb(o.db);
  const timers = o.timers ?? realTimers;
  let last = o.after;
  let dirty = true;
  let beat = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    dirty = true;
    wake?.();
  };
  const unsubscribe = o.notifier.subscribe(o.searchId, poke);
  o.signal?.addEventListener('abort', poke);
  let beatTimer: unknown;
  const armBeat = () => {
    if (beatTimer !== undefined) timers.clearTimeout(beatTimer);
    beatTimer = timers.setTimeout(() => {
      beat = true;
      wake?.();
    }, o.heartbeatMs);
  };
  try {
    armBeat();
    while (!o.signal?.aborted) {
      if (dirty) {
        dirty = false;
        const rows = await readAfter(db, o.searchId, last);
        for (const row of rows) {
          last = row.seq;
          yield row;
          armBeat();
          if (row.event === 'done') return;
        }
        if (rows.length === PAGE) dirty = true;
        continue;
      }
      if (beat) {
        beat = false;
        yield { heartbeat: true };
        armBeat();
        continue;
      }
      await new Promise<void>((resolve) => {
        const poll = timers.setTimeout(() => {
          dirty = true;
          resolve();
        }, o.pollMs);
        wake = () => {
          timers.clearTimeout(poll);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    unsubscribe();
    o.signal?.removeEventListener('abort', poke);
    if (beatTimer !== undefined) timers.clearTimeout(beatTimer);
  }
}
