/** A search service against the real emulators on loopback, plus a fake request context for handlers. */
import { type MockSupplier, startMockServers } from '@travel/mock-server';
import { searchMarkup } from '../../src/domains/markup/search-markup.ts';
import { ManualClock } from '../../src/internal/clock.ts';
import type {
  AuthContext,
  HandlerResult,
  OperationContext,
  OperationId,
  RequestContext,
  SseMessage,
} from '../../src/kernel/types.ts';
import { CircuitBreakerRegistry } from '../../src/search/circuit-breaker.ts';
import { SearchEngine } from '../../src/search/engine.ts';
import type { Timers } from '../../src/search/event-log.ts';
import type { SearchNotifier } from '../../src/search/notifier.ts';
import { createSearchService, type SearchService } from '../../src/search/service.ts';
import { SupplierStats } from '../../src/search/supplier-stats.ts';
import type { Database } from '../../src/storage/database.ts';
import type { Db } from '../../src/storage/schema.ts';
import { GdsConfigStore, type GdsSettings } from '../../src/suppliers/gds-config.ts';
import { createSupplierRegistry } from '../../src/suppliers/registry.ts';
import type { SearchableSupplier } from '../../src/suppliers/searchable.ts';
import { futureDate } from '../harness/flight-search.ts';
import { testDatabase } from '../helpers/db.ts';

/** A search engine over `db` and the given suppliers alone: no markup, default settings, 15-minute offers. */
export function bareEngine(o: {
  db: Db;
  suppliers: SearchableSupplier<unknown, unknown>[];
  notifier: SearchNotifier;
  clock: ManualClock;
}): SearchEngine {
  return new SearchEngine({
    db: o.db,
    suppliers: { searchSuppliers: () => o.suppliers },
    gdsConfig: new GdsConfigStore({ db: o.db }),
    breakers: new CircuitBreakerRegistry({ now: () => o.clock.now().getTime() }),
    stats: new SupplierStats(),
    notifier: o.notifier,
    clock: o.clock,
    ttlSeconds: 900,
    markup: async () => () => 0,
  });
}

export interface Harness {
  database: Database;
  search: SearchService;
  clock: ManualClock;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Emulators with pinned latency (ms), e.g. { mystifly: 60_000 }; the rest answer at once. */
  slow?: Partial<Record<MockSupplier, number>>;
  gdsDefaults?: Record<string, Partial<GdsSettings>>;
  database?: Database;
  heartbeatMs?: number;
  /** Fallback re-read of the log; large values prove a reader is woken by notifications. */
  pollMs?: number;
  batchDeadline?: SearchService['batchDeadline'];
}

export async function harness(o: HarnessOptions = {}): Promise<Harness> {
  const database = o.database ?? (await testDatabase());
  const slowNames = Object.keys(o.slow ?? {}) as MockSupplier[];
  const fast = await startMockServers({
    options: { latencyMs: 0, seed: 1 },
    suppliers: ['amadeus', 'duffel', 'mystifly', 'hotelbeds', 'hotelbeds-transfers'].filter(
      (s) => !slowNames.includes(s as MockSupplier),
    ) as MockSupplier[],
  });
  const slow = await Promise.all(
    slowNames.map((s) =>
      startMockServers({ options: { latencyMs: o.slow?.[s] ?? 0, seed: 1 }, suppliers: [s] }),
    ),
  );
  const urls = Object.assign({}, fast.urls, ...slow.map((x) => x.urls));
  const clock = new ManualClock(new Date());
  const suppliers = await createSupplierRegistry({
    config: { sandbox: true, suppliers: 'sandbox' },
    db: database.db,
    sandboxUrls: { ...urls, stripe: 'http://127.0.0.1:9' },
    ...(o.gdsDefaults ? { gdsDefaults: o.gdsDefaults } : {}),
  });
  const search = await createSearchService({
    db: database.db,
    suppliers,
    clock,
    ttlSeconds: 900,
    markup: searchMarkup(database.db),
    heartbeatMs: o.heartbeatMs ?? 60_000,
    pollMs: o.pollMs ?? 200,
    databaseUrl: database.kind === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
    ...(o.batchDeadline ? { batchDeadline: o.batchDeadline } : {}),
  });
  return {
    database,
    search,
    clock,
    async close() {
      await search.close();
      await Promise.all([fast.close(), ...slow.map((x) => x.close())]);
      if (!o.database) await database.close();
    },
  };
}

export const userAuth = (over: Partial<AuthContext> = {}): AuthContext => ({
  userId: 'u1',
  email: 'u1@agency.test',
  role: 'company_admin',
  companyId: 1,
  companyCode: 'AGY',
  ...over,
});

/** `ctx` as the handler of `Op` sees it: the test plays the kernel, which would have validated the input. */
export function opCtx<Op extends OperationId>(over: Partial<RequestContext> = {}): OperationContext<Op> {
  return ctx(over) as OperationContext<Op>;
}

export function ctx(over: Partial<RequestContext> = {}): RequestContext {
  const log = { info() {}, warn() {}, error() {}, debug() {} };
  return {
    requestId: 'req_test',
    operationId: 'test',
    method: 'GET',
    path: '/',
    params: {},
    query: {},
    headers: {},
    body: undefined,
    auth: userAuth(),
    ip: '127.0.0.1',
    signal: new AbortController().signal,
    log,
    transaction: () => {
      throw new Error('not used');
    },
    ...over,
  };
}

/** Reads an SSE result to its end (the terminal `done`), or until `stopAfter` says so. */
export async function collect(
  r: HandlerResult,
  stopAfter: (m: SseMessage, all: SseMessage[]) => boolean = () => false,
): Promise<SseMessage[]> {
  if (!('sse' in r)) throw new Error(`not a stream: ${r.status}`);
  const out: SseMessage[] = [];
  for await (const m of r.sse) {
    out.push(m);
    if (stopAfter(m, out)) break;
  }
  return out;
}

export { futureDate };

export const flightBody = (over: Record<string, unknown> = {}) => ({
  companyCode: 'AGY',
  userCode: 'u1@agency.test',
  currency: 'USD',
  adults: 1,
  journeyType: 'OneWay',
  cabinClass: 'Economy',
  searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(60) }],
  ...over,
});

/** Timers a test fires by hand (`fire(ms)` runs every pending timer of that delay): heartbeats and polls
 * without sleeping. */
export function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let n = 0;
  const t: Timers & { fire(ms: number): void; armed(ms: number): boolean } = {
    setTimeout: (fn, ms) => {
      pending.set(++n, { fn, ms });
      return n;
    },
    clearTimeout: (h) => void pending.delete(h as number),
    /** Whether a timer of `ms` is waiting to fire. */
    armed: (ms) => [...pending.values()].some((v) => v.ms === ms),
    fire(ms) {
      for (const [k, v] of [...pending]) {
        if (v.ms !== ms) continue;
        pending.delete(k);
        v.fn();
      }
    },
  };
  return t;
}
