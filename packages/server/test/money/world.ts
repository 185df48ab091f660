/** Shared set-up of the money tests: a world, an agent, booked and paid bookings, and the emulator's view. */
import { afterAll, beforeAll, expect } from 'vitest';
import type { MockServers } from '../../../mock-server/src/index.ts';
import { opsOf } from '../../src/domains/flight-booking/money-ops.ts';
import { bookingDb } from '../../src/domains/flight-booking/tables.ts';
import {
  contact,
  createWorld,
  passenger,
  pickBookable,
  type Res,
  SANDBOX_ROUTES,
  startMocks,
  type World,
} from '../booking/harness.ts';

/**
 * The booking world for money tests: the admin payment routes and the ticketing/money queues, and a
 * Stripe adapter that gives up after STRIPE_TIMEOUT_MS without retrying (`tok_sandbox_timeout` hangs
 * until then), through `stripeFetch` when given.
 */
export function useMoneyWorld(stripeFetch?: typeof fetch): { w: World } {
  const ctx = {} as { w: World; mocks: MockServers };
  beforeAll(async () => {
    ctx.mocks = await startMocks();
    ctx.w = await createWorld(ctx.mocks, {
      money: true,
      stripeTimeoutMs: STRIPE_TIMEOUT_MS,
      ...(stripeFetch ? { stripeFetch } : {}),
    });
  });
  afterAll(async () => {
    await ctx.w?.close();
    await ctx.mocks?.close();
  });
  return ctx;
}

/**
 * Long enough that a call the emulator answers is never cut short on a loaded machine (ten racing
 * requests share this process with the emulator), short enough that a hanging provider costs seconds.
 */
export const STRIPE_TIMEOUT_MS = 5_000;

let seq = 0;
export const B = (id: number) => `/api/v1/bookings/${id}`;

export interface Booked {
  id: number;
  total: number;
  currency: string;
  token: string;
  as: (method: string, path: string, o?: { body?: unknown; key?: string }) => Promise<Res>;
}

/** A confirmed booking of `supplier` for a fresh agent. */
export async function booked(w: World, supplier: 'amadeus' | 'duffel' = 'amadeus'): Promise<Booked> {
  const n = ++seq;
  const companyId = await w.company();
  const agent = await w.user({ companyId });
  const offers = await w.seedOffers(supplier, { userId: agent.id, companyId });
  const hit = pickBookable(supplier, offers);
  expect(hit).toBeDefined();
  const { currency } = SANDBOX_ROUTES[supplier];
  const as: Booked['as'] = (method, path, o = {}) => w.req(method, path, { token: agent.token, ...o });
  const created = await as('POST', '/api/v1/bookings/createPnr', {
    key: `money-create-${n}-${Date.now()}`,
    body: { offer_id: hit?.offer_id, currency, passengers: [passenger()], contact },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return {
    id: created.body.booking_id,
    total: created.body.pricing.total_minor,
    currency,
    token: agent.token,
    as,
  };
}

export async function authorized(
  w: World,
  supplier: 'amadeus' | 'duffel' = 'amadeus',
  token = 'tok_sandbox_ok',
) {
  const b = await booked(w, supplier);
  const r = await b.as('POST', `${B(b.id)}/authorize`, {
    key: `money-auth-${b.id}`,
    body: { token, currency: b.currency, amount_minor: b.total },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return b;
}

/** Ten calls at once, each with its own Idempotency-Key. */
export function race(n: number, call: (i: number) => Promise<Res>) {
  return Promise.all(Array.from({ length: n }, (_, i) => call(i)));
}

/** How the losers answered: each a 409 operation_in_progress or one of the operation's documented 400s. */
export function expectOneWinner(
  rs: { status: number; body: any }[],
  loserCodes: string[],
  winner = 200,
): void {
  const won = rs.filter((r) => r.status === winner);
  expect(won.length, JSON.stringify(rs.map((r) => [r.status, r.body?.code]))).toBe(1);
  for (const r of rs.filter((x) => x.status !== winner)) {
    expect([409, 400], JSON.stringify(r.body)).toContain(r.status);
    if (r.status === 409) expect(r.body.code).toBe('operation_in_progress');
    else expect(loserCodes, JSON.stringify(r.body)).toContain(r.body.code);
    expect(typeof r.body.request_id).toBe('string');
  }
}

export const paymentsOf = (w: World, id: number) =>
  bookingDb(w.database.db).selectFrom('booking_payments').selectAll().where('booking_id', '=', id).execute();
export const txOf = (w: World, id: number) =>
  bookingDb(w.database.db)
    .selectFrom('booking_payment_transactions')
    .selectAll()
    .where('booking_id', '=', id)
    .orderBy('id')
    .execute();
export const statusOf = async (w: World, id: number) =>
  (
    await bookingDb(w.database.db)
      .selectFrom('flight_bookings')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).status;
export const ops = (w: World, id: number) => opsOf(w.database.db, id);

/** The Stripe emulator's PaymentIntents of a booking (metadata booking_id). */
export function intents(w: World, id: number) {
  const st = w.mocks.states.stripe;
  if (!st) throw new Error('no stripe emulator');
  return [...st.paymentIntents.values()].filter((pi) => pi.metadata.booking_id === String(id));
}
export function refundsOf(w: World, piId: string) {
  const st = w.mocks.states.stripe;
  if (!st) throw new Error('no stripe emulator');
  return [...st.refunds.values()].filter((r) => r.payment_intent === piId);
}

/** Runs every due job, moving the manual clock past each backoff; stops when nothing is due after `ms`. */
export async function drainJobs(w: World, rounds = 12, stepMs = 130_000): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    while ((await w.runner.runOnce()) > 0) {}
    w.clock.advance(stepMs);
  }
  while ((await w.runner.runOnce()) > 0) {}
}
