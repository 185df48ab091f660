/**
 * The one fan-out engine for flights, hotels and transfers. `start` records the session (`initiated`)
 * and returns at once; the fan-out then runs every enabled supplier concurrently, each under its own
 * deadline and circuit breaker, and appends what happens to the search's event log. Readers (streams,
 * batch, results) only read that log and the stored offers, so they cost the fan-out nothing and may live
 * in another process.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../internal/clock.ts';
import type { FxRates, FxSource } from '../internal/fx.ts';
import { enqueue } from '../jobs/runner.ts';
import { badRequest } from '../kernel/errors.ts';
import type { Logger } from '../kernel/types.ts';
import type { Db } from '../storage/schema.ts';
import type { GdsConfigStore, GdsSettings } from '../suppliers/gds-config.ts';
import { SupplierError } from '../suppliers/ports/errors.ts';
import type { CircuitBreakerRegistry } from './circuit-breaker.ts';
import { insertEvents, type LogEvent, realTimers, type Timers } from './event-log.ts';
import type { SearchNotifier } from './notifier.ts';
import {
  closingEvents,
  DEFAULT_ORPHAN_GRACE_MS,
  type DeadlinePayload,
  finalStatus,
  SEARCH_DEADLINE_QUEUE,
  searchDeadline,
} from './orphans.ts';
import type { SupplierStats } from './supplier-stats.ts';
import { type SearchStatus, type SupplierOutcome, searchDb, type Vertical } from './tables.ts';
import {
  type MarkupSource,
  noMarkup,
  requestedCurrency,
  type SearchableSupplier,
  VERTICALS,
  type VerticalSpec,
} from './verticals.ts';

/** Where the engine finds the suppliers of a vertical (the supplier registry implements it). */
export interface SupplierSource {
  searchSuppliers(vertical: Vertical): SearchableSupplier<unknown, unknown>[];
  /** Exchange rates for offers a supplier prices in another currency than the search asked for. */
  readonly fx?: FxSource;
}

export interface SearchEngineDeps {
  db: Db;
  suppliers: SupplierSource;
  gdsConfig: GdsConfigStore;
  breakers: CircuitBreakerRegistry;
  stats: SupplierStats;
  notifier: SearchNotifier;
  clock: Clock;
  /** SEARCH_TTL_SECONDS */
  ttlSeconds: number;
  /** SEARCH_ORPHAN_GRACE_SECONDS: after the slowest supplier's deadline, how long until a search whose
   * process died is closed by another (orphans.ts). */
  orphanGraceMs?: number;
  timers?: Timers;
  log?: Logger;
  /** The markup of a company's offers (domains/markup, injected by the composition root). */
  markup: MarkupSource;
}

export interface StartedSearch {
  id: string;
  status: SearchStatus;
  expires_at: Date;
}

export interface Starter {
  userId: string;
  companyId: number | null;
}

class SupplierTimeout extends Error {}

/** The session was closed by the orphan sweeper while this process still ran it: drop what is left. */
class SearchClosed extends Error {}

const newOfferId = (): string => `of_${randomBytes(12).toString('base64url')}`;

/** Settles with the call, or rejects when `signal` aborts: an adapter that ignores signals cannot hold us. */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

export class SearchEngine {
  readonly #d: SearchEngineDeps;
  readonly #timers: Timers;
  readonly #closing = new AbortController();
  readonly #running = new Set<Promise<void>>();

  constructor(deps: SearchEngineDeps) {
    this.#d = deps;
    this.#timers = deps.timers ?? realTimers;
  }

  /** Records the session and starts the fan-out without waiting for it. */
  async start(vertical: Vertical, request: Record<string, unknown>, by: Starter): Promise<StartedSearch> {
    const spec = VERTICALS[vertical];
    const wanted = new Set(spec.sources(request));
    const candidates = this.#d.suppliers
      .searchSuppliers(vertical)
      .filter((s) => wanted.size === 0 || wanted.has(s.name));
    const settings = await this.#d.gdsConfig.all(candidates.map((s) => s.name));
    const plan = candidates
      .filter((s) => settings[s.name]?.enabled)
      .sort(
        (a, b) =>
          (settings[b.name]?.priority ?? 0) - (settings[a.name]?.priority ?? 0) || (a.name < b.name ? -1 : 1),
      );
    if (plan.length === 0)
      throw badRequest('no_supplier_available', 'No enabled supplier can serve this search.');

    const id = `${spec.idPrefix}${randomBytes(12).toString('base64url')}`;
    const now = this.#d.clock.now();
    const expires = new Date(now.getTime() + this.#d.ttlSeconds * 1000);
    const deadline = searchDeadline(
      now,
      plan.map((s) => settings[s.name]?.timeout_ms ?? 0),
      this.#d.orphanGraceMs ?? DEFAULT_ORPHAN_GRACE_MS,
    );
    // The session and its deadline job commit together: no search exists that nobody would ever close.
    const jobId = await this.#d.db.transaction().execute(async (trx) => {
      await searchDb(trx)
        .insertInto('search_sessions')
        .values({
          id,
          vertical,
          status: 'initiated',
          user_id: by.userId,
          company_id: by.companyId,
          request: JSON.stringify(request),
          suppliers: JSON.stringify(plan.map((s) => s.name)),
          total_suppliers: plan.length,
          created_at: now,
          expires_at: expires,
        })
        .execute();
      const payload: DeadlinePayload = { search_id: id };
      return enqueue(trx, SEARCH_DEADLINE_QUEUE, payload, { runAt: deadline }, this.#d.clock);
    });

    const run = this.#run(id, spec, request, by, plan, settings, expires, jobId)
      .catch((err) =>
        err instanceof SearchClosed
          ? this.#d.log?.warn({ search_id: id }, 'search was closed at its deadline; dropped late results')
          : this.#d.log?.error({ err, search_id: id }, 'search fan-out failed'),
      )
      .finally(() => this.#running.delete(run));
    this.#running.add(run);
    return { id, status: 'initiated', expires_at: expires };
  }

  /** Aborts running fan-outs (they end with supplier failures and a `done`) and waits for their writes. */
  async close(): Promise<void> {
    this.#closing.abort(new Error('server shutting down'));
    await Promise.allSettled([...this.#running]);
  }

  /** Fan-outs still running in this process (for /admin/reports/live). */
  activeSearches(): number {
    return this.#running.size;
  }

  async #run(
    id: string,
    spec: VerticalSpec,
    request: Record<string, unknown>,
    by: Starter,
    plan: SearchableSupplier<unknown, unknown>[],
    settings: Record<string, GdsSettings>,
    expiresAt: Date,
    deadlineJob: string | undefined,
  ): Promise<void> {
    const db = searchDb(this.#d.db);
    const markup = spec.marksUp ? await this.#d.markup(by.companyId) : noMarkup;
    // Today's rates, read once: every offer of this search converts at the same rate, stored with it.
    const fx: FxRates | null = this.#d.suppliers.fx
      ? await this.#d.suppliers.fx.rates().catch((err) => {
          this.#d.log?.warn(
            { err, search_id: id },
            'no exchange rates: offers in another currency are left out',
          );
          return null;
        })
      : null;
    const currency = requestedCurrency(request);
    // Aborted when the sweeper has closed this search: the suppliers still running are not waited for.
    const closed = new AbortController();
    const stop = AbortSignal.any([this.#closing.signal, closed.signal]);
    let seq = 0;
    let totalOffers = 0;
    // One append at a time: seq commits in order, so a reader that saw n has seen everything before n.
    let chain: Promise<void> = db
      .updateTable('search_sessions')
      .set({ status: 'in_progress' })
      .where('id', '=', id)
      .where('status', '=', 'initiated')
      .execute()
      .then(() => undefined);
    const append = (build: () => { events: LogEvent[]; offers: OfferRow[]; finished?: SearchStatus }) => {
      chain = chain.then(async () => {
        const { events, offers, finished } = build();
        await this.#d.db.transaction().execute(async (kt) => {
          const trx = searchDb(kt);
          const done = events.filter((e) => e.event === 'supplier_done').length;
          // The session row first: it is the lock the orphan sweeper takes too, and a closed log stays closed.
          const open = await trx
            .updateTable('search_sessions')
            .set((eb) => ({
              completed_suppliers: eb('completed_suppliers', '+', done),
              total_offers: eb('total_offers', '+', offers.length),
              ...(finished ? { status: finished, finished_at: this.#d.clock.now() } : {}),
            }))
            .where('id', '=', id)
            .where('status', 'in', ['initiated', 'in_progress'])
            .returning('id')
            .executeTakeFirst();
          if (!open) throw new SearchClosed();
          if (offers.length > 0) await trx.insertInto('search_offers').values(offers).execute();
          await insertEvents(trx, id, events);
          if (finished && deadlineJob) {
            await kt
              .deleteFrom('jobs')
              .where('id', '=', deadlineJob)
              .where('status', '=', 'queued')
              .execute();
          }
        });
        await this.#d.notifier.publish(id).catch((err) => this.#d.log?.warn({ err }, 'search notify failed'));
      });
      chain.catch((err) => {
        if (err instanceof SearchClosed) closed.abort(err);
      });
      return chain;
    };

    const outcomes = await Promise.all(
      plan.map(async (supplier) => {
        const cfg = settings[supplier.name] as GdsSettings;
        const { outcome, offers } = await this.#call(spec, supplier, request, cfg, stop);
        const kept = offers.slice(0, cfg.max_results);
        await append(() => {
          const events: LogEvent[] = [];
          const rows: OfferRow[] = [];
          for (const o of kept) {
            try {
              const p = spec.present(o, {
                offerId: newOfferId(),
                searchId: id,
                markup,
                companyId: by.companyId,
                currency,
                fx,
              });
              seq += 1;
              events.push({ seq, event: 'offer', data: { offer: p.offer } });
              rows.push({
                offer_id: p.offer.offer_id as string,
                search_id: id,
                supplier: supplier.name,
                position: seq,
                offer: JSON.stringify(p.offer),
                supplier_ref: JSON.stringify(p.supplierRef ?? null),
                total_minor: p.totalMinor,
                expires_at: expiresAt,
              });
            } catch (err) {
              this.#d.log?.warn(
                { err, supplier: supplier.name },
                'dropped an offer that could not be normalized',
              );
            }
          }
          totalOffers += rows.length;
          seq += 1;
          events.push({
            seq,
            event: 'supplier_done',
            data: { supplier: supplier.name, status: outcome, offer_count: rows.length },
          });
          return { events, offers: rows };
        });
        return outcome;
      }),
    );
    const status = finalStatus(outcomes);
    await append(() => ({ events: closingEvents(seq, status, totalOffers), offers: [], finished: status }));
  }

  /** One supplier's part: breaker, deadline, stats. Never throws. */
  async #call(
    spec: VerticalSpec,
    supplier: SearchableSupplier<unknown, unknown>,
    request: Record<string, unknown>,
    cfg: GdsSettings,
    stop: AbortSignal,
  ): Promise<{ outcome: SupplierOutcome; offers: unknown[] }> {
    const breaker = this.#d.breakers.get(supplier.name);
    if (!breaker.canPass()) return { outcome: 'skipped', offers: [] };
    const ac = new AbortController();
    const timer = this.#timers.setTimeout(
      () => ac.abort(new SupplierTimeout('supplier deadline')),
      cfg.timeout_ms,
    );
    const onClose = () => ac.abort(stop.reason);
    if (stop.aborted) onClose();
    else stop.addEventListener('abort', onClose, { once: true });
    const t0 = performance.now();
    try {
      const query = spec.query(request, cfg.max_results);
      const offers = await raceAbort(supplier.search(query, { signal: ac.signal }), ac.signal);
      breaker.onSuccess();
      this.#d.stats.record(supplier.name, { latency_ms: performance.now() - t0, outcome: 'success' });
      return { outcome: 'completed', offers };
    } catch (err) {
      const latency = performance.now() - t0;
      if (stop.aborted) {
        breaker.onCancel();
        return { outcome: 'failed', offers: [] };
      }
      const timedOut =
        ac.signal.reason instanceof SupplierTimeout ||
        (err instanceof SupplierError && err.kind === 'timeout');
      breaker.onFailure();
      this.#d.stats.record(supplier.name, { latency_ms: latency, outcome: timedOut ? 'timeout' : 'error' });
      if (!timedOut) this.#d.log?.warn({ err, supplier: supplier.name }, 'supplier search failed');
      return { outcome: timedOut ? 'timed_out' : 'failed', offers: [] };
    } finally {
      this.#timers.clearTimeout(timer);
      stop.removeEventListener('abort', onClose);
    }
  }
}

interface OfferRow {
  offer_id: string;
  search_id: string;
  supplier: string;
  position: number;
  offer: string;
  supplier_ref: string;
  total_minor: number;
  expires_at: Date;
}
