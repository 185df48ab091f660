/**
 * The one fan-out engine for flights, hotels and transfers. `start` records the session (`initiated`)
 * and returns at once; the fan-out then runs every enabled supplier concurrently, each under its own
 * deadline and circuit breaker, and appends what happens to the search's event log. Readers (streams,
 * batch, results) only read that log and the stored offers, so they cost the fan-out nothing and may live
 * in another process.
 */
import { randomBytes } from 'node:crypto';
import type { FxRates } from '../internal/fx.ts';
import { newId } from '../internal/ids.ts';
import { mark } from '../internal/phase-marks.ts';
import { badRequest } from '../kernel/errors.ts';
import type { GdsSettings } from '../suppliers/gds-config.ts';
import { SupplierError } from '../suppliers/ports/errors.ts';
import { refOwner } from '../suppliers/signed-refs.ts';
import { answerPart, type SearchTally } from './answer-part.ts';
import type { SearchEngineDeps, StartedSearch, Starter } from './engine-deps.ts';
import { realTimers, type Timers } from './event-log.ts';
import { type Append, handToReaders, together, WRITES } from './log-write.ts';
import { DEFAULT_ORPHAN_GRACE_MS, SEARCH_DEADLINE_QUEUE, searchDeadline } from './orphans.ts';
import { confirmUserCode, type OwnUserCode, recordSession } from './session-store.ts';
import { type SupplierOutcome, searchDb, type Vertical } from './tables.ts';
import {
  noMarkup,
  requestedCurrency,
  type SearchableSupplier,
  VERTICALS,
  type VerticalSpec,
} from './verticals.ts';

class SupplierTimeout extends Error {}

/** The session was closed by the orphan sweeper while this process still ran it: drop what is left. */
class SearchClosed extends Error {}

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

  /**
   * Records the session and starts the fan-out without waiting for it. With `userCode`, only when the
   * caller's `users` row names it (checked by the statement that records the session; the refusal is
   * whatever `userCode.confirm` throws, and nothing is recorded or asked then).
   */
  async start(
    vertical: Vertical,
    request: Record<string, unknown>,
    by: Starter,
    userCode?: OwnUserCode,
  ): Promise<StartedSearch> {
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
    if (plan.length === 0) {
      // Another user's code is refused before anything else is said about the search.
      if (userCode) await confirmUserCode(this.#d.db, by.userId, userCode);
      throw badRequest('no_supplier_available', 'No enabled supplier can serve this search.');
    }

    const id = `${spec.idPrefix}${randomBytes(12).toString('base64url')}`;
    const now = this.#d.clock.now();
    const expires = new Date(now.getTime() + this.#d.ttlSeconds * 1000);
    const deadline = searchDeadline(
      now,
      plan.map((s) => settings[s.name]?.timeout_ms ?? 0),
      this.#d.orphanGraceMs ?? DEFAULT_ORPHAN_GRACE_MS,
    );
    // The session and its deadline job commit together, in one statement that also checks the user code
    // (one round trip before the 202): no search exists that nobody would ever close.
    const jobId = newId();
    await recordSession(
      this.#d.db,
      {
        id,
        vertical,
        userId: by.userId,
        companyId: by.companyId,
        request,
        suppliers: plan.map((s) => s.name),
        createdAt: now,
        expiresAt: expires,
        jobId,
        jobQueue: SEARCH_DEADLINE_QUEUE,
        deadline,
      },
      userCode,
    );
    mark(id, 'recorded');

    // Its own NOTIFYs are not news to this process: the engine hands its readers what it commits.
    const release = this.#d.notifier.claim(id);
    // The fan-out starts on the next turn of the event loop: the supplier requests are built and sent after
    // the 202 has been written, not before it.
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#run(id, spec, request, by, plan, settings, expires, jobId))
      .catch((err) =>
        err instanceof SearchClosed
          ? this.#d.log?.warn({ search_id: id }, 'search was closed at its deadline; dropped late results')
          : this.#d.log?.error({ err, search_id: id }, 'search fan-out failed'),
      )
      .finally(() => {
        release();
        this.#running.delete(run);
      });
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
    // The markup and today's rates (read once: every offer of this search converts at the same rate,
    // stored with it) are read while the suppliers are already asked; offers wait for them.
    const markupP = spec.marksUp ? this.#d.markup(by.companyId) : Promise.resolve(noMarkup);
    const fxP: Promise<FxRates | null> = this.#d.suppliers.fx
      ? this.#d.suppliers.fx.rates().catch((err) => {
          this.#d.log?.warn(
            { err, search_id: id },
            'no exchange rates: offers in another currency are left out',
          );
          return null;
        })
      : Promise.resolve(null);
    // A markup that cannot be read fails the search (as it always did); the suppliers' answers wait for it.
    markupP.catch(() => {});
    const currency = requestedCurrency(request);
    // Aborted when the sweeper has closed this search: the suppliers still running are not waited for.
    const closed = new AbortController();
    const stop = AbortSignal.any([this.#closing.signal, closed.signal]);
    const tally: SearchTally = { seq: 0, totalOffers: 0, outcomes: [], announced: [] };
    let completed = 0;
    /** The first failure: nothing is sent after a failed write (its seqs would leave a gap in the log). */
    let broken: unknown;
    const starting = db
      .updateTable('search_sessions')
      .set({ status: 'in_progress' })
      .where('id', '=', id)
      .where('status', '=', 'initiated')
      .execute()
      .then(
        () => undefined,
        (err) => {
          broken ??= err;
        },
      );
    // Each supplier's answer is sent as soon as it is made (see WRITES: the database commits the writes in
    // the order they were sent, each only on top of the one before), except while the search's first write
    // is on its way: its offers are the first any reader sees, and writes sent beside it would only compete
    // with it for the database's CPU and ours. Answers made meanwhile wait, and go once it is handled, in
    // one write. Outcomes are taken in the order the writes were sent: `previous` settles once the write
    // before has been handled (it never rejects).
    let previous: Promise<void> = starting;
    /** The search's first write has been sent and not handled yet. */
    let firstOnItsWay = false;
    /** Answers made while the first write is on its way, with how to tell their callers the outcome. */
    const held: { build: () => Append; settle: (err?: unknown) => void }[] = [];
    /** completed_suppliers once every write sent so far has committed: the guard of the next one. */
    let sentCompleted = 0;
    const channel = this.#d.notifier.channel;
    const send = (part: Append, expected: number) =>
      WRITES[part.finished ? 'finish' : 'append'][channel ? 'notify' : 'quiet'](
        this.#d.db,
        part.done,
        part.offers.length,
        id,
        JSON.stringify(part.offers),
        expiresAt,
        JSON.stringify(part.events.filter((e) => e.event !== 'offer')),
        part.finished ?? null,
        part.finishedAt,
        deadlineJob ?? null,
        channel ?? null,
        expected,
      );
    const dispatch = (part: Append): Promise<void> => {
      const before = previous;
      const expected = sentCompleted;
      sentCompleted += part.done;
      const sent = broken === undefined ? send(part, expected) : undefined;
      if (sent) mark(id, 'sent', part.done);
      sent?.catch(() => {});
      // Handled once the write before is: readers get the log in order, and a failure stops what follows.
      const handled = before.then(async () => {
        if (broken !== undefined) {
          // Committed all the same when the failure before it was only the answer's: readers re-read.
          if (sent)
            void sent.then(
              (rows) => rows.length > 0 && this.#d.notifier.wake(id),
              () => {},
            );
          throw broken;
        }
        // Sent: `broken` was not set when it went (it would still be set now).
        let rows = await (sent as Promise<{ id: string }[]>);
        // Another connection may have run it before the write it follows (the guard left it out): once more.
        if (rows.length === 0 && expected > 0) rows = await send(part, expected);
        if (rows.length === 0) throw new SearchClosed();
        mark(id, 'committed', part.done);
        completed += part.done;
        handToReaders(this.#d, id, part, completed, tally.totalOffers, tally.announced);
        mark(id, 'handed', part.done);
      });
      previous = handled.then(
        () => undefined,
        (err) => {
          broken ??= err;
          if (err instanceof SearchClosed) {
            closed.abort(err);
            // Another process closed the log; its NOTIFY was dropped as ours: this process's readers re-read.
            this.#d.notifier.wake(id);
          }
        },
      );
      return handled;
    };
    const append = (build: () => Append): Promise<void> => {
      if (firstOnItsWay)
        return new Promise<void>((resolve, reject) => {
          held.push({ build, settle: (err) => (err === undefined ? resolve() : reject(err)) });
        });
      if (sentCompleted > 0) return dispatch(build());
      firstOnItsWay = true;
      const handled = dispatch(build());
      void previous.then(() => {
        firstOnItsWay = false;
        const waiting = held.splice(0);
        if (waiting.length === 0) return;
        let part: Append;
        try {
          part = together(waiting.map((w) => w.build()));
        } catch (err) {
          for (const w of waiting) w.settle(err);
          return;
        }
        dispatch(part).then(
          () => {
            for (const w of waiting) w.settle();
          },
          (err: unknown) => {
            for (const w of waiting) w.settle(err);
          },
        );
      });
      return handled;
    };

    await Promise.all(
      plan.map(async (supplier) => {
        const cfg = settings[supplier.name] as GdsSettings;
        const [{ outcome, offers }, markup, fx] = await Promise.all([
          this.#call(spec, supplier, request, cfg, stop, refOwner(by)).then((r) => {
            mark(id, 'answer', supplier.name);
            return r;
          }),
          markupP,
          fxP,
        ]);
        const kept = offers.slice(0, cfg.max_results);
        // Made when it is sent (seqs in send order): held behind the first write, it costs nothing meanwhile.
        await append(() =>
          answerPart(this.#d, tally, {
            spec,
            searchId: id,
            supplier: supplier.name,
            outcome,
            kept,
            markup,
            fx,
            companyId: by.companyId,
            currency,
            suppliers: plan.length,
          }),
        );
      }),
    );
  }

  /** One supplier's part: breaker, deadline, stats. Never throws. */
  async #call(
    spec: VerticalSpec,
    supplier: SearchableSupplier<unknown, unknown>,
    request: Record<string, unknown>,
    cfg: GdsSettings,
    stop: AbortSignal,
    owner: string,
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
      const offers = await raceAbort(supplier.search(query, { signal: ac.signal, owner }), ac.signal);
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
