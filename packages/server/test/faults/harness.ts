/**
 * Fault injection with real processes: the production entry (`src/main.ts`) as a child on a database
 * that outlives it (a PGlite DATA_DIR, or a fresh PostgreSQL database), against supplier emulators that
 * run over HTTP in the test process, so supplier state outlives a kill -9 of the server. Each emulator's
 * order-creation route sits behind a gate: closed, it holds calls while the test kills the caller, then,
 * opened, lets them through to the emulator, which books for a caller that is gone (as a supplier does).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLIGHT_SUPPLIERS, type FlightSupplier } from '@travel/contract';
import {
  amadeusHandlers,
  duffelHandlers,
  hotelbedsHandlers,
  hotelbedsTransfersHandlers,
  type MockSupplier,
  mystiflyHandlers,
  type StripeState,
  serveHandlers,
  stripeHandlers,
} from '@travel/mock-server';
import { http, type RequestHandler } from 'msw';
import { expect } from 'vitest';
import { freshDatabase } from '../search/processes.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export { FLIGHT_SUPPLIERS, type FlightSupplier };

/** Holds requests while closed; unlike a client-side gate it ignores the caller going away. */
export class HoldGate {
  #open = true;
  #waiting: Array<() => void> = [];
  #arrived = 0;
  #watchers: Array<{ n: number; resolve: () => void }> = [];

  close(): void {
    this.#open = false;
    this.#arrived = 0;
  }
  open(): void {
    this.#open = true;
    for (const go of this.#waiting.splice(0)) go();
  }
  arrived(n: number): Promise<void> {
    if (this.#arrived >= n) return Promise.resolve();
    return new Promise((resolve) => this.#watchers.push({ n, resolve }));
  }
  pass(): Promise<void> {
    if (this.#open) return Promise.resolve();
    this.#arrived += 1;
    for (const w of this.#watchers.filter((x) => x.n <= this.#arrived)) w.resolve();
    this.#watchers = this.#watchers.filter((x) => x.n > this.#arrived);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

const ORDER_PATHS: Record<FlightSupplier, string> = {
  amadeus: '/v1/booking/flight-orders',
  duffel: '/air/orders',
  mystifly: '/api/v1/Book/Flight',
};

/** One order at a supplier: the client reference we sent and its PNR. */
export interface SupplierOrder {
  ref: string | undefined;
  pnr: string;
}

/** The gated money routes: Stripe's create and capture, and the suppliers' ticket issuance. */
export type MoneyGate =
  | 'stripe-create'
  | 'stripe-capture'
  | 'amadeus-issue'
  | 'duffel-pay'
  | 'amadeus-cancel'
  | 'duffel-cancel'
  | 'amadeus-ticket-action'
  | 'stripe-cancel'
  | 'stripe-refund'
  | 'amadeus-seats-issue'
  | 'amadeus-services'
  | 'amadeus-emds'
  | 'hotelbeds-cancel'
  | 'transfers-book'
  | 'transfers-cancel';

type GatedEmulator = 'stripe' | 'amadeus' | 'duffel' | 'hotelbeds' | 'hotelbeds-transfers';

export interface FaultEmulators {
  urls: Partial<Record<MockSupplier, string>>;
  /** In front of each flight supplier's order creation. */
  gates: Record<FlightSupplier, HoldGate>;
  /** In front of the money routes (Stripe create/capture, Amadeus issuance, Duffel payments). */
  moneyGates: Record<MoneyGate, HoldGate>;
  orders(supplier: FlightSupplier): SupplierOrder[];
  /** The Stripe emulator's state (PaymentIntents, refunds), which outlives the server. */
  stripe: StripeState;
  /** Ticketing effects at the supplier for one order: Amadeus tickets issued, Duffel payments taken. */
  ticketing(supplier: 'amadeus' | 'duffel', pnr: string): { tickets: number; payments: number };
  /** Whether the supplier holds the order as cancelled (Amadeus CANCELLED, Duffel cancelled_at). */
  cancelled(supplier: 'amadeus' | 'duffel', pnr: string): boolean;
  /** The emulators' own state (orders, seats, services, hotel and transfer bookings), for counting effects. */
  states: Record<GatedEmulator | 'mystifly', any>;
  close(): Promise<void>;
}

type AnyState = { orders?: Map<string, any>; bookings?: Map<string, any> };

/** Route patterns (MSW) each gate sits in front of, per emulator. */
const MONEY_GATE_ROUTES: Array<{
  on: GatedEmulator;
  path: string;
  gate: MoneyGate;
  method?: 'post' | 'delete';
  /** Holds only the requests this accepts (default: all on the route). */
  holds?: (url: URL) => boolean;
}> = [
  { on: 'stripe', path: '/v1/payment_intents', gate: 'stripe-create' },
  { on: 'stripe', path: '/v1/payment_intents/:id/capture', gate: 'stripe-capture' },
  { on: 'amadeus', path: '/v1/booking/flight-orders/:id/issuance', gate: 'amadeus-issue' },
  { on: 'duffel', path: '/air/payments', gate: 'duffel-pay' },
  { on: 'amadeus', path: '/v1/booking/flight-orders/:id', gate: 'amadeus-cancel', method: 'delete' },
  { on: 'duffel', path: '/air/order_cancellations/:id/actions/confirm', gate: 'duffel-cancel' },
  { on: 'amadeus', path: '/v1/booking/flight-orders/:id/ticket-actions', gate: 'amadeus-ticket-action' },
  { on: 'stripe', path: '/v1/payment_intents/:id/cancel', gate: 'stripe-cancel' },
  { on: 'stripe', path: '/v1/refunds', gate: 'stripe-refund' },
  { on: 'amadeus', path: '/v1/booking/flight-orders/:id/seats/issuance', gate: 'amadeus-seats-issue' },
  { on: 'amadeus', path: '/v1/booking/flight-orders/:id/services', gate: 'amadeus-services' },
  { on: 'amadeus', path: '/v1/booking/flight-orders/:id/emds', gate: 'amadeus-emds' },
  {
    on: 'hotelbeds',
    path: '/hotel-api/1.0/bookings/:ref',
    gate: 'hotelbeds-cancel',
    method: 'delete',
    // A cancellation quote (SIMULATION) passes; the cancellation itself is held.
    holds: (url) => url.searchParams.get('cancellationFlag') !== 'SIMULATION',
  },
  { on: 'hotelbeds-transfers', path: '/transfer-api/1.0/bookings', gate: 'transfers-book' },
  {
    on: 'hotelbeds-transfers',
    path: '/transfer-api/1.0/booking/:language/reference/:ref',
    gate: 'transfers-cancel',
    method: 'delete',
  },
];

export async function startFaultEmulators(): Promise<FaultEmulators> {
  const factories = {
    amadeus: amadeusHandlers,
    duffel: duffelHandlers,
    mystifly: mystiflyHandlers,
    stripe: stripeHandlers,
    hotelbeds: hotelbedsHandlers,
    'hotelbeds-transfers': hotelbedsTransfersHandlers,
  };
  const gates = {} as Record<FlightSupplier, HoldGate>;
  const moneyGates = Object.fromEntries(MONEY_GATE_ROUTES.map((r) => [r.gate, new HoldGate()])) as Record<
    MoneyGate,
    HoldGate
  >;
  const states = {} as Record<GatedEmulator | 'mystifly', AnyState>;
  const urls: Partial<Record<MockSupplier, string>> = {};
  const closers: Array<() => Promise<void>> = [];
  for (const s of [...FLIGHT_SUPPLIERS, 'stripe', 'hotelbeds', 'hotelbeds-transfers'] as const) {
    const handlers: RequestHandler[] = [];
    const served = await serveHandlers(handlers, { host: '127.0.0.1', port: 0 });
    const made = factories[s]({ baseUrl: served.url, latencyMs: 0, seed: 7 });
    const mine: HoldGate[] = [];
    if (s === 'amadeus' || s === 'duffel' || s === 'mystifly') {
      const gate = new HoldGate();
      gates[s] = gate;
      mine.push(gate);
      handlers.push(
        http.post(`${served.url}${ORDER_PATHS[s]}`, async () => {
          await gate.pass();
          return undefined; // on to the emulator's own handler
        }),
      );
    }
    for (const r of MONEY_GATE_ROUTES.filter((x) => x.on === s)) {
      const gate = moneyGates[r.gate];
      mine.push(gate);
      handlers.push(
        http[r.method ?? 'post'](`${served.url}${r.path}`, async ({ request }) => {
          if (!r.holds || r.holds(new URL(request.url))) await gate.pass();
          return undefined;
        }),
      );
    }
    handlers.push(...(made.handlers as RequestHandler[]));
    states[s] = made.state as AnyState;
    urls[s] = served.url;
    closers.push(async () => {
      for (const g of mine) g.open();
      await served.close();
    });
  }
  const stripe = states.stripe as unknown as StripeState;
  return {
    urls,
    gates,
    moneyGates,
    stripe,
    states,
    orders(s) {
      if (s === 'amadeus')
        return [...(states.amadeus.orders?.values() ?? [])].map((o) => ({
          ref: o.clientReference,
          pnr: o.pnr,
        }));
      if (s === 'duffel')
        return [...(states.duffel.orders?.values() ?? [])].map((o) => ({
          ref: o.order.metadata?.client_reference,
          pnr: o.order.booking_reference,
        }));
      return [...(states.mystifly.bookings?.values() ?? [])].map((b) => ({
        ref: b.conversationId,
        pnr: b.pnr,
      }));
    },
    ticketing(s, pnr) {
      if (s === 'amadeus') {
        const o = [...(states.amadeus.orders?.values() ?? [])].find((x) => x.pnr === pnr);
        return { tickets: o?.tickets.length ?? 0, payments: o && o.ticketStatus !== 'NOT_ISSUED' ? 1 : 0 };
      }
      const o = [...(states.duffel.orders?.values() ?? [])].find((x) => x.order.booking_reference === pnr);
      // A payment object names no order: the order's own payment status says whether it was paid.
      return { tickets: o?.order.documents?.length ?? 0, payments: o?.order.payment_status?.paid_at ? 1 : 0 };
    },
    cancelled(s, pnr) {
      if (s === 'amadeus')
        return [...(states.amadeus.orders?.values() ?? [])].some(
          (x) => x.pnr === pnr && x.status === 'CANCELLED',
        );
      return [...(states.duffel.orders?.values() ?? [])].some(
        (x) => x.order.booking_reference === pnr && !!x.order.cancelled_at,
      );
    },
    async close() {
      await Promise.all(closers.map((c) => c()));
    },
  };
}

/** Where the children keep their data: one PGlite directory, or one PostgreSQL database. */
export interface FaultStore {
  env: Record<string, string>;
  kind: 'pglite' | 'postgres';
  drop(): Promise<void>;
}

export async function faultStore(): Promise<FaultStore> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const db = await freshDatabase(url);
    return { kind: 'postgres', env: { DATABASE_URL: db.url }, drop: () => db.drop() };
  }
  const dir = await mkdtemp(join(tmpdir(), 'travel-faults-'));
  return { kind: 'pglite', env: { DATA_DIR: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * The environment of a fault-test server: the store's data, the shared emulators (whose state outlives a
 * kill), a fixed JWT key (tokens survive the restart) and a fast job poll; `extra` holds the case's knobs
 * (lease, call window, reconcile delay).
 */
export function faultEnv(
  store: FaultStore,
  emulators: Pick<FaultEmulators, 'urls'>,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...store.env,
    SANDBOX_SUPPLIER_URLS: Object.entries(emulators.urls)
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
    JWT_SECRET: 'fault-injection-secret-0123456789abcdef',
    JOBS_POLL_MS: '200',
    ...extra,
  };
}

export interface Child {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Resolves once the process has printed `line` `n` times in all. */
  printed(line: string, n: number): Promise<void>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/** `node src/main.ts` with `env`; resolves once it listens. */
export async function startChild(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      EXIT_WITH_PARENT: '1',
      // A response that breaks openapi.json becomes a 500 naming the violation, so these tests fail on it.
      RESPONSE_VALIDATION: 'strict',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  const watchers: Array<() => void> = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Travel service listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1] as string);
      for (const w of watchers) w();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    void exited.then(() => reject(new Error(`server exited before listening:\n${out}`)));
  });
  const count = (line: string) => out.split(line).length - 1;
  return {
    url,
    child,
    output: () => out,
    printed(line, n) {
      return new Promise((resolve) => {
        const check = () => {
          if (count(line) >= n) resolve();
        };
        watchers.push(check);
        check();
      });
    },
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface ApiResponse {
  status: number;
  body: Record<string, any>;
  headers: Headers;
}

export async function api(
  base: string,
  method: string,
  path: string,
  o: { body?: unknown; token?: string; key?: string } = {},
): Promise<ApiResponse> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
      ...(o.key ? { 'idempotency-key': o.key } : {}),
    },
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
}

/** Polls `probe` until it returns a value, or fails at the deadline with the last thing it saw. */
export async function until<T>(
  what: string,
  deadlineMs: number,
  probe: () => Promise<{ done: true; value: T } | { done: false; seen: unknown }>,
): Promise<T> {
  const end = Date.now() + deadlineMs;
  let seen: unknown;
  for (;;) {
    const r = await probe();
    if (r.done) return r.value;
    seen = r.seen;
    if (Date.now() > end)
      throw new Error(`${what}: not within ${deadlineMs} ms; last seen ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The logins the sandbox seeds. */
export const SANDBOX_AGENT = { email: 'agent@sandbox.travel', password: 'sandbox-agent-pass' };
export const SANDBOX_ADMIN = { email: 'admin@sandbox.travel', password: 'sandbox-admin-pass' };

/** An access token of `who` on the child server. */
export async function login(s: Child, who: typeof SANDBOX_AGENT = SANDBOX_AGENT): Promise<string> {
  const r = await api(s.url, 'POST', '/api/v1/auth/login', { body: who });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.access_token as string;
}

/** The passenger and contact every flight booking of the fault suites uses. */
export { TEST_CONTACT as FAULT_CONTACT, TEST_PASSENGER as FAULT_PASSENGER } from '../harness/traveller.ts';
