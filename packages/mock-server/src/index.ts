/**
 * @travel/mock-server: emulators of the suppliers' public HTTP protocols, as MSW handlers. They serve two
 * ways: in-process for tests (`createMockHandlers` + msw/node `setupServer`), and over real HTTP
 * (`startMockServers`, one port per supplier, since official clients such as amadeus and stripe take a
 * host and port rather than a path).
 */
import type { RequestHandler } from 'msw';
import { durableSpec } from './durable.ts';
import { type ServedHandlers, serveHandlers } from './node-adapter.ts';
import { SupplierJournal } from './shared/journal.ts';
import { amadeusNotFound, duffelNotFound, hotelbedsNotFound, mystiflyNotFound } from './shared/not-found.ts';
import type { EmulatorOptions } from './shared/options.ts';
import { lockStateDir } from './shared/state-lock.ts';
import { amadeusHandlers } from './suppliers/amadeus/handlers.ts';
import { duffelHandlers } from './suppliers/duffel/index.ts';
import { hotelbedsHandlers } from './suppliers/hotelbeds/index.ts';
import { hotelbedsTransfersHandlers } from './suppliers/hotelbeds-transfers/index.ts';
import { mystiflyHandlers } from './suppliers/mystifly/index.ts';
import { stripeHandlers, stripeNotFound } from './suppliers/stripe/index.ts';

export { type ServedHandlers, type ServeHandlersOptions, serveHandlers } from './node-adapter.ts';
export { type Clock, createClock } from './shared/clock.ts';
export { connectionReset, hang, isConnectionReset } from './shared/faults.ts';
export { ecbXml, type FxTable, SANDBOX_FX_RATES } from './shared/fx.ts';
export { applyLatency, latencyFor, sleep } from './shared/latency.ts';
export { type EmulatorOptions, realClock } from './shared/options.ts';
export { createRng, hashString, mulberry32, type Rng, rngFor } from './shared/random.ts';
export { amadeusHandlers } from './suppliers/amadeus/handlers.ts';
export { duffelHandlers } from './suppliers/duffel/index.ts';
export { hotelbedsHandlers } from './suppliers/hotelbeds/index.ts';
export { hotelbedsTransfersHandlers } from './suppliers/hotelbeds-transfers/index.ts';
export { changeMystiflySchedule, mystiflyHandlers } from './suppliers/mystifly/index.ts';
export type { StripeEmulatorOptions, StripeState } from './suppliers/stripe/index.ts';
export { STRIPE_TEST_TOKENS, stripeHandlers } from './suppliers/stripe/index.ts';

/** Every emulated supplier, in port order (`MOCK_PORT_BASE + index`). Duffel covers flights and Stays, Amadeus flights and transfers. */
export const MOCK_SUPPLIERS = [
  'amadeus',
  'duffel',
  'mystifly',
  'hotelbeds',
  'hotelbeds-transfers',
  'stripe',
] as const;
export type MockSupplier = (typeof MOCK_SUPPLIERS)[number];

type Factory = (options: EmulatorOptions & { baseUrl: string }) => {
  handlers: RequestHandler[];
  state: unknown;
};

const FACTORIES: Record<MockSupplier, { create: Factory; notFound: (r: Request) => Response }> = {
  amadeus: { create: amadeusHandlers, notFound: amadeusNotFound },
  duffel: { create: duffelHandlers, notFound: duffelNotFound },
  mystifly: { create: mystiflyHandlers, notFound: mystiflyNotFound },
  hotelbeds: { create: hotelbedsHandlers, notFound: hotelbedsNotFound },
  'hotelbeds-transfers': { create: hotelbedsTransfersHandlers, notFound: hotelbedsNotFound },
  stripe: { create: stripeHandlers, notFound: stripeNotFound },
};

/** Each emulator's state (orders, payments, …), for tests that look inside or reset between cases. */
export interface MockStates {
  amadeus?: ReturnType<typeof amadeusHandlers>['state'];
  duffel?: ReturnType<typeof duffelHandlers>['state'];
  mystifly?: ReturnType<typeof mystiflyHandlers>['state'];
  hotelbeds?: ReturnType<typeof hotelbedsHandlers>['state'];
  'hotelbeds-transfers'?: ReturnType<typeof hotelbedsTransfersHandlers>['state'];
  stripe?: ReturnType<typeof stripeHandlers>['state'];
}

/**
 * Handlers for in-process tests: `setupServer(...createMockHandlers(urls, opts).handlers)`. Only the
 * suppliers given a base URL are emulated; any base URL works (nothing listens on it).
 */
export function createMockHandlers(
  urls: Partial<Record<MockSupplier, string>>,
  options: EmulatorOptions = {},
): { handlers: RequestHandler[]; states: MockStates } {
  const handlers: RequestHandler[] = [];
  const states: Record<string, unknown> = {};
  for (const supplier of MOCK_SUPPLIERS) {
    const baseUrl = urls[supplier];
    if (baseUrl === undefined) continue;
    const made = FACTORIES[supplier].create({ ...options, baseUrl });
    handlers.push(...made.handlers);
    states[supplier] = made.state;
  }
  return { handlers, states: states as MockStates };
}

export interface StartMockServersOptions {
  host?: string;
  /** First port; supplier i listens on basePort + i (MOCK_SUPPLIERS order). 0: each on a free port. */
  basePort?: number;
  options?: EmulatorOptions;
  /** Start only these (default: all). Ports keep their MOCK_SUPPLIERS offsets. */
  suppliers?: readonly MockSupplier[];
  /**
   * Keep every emulator's records in this directory, so a restart on it remembers orders, PNRs, tickets,
   * payments and bookings, and never hands out an id twice (README, "State on disk"). One process at a
   * time: a second one on the same directory is refused. Default: in memory only.
   */
  stateDir?: string;
  /** With `stateDir`: how often records of requests still running (a hanging trigger) are journalled. */
  stateFlushMs?: number;
}

export interface MockServers {
  /** `http://127.0.0.1:port` per started supplier (no trailing slash). */
  urls: Partial<Record<MockSupplier, string>>;
  states: MockStates;
  /** Requests each emulator has received so far (any path, any answer), e.g. to prove one got none. */
  requests(): Partial<Record<MockSupplier, number>>;
  /** Stops every server, dropping open connections. */
  close: () => Promise<void>;
}

/** Starts each supplier's emulator on its own port over real HTTP. */
export async function startMockServers(opts: StartMockServersOptions = {}): Promise<MockServers> {
  const host = opts.host ?? '127.0.0.1';
  const basePort = opts.basePort ?? 0;
  const wanted = opts.suppliers ?? MOCK_SUPPLIERS;
  const urls: Partial<Record<MockSupplier, string>> = {};
  const states: Record<string, unknown> = {};
  const served: ServedHandlers[] = [];
  const counts: Partial<Record<MockSupplier, number>> = {};
  const journals: SupplierJournal[] = [];
  const unlock = opts.stateDir ? lockStateDir(opts.stateDir) : () => {};
  try {
    for (const [index, supplier] of MOCK_SUPPLIERS.entries()) {
      if (!wanted.includes(supplier)) continue;
      const { create, notFound } = FACTORIES[supplier];
      // The handlers need the server's URL, known only once it listens (port 0): fill the list after.
      const handlers: RequestHandler[] = [];
      let journal: SupplierJournal | undefined;
      const server = await serveHandlers(handlers, {
        host,
        port: basePort === 0 ? 0 : basePort + index,
        notFound,
        around: (handle) => (journal ? journal.run(handle) : handle()),
      });
      served.push(server);
      counts[supplier] = 0;
      server.server.on('request', () => {
        counts[supplier] = (counts[supplier] ?? 0) + 1;
      });
      const made = create({ ...opts.options, baseUrl: server.url });
      if (opts.stateDir) {
        journal = new SupplierJournal(opts.stateDir, supplier, durableSpec(supplier, made.state));
        journal.open(opts.stateFlushMs);
        journals.push(journal);
      }
      handlers.push(...made.handlers);
      urls[supplier] = server.url;
      states[supplier] = made.state;
    }
  } catch (err) {
    await Promise.all(served.map((s) => s.close()));
    for (const j of journals) j.close();
    unlock();
    throw err;
  }
  return {
    urls,
    states: states as MockStates,
    requests: () => ({ ...counts }),
    close: async () => {
      await Promise.all(served.map((s) => s.close()));
      for (const j of journals) j.close();
      unlock();
    },
  };
}
