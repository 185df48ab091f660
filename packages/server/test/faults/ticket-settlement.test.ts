/**
 * kill -9 inside a confirmed ticket void, around its payment settlement (the money going back):
 * - after the supplier voided the tickets and the booking moved, before the refund was planned
 *   (`ticketAction:before-settlement`): the backstop job queued with the move refunds after the restart;
 * - after the refund was written ahead, before Stripe was called (`ticketSettle:before-provider`): the
 *   money.reconcile job calls Stripe with the same Idempotency-Key after the restart.
 * Either way the card gets the captured total back exactly once (one refund at the emulator), the payment
 * history shows it, and nothing is left in flight.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { futureDate, oneWaySearch } from '../harness/flight-search.ts';
import {
  api,
  type Child,
  FAULT_CONTACT as contact,
  type FaultEmulators,
  type FaultStore,
  faultEnv,
  faultStore,
  login,
  FAULT_PASSENGER as passenger,
  startChild,
  startFaultEmulators,
  until,
} from './harness.ts';

/** The backstop job runs TICKET_SETTLE_DELAY_MS (15 s) after the move; a restart plus that, with room. */
const SETTLE_DEADLINE_MS = 40_000;

describe('kill -9 around the payment settlement of a confirmed ticket void', () => {
  let emulators: FaultEmulators;
  let store: FaultStore | undefined;
  let server: Child | undefined;
  let round = 0;

  beforeAll(async () => {
    emulators = await startFaultEmulators();
    return async () => {
      await emulators?.close();
    };
  }, 120_000);

  afterEach(async () => {
    await server?.kill9();
    server = undefined;
    await store?.drop();
    store = undefined;
  });

  const envOf = (s: FaultStore): Record<string, string> =>
    faultEnv(s, emulators, { IDEMPOTENCY_LEASE_SECONDS: '2', MONEY_RECONCILE_DELAY_MS: '500' });

  /** A ticketed Amadeus booking whose payment was captured by the ticketing. */
  async function ticketed(s: Child, token: string) {
    const call = (method: string, path: string, o: { key?: string; body?: unknown } = {}) =>
      api(s.url, method, path, { token, ...o });
    const started = await call('POST', '/api/v1/flight/getFare', {
      body: oneWaySearch('LHR', 'DXB', futureDate(60)),
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const batch = await call('GET', `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`);
    const list = (batch.body.results_by_gds?.amadeus ?? []) as Array<Record<string, any>>;
    const hit = list.find((o) => !o.lcc);
    if (!hit) throw new Error('no bookable amadeus offer');
    const created = await call('POST', '/api/v1/bookings/createPnr', {
      key: `settle-pnr-${round}`,
      body: { offer_id: hit.offer_id, currency: hit.price.currency, passengers: [passenger], contact },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.booking_id as number;
    const total = created.body.pricing.total_minor as number;
    const auth = await call('POST', `/api/v1/bookings/${id}/authorize`, {
      key: `settle-auth-${round}`,
      body: { token: 'tok_sandbox_ok', currency: created.body.pricing.currency, amount_minor: total },
    });
    expect(auth.status, JSON.stringify(auth.body)).toBe(200);
    const t = await call('POST', `/api/v1/bookings/${id}/ticket`, {
      key: `settle-ticket-${round}`,
      body: {},
    });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(t.body.status).toBe('ticketed');
    return { id, total };
  }

  /** The Stripe emulator's refunds of a booking's PaymentIntents (ids repeat across fresh databases). */
  const refunds = (id: number, pis: Set<string>) =>
    [...emulators.stripe.refunds.values()].filter((r) => pis.has(r.payment_intent)).map((r) => r.amount);

  for (const hook of ['ticketAction:before-settlement', 'ticketSettle:before-provider']) {
    it(`${hook}: after the restart the card gets the total back once`, async () => {
      round += 1;
      store = await faultStore();
      const env = envOf(store);
      const before = new Set(emulators.stripe.paymentIntents.keys());
      const a = await startChild({ ...env, TEST_FAULT_HOOKS: '1', TEST_FAULT_AT: hook });
      server = a;
      let token = await login(a);
      const { id, total } = await ticketed(a, token);
      const pis = new Set(
        [...emulators.stripe.paymentIntents.values()]
          .filter((pi) => !before.has(pi.id) && pi.metadata.booking_id === String(id))
          .map((pi) => pi.id),
      );
      expect(pis.size).toBe(1);
      const answer = api(a.url, 'POST', `/api/v1/bookings/${id}/ticket/void?confirm=true`, {
        token,
        key: `settle-void-${round}`,
        body: {},
      }).catch((e) => e);
      await a.printed(`fault-hook reached ${hook}`, 1);
      await a.kill9();
      expect(await answer).toBeInstanceOf(Error);
      // The supplier voided, the card still holds the money.
      expect(refunds(id, pis)).toEqual([]);

      server = await startChild(env);
      token = await login(server);
      const s = server;
      const settled = await until('the money goes back after the restart', SETTLE_DEADLINE_MS, async () => {
        const h = await api(s.url, 'GET', `/api/v1/bookings/${id}/payment/history`, { token });
        const pay = (h.body.payments as Array<Record<string, any>>).at(-1);
        const done = pay?.state === 'REFUNDED';
        return done ? { done: true, value: h.body } : { done: false, seen: pay };
      });
      expect(refunds(id, pis)).toEqual([total]);
      expect(
        (settled.transactions as Array<Record<string, any>>).map((t) => `${t.type}:${t.status}`),
      ).toEqual(['authorization:succeeded', 'capture:succeeded', 'refund:succeeded']);
      const b = await api(s.url, 'GET', `/api/v1/bookings/${id}`, { token });
      expect(b.body.status).toBe('refunded');
    }, 120_000);
  }
});
