import { sql } from 'kysely';
import { jobStatements } from '../jobs/statements.ts';
import { param, prepared } from '../storage/prepared.ts';
import type { StoredOffer } from './batch-reader.ts';
import type { SearchEngineDeps } from './engine-deps.ts';
import type { LogEvent } from './event-log.ts';
import type { Committed } from './notifier.ts';
import type { SearchStatus } from './tables.ts';

// The fan-out's writes to a search's log (search/engine.ts sends them, chained, one per supplier answer).

/**
 * One write of a search's log, as a prepared statement (`storage/prepared.ts`: parsed and planned once
 * per connection). One statement, so one round trip and one commit. The session row first: it is the lock
 * the orphan sweeper takes too, and a closed log stays closed (nothing is inserted when `open` is empty).
 *
 * Writes are chained, not queued: a search's next write is sent while the one before it is still on its
 * way, and the session row orders them in the database. `prior` locks the row (waiting for the write
 * before, on another connection, to commit or roll back) and reads it as it is then; `open` goes on only
 * if the row holds exactly what the writes before this one committed (`completed_suppliers`, which every
 * write raises: each carries at least one `supplier_done`). So a write commits after the one before it
 * and never without it: seqs commit in order and without gaps, and a reader that saw n has seen every
 * seq before n.
 *
 * An offer travels once: its event ({"offer": …} at the offer's position) is made from the offer row. The
 * write that ends the search also sets the final status and removes the deadline job; with a NOTIFY
 * channel (PostgreSQL) the notification is delivered when it commits. Arguments: supplier_done count,
 * offer count, search id, offers JSON, offers' expiry, the other events' JSON, final status, finished at,
 * deadline job id, channel, completed_suppliers the writes before this one committed.
 */
const writeStatement = (finish: boolean, notify: boolean) =>
  prepared<{ id: string }>(
    `search_write_${finish ? 'finish' : 'append'}${notify ? '_notify' : ''}`,
    (db) => ({
      compile: () =>
        sql<{ id: string }>`
        with prior as (
          select id, completed_suppliers from search_sessions
           where id = ${param(2)}::text and status in ('initiated', 'in_progress')
             for no key update
        ), open as (
          update search_sessions s
             set completed_suppliers = s.completed_suppliers + ${param(0)}::integer,
                 total_offers = s.total_offers + ${param(1)}::integer
                 ${finish ? sql`, status = ${param(6)}::text, finished_at = ${param(7)}::timestamptz` : sql``}
            from prior
           where s.id = prior.id and prior.completed_suppliers = ${param(10)}::integer
          returning s.id
        ), o as (
          select * from jsonb_to_recordset(${param(3)}::jsonb)
            as x(offer_id text, supplier text, position integer, offer jsonb, supplier_ref jsonb, total_minor bigint)
        ), offers as (
          insert into search_offers (offer_id, search_id, supplier, position, offer, supplier_ref, total_minor, expires_at)
          select o.offer_id, open.id, o.supplier, o.position, o.offer, coalesce(o.supplier_ref, 'null'::jsonb),
                 o.total_minor, ${param(4)}::timestamptz
            from open, o
        ), events as (
          insert into search_events (search_id, seq, event, data)
          select open.id, o.position, 'offer', jsonb_build_object('offer', o.offer) from open, o
          union all
          select open.id, x.seq, x.event, x.data
            from open, jsonb_to_recordset(${param(5)}::jsonb) as x(seq integer, event text, data jsonb)
        )${finish ? sql`, job as ${jobStatements.dropQueuedWhen('open', param(8))}` : sql``}
        select id${notify ? sql`, pg_notify(${param(9)}::text, id) as notified` : sql``} from open`.compile(
          db,
        ),
    }),
  );
export const WRITES = {
  append: { quiet: writeStatement(false, false), notify: writeStatement(false, true) },
  finish: { quiet: writeStatement(true, false), notify: writeStatement(true, true) },
};

/** What a write committed, handed to this process's readers (no re-read); other processes heard NOTIFY. */
export function handToReaders(
  d: Pick<SearchEngineDeps, 'notifier' | 'log'>,
  id: string,
  part: Append,
  completed: number,
  totalOffers: number,
  announced: readonly StoredOffer[],
): void {
  const committed: Committed = { events: part.events };
  if (part.finished) {
    committed.final = {
      status: part.finished,
      completed_suppliers: completed,
      total_offers: totalOffers,
      finished_at: part.finishedAt,
      offers: announced,
    };
  }
  if (d.notifier.channel) d.notifier.wake(id, committed);
  else void d.notifier.publish(id, committed).catch((err) => d.log?.warn({ err }, 'search notify failed'));
}

export interface OfferRow {
  offer_id: string;
  supplier: string;
  position: number;
  offer: Record<string, unknown>;
  supplier_ref: unknown;
  total_minor: number;
}

/** Answers made one after the other, as one write: their events and offers in seq order; the last ends it. */
export function together(parts: readonly Append[]): Append {
  const last = parts[parts.length - 1] as Append;
  if (parts.length === 1) return last;
  return {
    events: parts.flatMap((p) => p.events),
    offers: parts.flatMap((p) => p.offers),
    done: parts.reduce((n, p) => n + p.done, 0),
    ...(last.finished ? { finished: last.finished } : {}),
    finishedAt: last.finishedAt,
  };
}

export interface Append {
  events: LogEvent[];
  offers: OfferRow[];
  /** supplier_done events among `events`. */
  done: number;
  finished?: SearchStatus;
  finishedAt: Date;
}
