/**
 * Two installations (two databases) on one payment provider account: their booking ids and the clients'
 * Idempotency-Keys repeat (booking 1, key "same"), yet every Stripe idempotency key carries the
 * installation id (migration 0120, payment/psp-keys.ts), so neither replays the other's answer: each
 * booking gets its own PaymentIntent, and each cancel voids its own hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
} from './harness.ts';

describe('two databases on one Stripe account', () => {
  let emulators: FaultEmulators;
  const stores: FaultStore[] = [];
  const servers: Child[] = [];

  beforeAll(async () => {
    emulators = await startFaultEmulators();
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await s.kill9();
    await emulators?.close();
    for (const s of stores) await s.drop();
  });

  /** Booking 1 of a fresh installation, authorized and cancelled with the same client keys as the other. */
  async function bookPayCancel(s: Child) {
    const token = await login(s);
    const call = (method: string, path: string, o: { key?: string; body?: unknown } = {}) =>
      api(s.url, method, path, { token, ...o });
    const started = await call('POST', '/api/v1/flight/getFare', {
      body: oneWaySearch('LHR', 'DXB', futureDate(60)),
    });
    const batch = await call('GET', `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`);
    const hit = ((batch.body.results_by_gds?.amadeus ?? []) as Array<Record<string, any>>).find(
      (o) => !o.lcc,
    );
    if (!hit) throw new Error('no bookable amadeus offer');
    const created = await call('POST', '/api/v1/bookings/createPnr', {
      key: 'same-pnr',
      body: { offer_id: hit.offer_id, currency: hit.price.currency, passengers: [passenger], contact },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.booking_id as number;
    const auth = await call('POST', `/api/v1/bookings/${id}/authorize`, {
      key: 'same-auth',
      body: {
        token: 'tok_sandbox_ok',
        currency: created.body.pricing.currency,
        amount_minor: created.body.pricing.total_minor,
      },
    });
    expect(auth.status, JSON.stringify(auth.body)).toBe(200);
    const cancel = await call('POST', `/api/v1/bookings/${id}/cancel`, { key: 'same-cancel', body: {} });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const hist = await call('GET', `/api/v1/bookings/${id}/payment/history`);
    return {
      id,
      pi: auth.body.provider_payment_ref as string,
      states: hist.body.payments.map((p: any) => p.state),
    };
  }

  it('each booking 1 has its own PaymentIntent, and each cancel voids its own hold', async () => {
    const results = [];
    for (let i = 0; i < 2; i++) {
      const store = await faultStore();
      stores.push(store);
      const s = await startChild(faultEnv(store, emulators));
      servers.push(s);
      results.push(await bookPayCancel(s));
      await s.stop();
    }
    const [a, b] = results;
    expect([a?.id, b?.id]).toEqual([1, 1]);
    expect(a?.pi).not.toBe(b?.pi);
    for (const r of results) {
      expect(r.states).toEqual(['VOIDED']);
      expect(emulators.stripe.paymentIntents.get(r.pi)?.status).toBe('canceled');
    }
  }, 180_000);
});
