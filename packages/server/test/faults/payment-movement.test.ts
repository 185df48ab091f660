/**
 * kill -9 while a payment void (Stripe cancel) or refund (Stripe refund) is held at the emulator, let
 * through after the kill (the provider acts for a caller that is gone); restart on the same data. The
 * same-key retry answers the movement the provider made (200), there is exactly one effect at Stripe, and
 * the payment history agrees.
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
  type MoneyGate,
  FAULT_PASSENGER as passenger,
  startChild,
  startFaultEmulators,
  until,
} from './harness.ts';

interface Case {
  op: 'void' | 'refund';
  gate: MoneyGate;
  state: string;
}
const CASES: Case[] = [
  { op: 'void', gate: 'stripe-cancel', state: 'VOIDED' },
  { op: 'refund', gate: 'stripe-refund', state: 'REFUNDED' },
];

describe('kill -9 inside a payment void or refund', () => {
  let emulators: FaultEmulators;
  let store: FaultStore | undefined;
  let server: Child | undefined;
  let agent = '';

  beforeAll(async () => {
    emulators = await startFaultEmulators();
    return async () => {
      await emulators?.close();
    };
  }, 60_000);

  afterEach(async () => {
    await server?.kill9();
    server = undefined;
    for (const g of Object.values(emulators.moneyGates)) g.open();
    await store?.drop();
    store = undefined;
  });

  const call = (s: Child, method: string, path: string, o: { key?: string; body?: unknown } = {}) =>
    api(s.url, method, path, { token: agent, ...o });

  for (const c of CASES) {
    it(`${c.op}: one effect at Stripe, the retry answers ${c.state}`, async () => {
      store = await faultStore();
      const env = faultEnv(store, emulators, {
        IDEMPOTENCY_LEASE_SECONDS: '2',
        BOOKING_CALL_WINDOW_SECONDS: '3',
        MONEY_RECONCILE_DELAY_MS: '500',
      });
      const a = await startChild(env);
      server = a;
      agent = await login(a);
      const started = await call(a, 'POST', '/api/v1/flight/getFare', {
        body: oneWaySearch('LHR', 'DXB', futureDate(60)),
      });
      const batch = await call(a, 'GET', `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`);
      const hit = ((batch.body.results_by_gds?.amadeus ?? []) as Array<Record<string, any>>).find(
        (o) => !o.lcc,
      );
      if (!hit) throw new Error('no bookable amadeus offer');
      const created = await call(a, 'POST', '/api/v1/bookings/createPnr', {
        key: `mv-pnr-${c.op}`,
        body: { offer_id: hit.offer_id, currency: hit.price.currency, passengers: [passenger], contact },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = created.body.booking_id as number;
      const total = created.body.pricing.total_minor as number;
      const auth = await call(a, 'POST', `/api/v1/bookings/${id}/authorize`, {
        key: `mv-auth-${c.op}`,
        body: { token: 'tok_sandbox_ok', currency: created.body.pricing.currency, amount_minor: total },
      });
      expect(auth.status, JSON.stringify(auth.body)).toBe(200);
      const pi = auth.body.provider_payment_ref as string;
      if (c.op === 'refund') {
        const cap = await call(a, 'POST', `/api/v1/bookings/${id}/payment/capture`, {
          key: 'mv-cap',
          body: {},
        });
        expect(cap.status, JSON.stringify(cap.body)).toBe(200);
      }
      const refunds = () => [...emulators.stripe.refunds.values()].filter((r) => r.payment_intent === pi);
      const acted = () =>
        c.op === 'void'
          ? emulators.stripe.paymentIntents.get(pi)?.status === 'canceled'
          : refunds().length > 0;

      const gate = emulators.moneyGates[c.gate];
      gate.close();
      const path = `/api/v1/bookings/${id}/payment/${c.op}`;
      const answer = call(a, 'POST', path, { key: `mv-${c.op}`, body: {} }).catch((e) => e);
      await gate.arrived(1);
      await a.kill9();
      expect(await answer).toBeInstanceOf(Error);
      gate.open();
      await until('Stripe acts for the dead caller', 10_000, async () =>
        acted() ? { done: true, value: null } : { done: false, seen: null },
      );
      server = await startChild(env);
      agent = await login(server);
      const s = server;
      const retry = await until('the retry answered', 30_000, async () => {
        const r = await call(s, 'POST', path, { key: `mv-${c.op}`, body: {} });
        return r.status === 409 || r.status === 202
          ? { done: false, seen: r.body }
          : { done: true, value: r };
      });
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body.state).toBe(c.state);
      const hist = await call(s, 'GET', `/api/v1/bookings/${id}/payment/history`);
      expect(hist.body.payments.map((p: any) => p.state)).toEqual([c.state]);
      if (c.op === 'refund') expect(refunds().map((r) => r.amount)).toEqual([total]);
      else expect(emulators.stripe.paymentIntents.get(pi)?.status).toBe('canceled');
    }, 120_000);
  }
});
