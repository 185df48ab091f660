import type { FxRates } from '../internal/fx.ts';
import { newOfferId } from '../internal/ids.ts';
import type { StoredOffer } from './batch-reader.ts';
import type { SearchEngineDeps } from './engine-deps.ts';
import type { LogEvent } from './event-log.ts';
import type { Append, OfferRow } from './log-write.ts';
import { closingEvents, finalStatus } from './orphans.ts';
import type { SupplierOutcome } from './tables.ts';
import type { Markup, requestedCurrency, VerticalSpec } from './verticals.ts';

/** A search's running count, shared by its suppliers' answers as they are made (in send order). */
export interface SearchTally {
  /** The last seq given out. */
  seq: number;
  totalOffers: number;
  outcomes: SupplierOutcome[];
  /** Every offer the log announced so far, in order: the batch answer of this process's readers. */
  announced: StoredOffer[];
}

/**
 * One supplier's answer as its write: each offer presented (marked up, converted) and numbered, its
 * `supplier_done`, and, for the last supplier of the search, the closing events.
 */
export function answerPart(
  d: Pick<SearchEngineDeps, 'log' | 'clock'>,
  tally: SearchTally,
  answer: {
    spec: VerticalSpec;
    searchId: string;
    supplier: string;
    outcome: SupplierOutcome;
    kept: unknown[];
    markup: Markup;
    fx: FxRates | null;
    companyId: number | null;
    currency: ReturnType<typeof requestedCurrency>;
    /** How many suppliers the search asked. */
    suppliers: number;
  },
): Append {
  const { spec, searchId: id, supplier, outcome, kept, markup, fx, companyId, currency, suppliers } = answer;
  const events: LogEvent[] = [];
  const rows: OfferRow[] = [];
  for (const o of kept) {
    try {
      const p = spec.present(o, {
        offerId: newOfferId(),
        searchId: id,
        markup,
        companyId,
        currency,
        fx,
      });
      // What the database stores and readers read back: the JSON form, once.
      const offer = JSON.parse(JSON.stringify(p.offer)) as Record<string, unknown>;
      tally.seq += 1;
      events.push({ seq: tally.seq, event: 'offer', data: { offer } });
      rows.push({
        offer_id: offer.offer_id as string,
        supplier: supplier,
        position: tally.seq,
        offer,
        supplier_ref: p.supplierRef ?? null,
        total_minor: p.totalMinor,
      });
      tally.announced.push({ supplier: supplier, offer, total_minor: p.totalMinor });
    } catch (err) {
      d.log?.warn({ err, supplier: supplier }, 'dropped an offer that could not be normalized');
    }
  }
  tally.totalOffers += rows.length;
  tally.seq += 1;
  events.push({
    seq: tally.seq,
    event: 'supplier_done',
    data: { supplier: supplier, status: outcome, offer_count: rows.length },
  });
  tally.outcomes.push(outcome);
  const finishedAt = d.clock.now();
  // The last supplier's write also ends the log: no separate transaction for `done`.
  if (tally.outcomes.length < suppliers) {
    return { events, offers: rows, done: 1, finishedAt };
  }
  const status = finalStatus(tally.outcomes);
  events.push(...closingEvents(tally.seq, status, tally.totalOffers));
  tally.seq += 2;
  return { events, offers: rows, done: 1, finished: status, finishedAt };
}
