/**
 * `/metrics` shows what an operator needs in an incident: the database link, each supplier's circuit
 * breaker, the job queue's depth and the age of its oldest due job, the reconciliation backlog and the
 * bookings still waiting for a supplier to settle. Computed on every scrape, so they follow the state:
 * a PENDING booking (502) appears as pending with its reconciliation job queued and ageing, then both
 * drop to zero once the job has run. Jobs are run by hand here, on a manual clock.
 */
import { type MockServers, startMockServers } from '@travel/mock-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/internal/clock.ts';
import { loadConfig } from '../../src/internal/config.ts';
import { MemoryMailer } from '../../src/mail/mailer.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { seedSandboxAgency } from '../../src/sandbox-seed.ts';
import type { Database } from '../../src/storage/database.ts';
import { futureDate, oneWaySearch } from '../harness/flight-search.ts';
import { testBackend, testDatabase } from '../helpers/db.ts';
import { CONTACT, PASSENGER } from './stack.ts';

process.env.PASSWORD_SCRYPT_N ??= '1024';

describe(`runtime gauges in /metrics (${testBackend})`, () => {
  let database: Database;
  let mocks: MockServers;
  let runtime: Runtime;
  const clock = new ManualClock(new Date());
  let token = '';

  beforeAll(async () => {
    database = await testDatabase();
    mocks = await startMockServers({ options: { latencyMs: 0, seed: 5 } });
    runtime = await createRuntime({
      config: loadConfig({ SUPPLIERS: 'sandbox', PUBLIC_BASE_URL: 'http://travel.test' }),
      database,
      mailer: new MemoryMailer(),
      logger: pino({ level: 'silent' }),
      clock,
      sandboxUrls: mocks.urls,
      startJobs: false,
    });
    const agency = await seedSandboxAgency(database.db, clock);
    const r = await call('POST', '/api/v1/auth/login', { email: agency.email, password: agency.password });
    token = r.body.access_token;
  });

  afterAll(async () => {
    await runtime?.close();
    await database?.close();
    await mocks?.close();
  });

  async function call(method: string, path: string, body?: unknown, key?: string) {
    const res = await runtime.app.handle(
      new Request(`http://travel.test${path}`, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(key ? { 'idempotency-key': key } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    );
    const text = await res.text();
    return { status: res.status, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
  }

  /** The value of one series in the exposition text, or undefined when absent. */
  const series = (text: string, name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line === undefined ? undefined : Number(line.slice(name.length + 1));
  };
  const scrape = async () => {
    const r = await call('GET', '/metrics');
    expect(r.status).toBe(200);
    return r.text;
  };

  it('breaker state per supplier, database up', async () => {
    let m = await scrape();
    expect(series(m, 'travel_database_up')).toBe(1);
    for (const s of ['amadeus', 'duffel', 'mystifly', 'hotelbeds']) {
      expect(series(m, `travel_circuit_breaker_state{supplier="${s}",state="closed"}`)).toBe(1);
      expect(series(m, `travel_circuit_breaker_state{supplier="${s}",state="open"}`)).toBe(0);
    }
    const duffel = runtime.search.breakers.get('duffel');
    for (let i = 0; i < 5; i++) duffel.onFailure();
    m = await scrape();
    expect(series(m, 'travel_circuit_breaker_state{supplier="duffel",state="open"}')).toBe(1);
    expect(series(m, 'travel_circuit_breaker_state{supplier="duffel",state="closed"}')).toBe(0);
    expect(series(m, 'travel_circuit_breaker_state{supplier="amadeus",state="closed"}')).toBe(1);
    duffel.forceClose();
  });

  it('a pending booking, its queued reconciliation job and its age; all back to zero once the job ran', async () => {
    const date = futureDate(60, clock.now().getTime());
    const s = await call('POST', '/api/v1/flight/getFare', oneWaySearch('LHR', 'DXB', date));
    expect(s.status).toBe(202);
    const b = await call('GET', `/api/v1/flight/getFare/batch/${s.body.searchId}?timeout=30`);
    const offer = (
      b.body.results_by_gds.amadeus as { offer_id: string; lcc: boolean; price: { currency: string } }[]
    ).find((o) => !o.lcc);
    expect(offer).toBeDefined();
    const before = await scrape();
    const pendingBefore = series(before, 'travel_bookings_pending{vertical="flight"}') ?? 0;
    const backlogBefore = series(before, 'travel_reconciliation_backlog') ?? 0;

    const created = await call(
      'POST',
      '/api/v1/bookings/createPnr',
      {
        offer_id: offer?.offer_id,
        currency: offer?.price.currency,
        passengers: [PASSENGER('PENDING')],
        contact: CONTACT,
      },
      `metrics-${Date.now()}`,
    );
    expect(created.status, created.text).toBe(502);
    clock.advance(42_000);
    let m = await scrape();
    expect(series(m, 'travel_bookings_pending{vertical="flight"}')).toBe(pendingBefore + 1);
    expect(series(m, 'travel_reconciliation_backlog')).toBe(backlogBefore + 1);
    expect(series(m, 'travel_jobs_queued{queue="booking.reconcile"}')).toBeGreaterThanOrEqual(1);
    expect(
      series(m, 'travel_jobs_oldest_ready_age_seconds{queue="booking.reconcile"}'),
    ).toBeGreaterThanOrEqual(42);
    expect(series(m, 'travel_bookings_pending{vertical="hotel"}')).toBe(0);

    // The reconciliation job confirms it (the sandbox's PENDING order is confirmed when looked up).
    while ((await runtime.jobs.runOnce()) > 0);
    m = await scrape();
    expect(series(m, 'travel_bookings_pending{vertical="flight"}')).toBe(pendingBefore);
    expect(series(m, 'travel_reconciliation_backlog')).toBe(backlogBefore);
    expect(series(m, 'travel_jobs_queued{queue="booking.reconcile"}') ?? 0).toBe(0);
  });
});
