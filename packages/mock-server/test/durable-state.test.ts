/**
 * `startMockServers({ stateDir })`: the emulators' records and id counters survive a restart on the
 * same directory; a torn journal line (kill mid-write) is skipped; a second process is refused.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockServers, startMockServers } from '../src/index.ts';
import { SupplierJournal } from '../src/shared/journal.ts';
import { TrackedMap } from '../src/shared/tracked-map.ts';

const dirs: string[] = [];
const open: MockServers[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'mock-state-'));
  dirs.push(d);
  return d;
}

async function start(stateDir: string): Promise<MockServers> {
  // No periodic flush within the test: only each request's own journalling writes.
  const m = await startMockServers({
    options: { latencyMs: 0, seed: 3 },
    suppliers: ['stripe'],
    stateDir,
    stateFlushMs: 3_600_000,
  });
  open.push(m);
  return m;
}

const AUTH = { authorization: 'Bearer sk_test_durable_123456' };

async function authorize(base: string, key: string): Promise<{ id: string; status: string }> {
  const res = await fetch(`${base}/v1/payment_intents`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': key },
    body: 'amount=5000&currency=usd&confirm=true&capture_method=manual&payment_method=pm_card_visa',
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; status: string };
}

describe('emulator state on disk', () => {
  it('a restarted Stripe emulator knows its PaymentIntents, their captures and keys, and never reuses an id', async () => {
    const dir = tempDir();
    const first = await start(dir);
    const a = await authorize(first.urls.stripe as string, 'k1');
    const b = await authorize(first.urls.stripe as string, 'k2');
    // Journalled before the answer left the emulator (not by the periodic flush, nor at close).
    const journal = readFileSync(join(dir, 'stripe.journal.ndjson'), 'utf8');
    expect(journal).toContain(a.id);
    expect(journal).toContain(b.id);
    const cap = await fetch(`${first.urls.stripe}/v1/payment_intents/${a.id}/capture`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(cap.status).toBe(200);
    await first.close();
    open.splice(0);

    const second = await start(dir);
    const base = second.urls.stripe as string;
    const got = await fetch(`${base}/v1/payment_intents/${a.id}`, { headers: AUTH });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { status: string }).status).toBe('succeeded');
    const gotB = await fetch(`${base}/v1/payment_intents/${b.id}`, { headers: AUTH });
    expect(((await gotB.json()) as { status: string }).status).toBe('requires_capture');
    // The same key replays the first answer; a new one gets a new id, never one handed out before.
    expect((await authorize(base, 'k1')).id).toBe(a.id);
    const c = await authorize(base, 'k3');
    expect([a.id, b.id]).not.toContain(c.id);
  });

  it('a second process on the same directory is refused while the first runs', async () => {
    const dir = tempDir();
    await start(dir);
    // The lock names a live process other than this one: the parent of this test process.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'lock'), String(process.ppid));
    await expect(start(dir)).rejects.toThrow(/in use by process/);
  });
});

const PRUNED = new Set([
  'amadeus.tokens',
  'amadeus.transferOffers',
  'duffel.offers',
  'duffel.offerRequests',
  'duffel.services',
  'duffel.staysSearchResults',
  'duffel.staysRates',
  'duffel.staysQuotes',
  'mystifly.sessions',
  'stripe.idempotency',
]);

describe('every emulator', () => {
  it('keeps every durable map and counter of every supplier across a restart', async () => {
    const dir = tempDir();
    const all = { options: { latencyMs: 0, seed: 3 }, stateDir: dir };
    const first = await startMockServers(all);
    open.push(first);
    const written: string[] = [];
    for (const [supplier, state] of Object.entries(first.states)) {
      for (const [field, value] of Object.entries(state as Record<string, unknown>)) {
        // Search artefacts are pruned by their expiry at every start (next test): not probed with fakes.
        if (!(value instanceof Map) || PRUNED.has(`${supplier}.${field}`)) continue;
        // A record outside any request (as a test or a timer would write it): journalled on close.
        (value as Map<string, unknown>).set(`probe-${field}`, { supplier, field });
        written.push(`${supplier}.${field}`);
      }
    }
    expect(written).toEqual(
      expect.arrayContaining([
        'amadeus.orders',
        'amadeus.transferOrders',
        'amadeus.counters',
        'duffel.orders',
        'duffel.staysBookings',
        'duffel.counters',
        'mystifly.bookings',
        'hotelbeds.bookings',
        'hotelbeds-transfers.bookings',
        'stripe.paymentIntents',
        'stripe.refunds',
      ]),
    );
    if (first.states.mystifly) first.states.mystifly.counter = 41;
    await first.close();
    open.splice(0);

    const second = await startMockServers(all);
    open.push(second);
    for (const name of written) {
      const [supplier, field] = name.split('.') as [string, string];
      const map = (second.states as Record<string, Record<string, unknown>>)[supplier]?.[field] as Map<
        string,
        unknown
      >;
      expect(map.get(`probe-${field}`), name).toEqual({ supplier, field });
    }
    expect(second.states.mystifly?.counter).toBe(41);
  });
});

describe('pruning', () => {
  it('a restart drops expired Duffel offers nobody ordered, keeps ordered ones and their services', async () => {
    const dir = tempDir();
    const now = Date.parse('2026-11-28T12:00:00Z');
    const all = {
      options: { latencyMs: 0, seed: 3, clock: () => now },
      suppliers: ['duffel'] as const,
      stateDir: dir,
    };
    const first = await startMockServers(all);
    open.push(first);
    const duffel = first.states.duffel;
    if (!duffel) throw new Error('no duffel');
    const old = new Date(now - 2 * 3_600_000).toISOString();
    const offer = (id: string) => ({
      offer: { id, expires_at: old },
      requestId: 'orq',
      driftMinor: 0,
      services: [],
      carrier: 'ZZ',
    });
    duffel.offers.set('off_expired', offer('off_expired'));
    duffel.offers.set('off_ordered', offer('off_ordered'));
    duffel.orders.set('ord_1', {
      order: { id: 'ord_1' },
      offerId: 'off_ordered',
      carrier: 'ZZ',
      createdAtMs: now,
    });
    const svc = (id: string, offerId: string) => ({
      id,
      type: 'baggage' as const,
      offerId,
      passengerIds: [],
      segmentIds: [],
      amountMinor: 1,
      maxQuantity: 1,
      metadata: {},
    });
    duffel.services.set('ase_gone', svc('ase_gone', 'off_expired'));
    duffel.services.set('ase_kept', svc('ase_kept', 'off_ordered'));
    await first.close();
    open.splice(0);

    const second = await startMockServers(all);
    open.push(second);
    expect([...(second.states.duffel?.offers.keys() ?? [])]).toEqual(['off_ordered']);
    expect([...(second.states.duffel?.services.keys() ?? [])]).toEqual(['ase_kept']);
    expect(second.states.duffel?.orders.has('ord_1')).toBe(true);
  });
});

describe('SupplierJournal', () => {
  it('replays set, in-place change and delete; skips a torn last line; compacts on open', async () => {
    const dir = tempDir();
    const spec = () => {
      const orders = new TrackedMap<string, { status: string; seats: Set<string> }>();
      let counter = 0;
      return {
        orders,
        counter: () => counter,
        spec: {
          maps: { orders: orders as TrackedMap<unknown, unknown> },
          scalars: {
            counter: {
              get: () => counter,
              set: (v: unknown) => {
                counter = Number(v);
              },
            },
          },
        },
        bump: () => {
          counter += 1;
        },
      };
    };
    const one = spec();
    const j1 = new SupplierJournal(dir, 'x', one.spec);
    j1.open();
    await j1.run(async () => {
      one.orders.set('A', { status: 'ACTIVE', seats: new Set(['1A']) });
      one.orders.set('B', { status: 'ACTIVE', seats: new Set() });
      one.bump();
    });
    await j1.run(async () => {
      const a = one.orders.get('A');
      if (a) a.status = 'CANCELLED'; // changed in place after a read, as the emulators do
      one.orders.delete('B');
      one.bump();
    });
    const journal = join(dir, 'x.journal.ndjson');
    expect(readFileSync(journal, 'utf8').trim().split('\n')).toHaveLength(6);
    // A kill in the middle of a write leaves half a line.
    appendFileSync(journal, '{"m":"orders","k":"C","v":{"sta');
    // No close(): the process died.

    const two = spec();
    const j2 = new SupplierJournal(dir, 'x', two.spec);
    j2.open();
    expect([...two.orders.keys()]).toEqual(['A']);
    expect(two.orders.get('A')?.status).toBe('CANCELLED');
    expect([...(two.orders.get('A')?.seats ?? [])]).toEqual(['1A']);
    expect(two.counter()).toBe(2);
    expect(readFileSync(journal, 'utf8')).toBe('');
    j2.close();
  });
});
