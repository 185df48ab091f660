/**
 * The consumption modes of a search, all reading the event log and the stored offers: the offer-by-offer
 * stream, the provider-by-provider stream, the batch wait and the results page. None of them touches
 * the fan-out, so any number of readers, in any process, cost it nothing. Here the streams; the node
 * path's push reader is push-reader.ts, the batch wait batch-reader.ts, the results page results-page.ts,
 * and what they share reader-feed.ts.
 */

import { type PushSource, SSE_PUSH } from '../kernel/sse.ts';
import type { SseMessage } from '../kernel/types.ts';
import { follow } from './event-log.ts';
import { pushEvents } from './push-reader.ts';
import { followOpts, heartbeat, messageOf, type ReaderDeps, type StreamNames } from './reader-feed.ts';
import {
  assertReadable,
  type Caller,
  findSession,
  type SearchSession,
  type SessionIdentity,
} from './session-store.ts';
import type { Vertical } from './tables.ts';

export type { ReaderDeps, StreamNames } from './reader-feed.ts';

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
