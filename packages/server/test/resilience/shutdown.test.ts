/**
 * SIGTERM with work in flight, on both databases (PGlite under DATA_DIR, and a PostgreSQL server). A
 * child server (`src/main.ts`) holds an open search stream and a createPnr whose Amadeus order request
 * is held at the emulator longer than SHUTDOWN_GRACE_MS. On SIGTERM the stream must end with its
 * `shutdown` event, the createPnr must be answered (the supplier call is aborted at the grace deadline:
 * 502 booking_pending with the booking id, written before the database closes), and the process must
 * exit within the grace plus one second. The supplier then completes the order anyway (as a real one
 * may after its caller hung up); a server restarted on the same data finds the booking and
 * reconciliation confirms it against that one order.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  amadeusHandlers,
  type MockServers,
  mystiflyHandlers,
  type ServedHandlers,
  serveHandlers,
  startMockServers,
} from '@travel/mock-server';
import { HttpResponse, http, type RequestHandler } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneWaySearch } from '../harness/flight-search.ts';
import { Gate, readSse, type ServerProcess, type SseMessage } from '../search/processes.ts';
import { type PrivatePostgres, postgresBinaries, startPrivatePostgres } from './postgres.ts';
import { Client, eventually, startService, supplierUrls } from './stack.ts';

const GRACE_MS = 1500;
const bin = postgresBinaries();

/** Holds requests until released, whether or not their caller is still there (a supplier finishing). */
class Hold {
  #release: (() => void) | undefined;
  #held = Promise.resolve();
  #arrived: (() => void) | undefined;
  arrival = Promise.resolve();
  close(): void {
    this.#held = new Promise((r) => {
      this.#release = r;
    });
    this.arrival = new Promise((r) => {
      this.#arrived = r;
    });
  }
  open(): void {
    this.#release?.();
  }
  async pass(): Promise<void> {
    this.#arrived?.();
    await this.#held;
  }
}

interface Emulators {
  urls: Record<string, string>;
  amadeus: ReturnType<typeof amadeusHandlers>['state'];
  orderHold: Hold;
  mystiflySearch: Gate;
  close(): Promise<void>;
}

async function startHeldEmulators(): Promise<Emulators> {
  const rest: MockServers = await startMockServers({
    options: { latencyMs: 0, seed: 3 },
    suppliers: ['duffel', 'hotelbeds', 'hotelbeds-transfers', 'stripe'],
  });
  const orderHold = new Hold();
  const mystiflySearch = new Gate();
  const served: ServedHandlers[] = [];
  const serve = async (make: (url: string) => RequestHandler[]) => {
    const handlers: RequestHandler[] = [];
    const s = await serveHandlers(handlers, { host: '127.0.0.1', port: 0 });
    handlers.push(...make(s.url));
    served.push(s);
    return s.url;
  };
  let amadeus!: ReturnType<typeof amadeusHandlers>['state'];
  const amadeusUrl = await serve((url) => {
    const made = amadeusHandlers({ baseUrl: url, latencyMs: 0, seed: 3 });
    amadeus = made.state;
    return [
      http.post(`${url}/v1/booking/flight-orders`, async () => {
        await orderHold.pass();
        return undefined; // on to the emulator, which creates the order
      }),
      ...made.handlers,
    ];
  });
  const mystiflyUrl = await serve((url) => [
    http.post(`${url}/api/v2/Search/Flight`, async ({ request }) => {
      try {
        await mystiflySearch.pass(request.signal);
      } catch {
        return HttpResponse.error();
      }
      return undefined;
    }),
    ...mystiflyHandlers({ baseUrl: url, latencyMs: 0, seed: 3 }).handlers,
  ]);
  return {
    urls: { ...(rest.urls as Record<string, string>), amadeus: amadeusUrl, mystifly: mystiflyUrl },
    amadeus,
    orderHold,
    mystiflySearch,
    async close() {
      orderHold.open();
      mystiflySearch.open();
      await Promise.all([rest.close(), ...served.map((s) => s.close())]);
    },
  };
}

const backends: { name: 'pglite' | 'postgres'; skip: boolean }[] = [
  { name: 'pglite', skip: false },
  { name: 'postgres', skip: !bin },
];

describe.each(backends)('SIGTERM with work in flight ($name)', ({ name, skip }) => {
  let emulators: Emulators;
  let pgServer: PrivatePostgres | undefined;
  let dataDir: string;
  let env: Record<string, string>;
  let first: ServerProcess | undefined;
  let second: ServerProcess | undefined;

  beforeAll(async () => {
    if (skip) return;
    emulators = await startHeldEmulators();
    dataDir = await mkdtemp(join(tmpdir(), `travel-shutdown-${name}-`));
    if (name === 'postgres') pgServer = await startPrivatePostgres(bin as string);
    env = {
      DATA_DIR: dataDir,
      SANDBOX_SUPPLIER_URLS: supplierUrls(emulators.urls),
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      ...(pgServer ? { DATABASE_URL: pgServer.url } : {}),
    };
  }, 60_000);

  afterAll(async () => {
    await first?.stop('SIGKILL');
    await second?.stop();
    await emulators?.close();
    await pgServer?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it.skipIf(skip)(
    'ends streams with `shutdown`, answers the held createPnr 502 pending, exits within grace + 1 s; the booking survives and reconciles',
    async () => {
      first = await startService(`shutdown-${name}`, env);
      const c = new Client(first.url);
      await c.login();
      const offer = await c.offer('amadeus');

      // A search kept running by a held supplier: its stream stays open until the server stops.
      emulators.mystiflySearch.close();
      const s = await c.req('POST', '/api/v1/flight/getFare', {
        body: oneWaySearch('LHR', 'DXB', '2027-02-01'),
      });
      expect(s.status).toBe(202);
      const streamRes = await fetch(`${first.url}/api/v1/flight/getFare/stream/${s.body.searchId}`, {
        headers: { authorization: `Bearer ${c.token}` },
      });
      expect(streamRes.status).toBe(200);
      const events: SseMessage[] = [];
      const streamed = (async () => {
        for await (const m of readSse(streamRes)) events.push(m);
      })();
      await emulators.mystiflySearch.arrived(1);

      // A createPnr inside its supplier call, held there longer than the grace period.
      emulators.orderHold.close();
      const key = `sigterm-${name}-${Date.now()}`;
      const booking = c.createPnr(offer, key);
      await emulators.orderHold.arrival;

      const t0 = Date.now();
      first.child.kill('SIGTERM');
      const exited = await first.exited;
      const elapsed = Date.now() - t0;
      await streamed;
      const answer = await booking;

      expect(exited, first.output()).toEqual({ code: 0, signal: null });
      expect(elapsed, first.output()).toBeLessThanOrEqual(GRACE_MS + 1000);
      expect(events.at(-1)?.event).toBe('shutdown');
      expect(answer.status, JSON.stringify(answer.body)).toBe(502);
      expect(answer.body).toMatchObject({ code: 'booking_pending', booking_id: expect.any(Number) });
      const bookingId = answer.body.booking_id as number;

      // The supplier finishes the order although its caller is gone.
      const before = emulators.amadeus.orders.size;
      emulators.orderHold.open();
      emulators.mystiflySearch.open();
      await eventually(
        'the held order to be created',
        5000,
        async () => emulators.amadeus.orders.size > before,
      );

      second = await startService(`shutdown-${name}-again`, env);
      const c2 = new Client(second.url);
      await c2.login();
      const settled = await eventually('reconciliation to confirm the booking', 30_000, async () => {
        const r = await c2.req('GET', `/api/v1/bookings/${bookingId}`);
        return r.status === 200 && r.body.status !== 'pending_pnr' && r.body.status !== 'initiated'
          ? r
          : undefined;
      });
      const orders = [...emulators.amadeus.orders.values()];
      expect(orders).toHaveLength(before + 1);
      const order = orders.at(-1);
      expect(settled.body).toMatchObject({ status: 'confirmed', pnr: order?.pnr });
      // The same key replays the stored answer: no second order.
      const replay = await c2.createPnr(offer, key);
      expect(replay.status).toBe(502);
      expect(replay.body.booking_id).toBe(bookingId);
      expect(emulators.amadeus.orders.size).toBe(before + 1);
    },
    90_000,
  );
});

describe('SANDBOX_LATENCY_MS: a SIGTERM placed inside an in-process supplier call', () => {
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('the held createPnr is answered 502 pending and the process exits within grace + 1 s', async () => {
    // No SANDBOX_SUPPLIER_URLS: `pnpm start`'s launcher runs the emulators in the server, each call held 3 s.
    server = await startService('latency', { SANDBOX_LATENCY_MS: '3000', SHUTDOWN_GRACE_MS: '1000' });
    const c = new Client(server.url);
    await c.login();
    const offer = await c.offer('amadeus');
    const pending = async () => {
      const m = await c.req('GET', '/metrics');
      return Number(/^travel_bookings_pending\{vertical="flight"\} (\d+)$/m.exec(String(m.body))?.[1] ?? 0);
    };
    const before = await pending();
    const booking = c.createPnr(offer, `latency-${Date.now()}`);
    // Written ahead (initiated, counted as pending): the request is now in its 3 s supplier call.
    await eventually('createPnr to be in its supplier call', 10_000, async () => (await pending()) > before);
    const t0 = Date.now();
    server.child.kill('SIGTERM');
    const exited = await server.exited;
    const elapsed = Date.now() - t0;
    const answer = await booking;
    expect(exited, server.output()).toEqual({ code: 0, signal: null });
    expect(elapsed, server.output()).toBeLessThanOrEqual(2000);
    expect(answer.status, JSON.stringify(answer.body)).toBe(502);
    expect(answer.body).toMatchObject({ code: 'booking_pending', booking_id: expect.any(Number) });
  }, 60_000);
});
