/**
 * kill -9 inside a confirmed ticket void (Amadeus `ticket-actions` CONFIRM held at the emulator, let through
 * after the kill: the supplier voids for a caller that is gone), and a restart slower than every lease the
 * dead process held (its idempotency lease, the job lease). Reconciliation confirms the void from the
 * ticket document and gives the card its money back before the client returns; the same-key retry then
 * answers the confirmed void (200), not 400 `not_ticketed` for the state the void itself produced.
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

const LEASE_SECONDS = 2;
const JOBS_LEASE_MS = 1_500;

describe('kill -9 inside a confirmed ticket void, restart slower than the leases', () => {
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

  it('reconciliation voids and refunds; the same-key retry answers the confirmed void', async () => {
    store = await faultStore();
    const env = faultEnv(store, emulators, {
      IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
      JOBS_LEASE_MS: String(JOBS_LEASE_MS),
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
      key: 'void-pnr',
      body: { offer_id: hit.offer_id, currency: hit.price.currency, passengers: [passenger], contact },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.booking_id as number;
    const total = created.body.pricing.total_minor as number;
    const auth = await call(a, 'POST', `/api/v1/bookings/${id}/authorize`, {
      key: 'void-auth',
      body: { token: 'tok_sandbox_ok', currency: created.body.pricing.currency, amount_minor: total },
    });
    expect(auth.status, JSON.stringify(auth.body)).toBe(200);
    const pi = auth.body.provider_payment_ref as string;
    const ticketed = await call(a, 'POST', `/api/v1/bookings/${id}/ticket`, {
      key: 'void-ticket',
      body: { capture: true },
    });
    expect(ticketed.status, JSON.stringify(ticketed.body)).toBe(200);

    const gate = emulators.moneyGates['amadeus-ticket-action'];
    gate.close();
    const path = `/api/v1/bookings/${id}/ticket/void?confirm=true`;
    const answer = call(a, 'POST', path, { key: 'void-confirm', body: {} }).catch((e) => e);
    await gate.arrived(1);
    await a.kill9();
    expect(await answer).toBeInstanceOf(Error);
    const killedAt = Date.now();
    gate.open();
    // The restart comes after every lease the dead process held has lapsed.
    await until('the leases lapse', 10_000, async () =>
      Date.now() > killedAt + Math.max(LEASE_SECONDS * 1000, JOBS_LEASE_MS) + 500
        ? { done: true, value: null }
        : { done: false, seen: Date.now() - killedAt },
    );
    server = await startChild(env);
    agent = await login(server);
    const s = server;
    const refunded = () =>
      [...emulators.stripe.refunds.values()].filter((r) => r.payment_intent === pi).map((r) => r.amount);
    // Settled by the server itself: the void found on the ticket document, the capture refunded once.
    await until('the void settled by reconciliation', 30_000, async () => {
      const b = await call(s, 'GET', `/api/v1/bookings/${id}`);
      const done = ['cancelled', 'refunded'].includes(b.body.status) && refunded().length === 1;
      return done ? { done: true, value: b.body.status } : { done: false, seen: [b.body.status, refunded()] };
    });
    const retry = await until('the retry answered', 30_000, async () => {
      const r = await call(s, 'POST', path, { key: 'void-confirm', body: {} });
      return r.status === 409 ? { done: false, seen: r.body } : { done: true, value: r };
    });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toMatchObject({ booking_id: id, action: 'void', confirmed: true, permitted: true });
    const replay = await call(s, 'POST', path, { key: 'void-confirm', body: {} });
    expect(replay.body).toEqual(retry.body);
    expect(refunded()).toEqual([total]);
  }, 120_000);
});
