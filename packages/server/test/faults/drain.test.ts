/**
 * SIGTERM with a keep-alive socket open (`src/main.ts` as a child process): new connections are refused by
 * the closed listener, but a socket opened before the drain can still carry requests. During the drain
 * every answer on it says `Connection: close`, and an effectful request is refused before any supplier
 * call: 503 `server_draining` with Retry-After. A request in flight when the drain began still finishes.
 */
import { connect } from 'node:net';
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

describe('SIGTERM drain', () => {
  let emulators: FaultEmulators;
  let store: FaultStore;
  let server: Child | undefined;

  beforeAll(async () => {
    emulators = await startFaultEmulators();
    store = await faultStore();
  }, 60_000);
  afterAll(async () => {
    await server?.kill9();
    emulators.gates.amadeus.open();
    await emulators?.close();
    await store?.drop();
  });

  it('a keep-alive socket gets Connection: close, and a new effect 503 server_draining before any supplier call', async () => {
    server = await startChild({
      ...faultEnv(store, emulators),
      SHUTDOWN_GRACE_MS: '20000',
      LOG_LEVEL: 'info',
    });
    const s = server;
    const token = await login(s);
    const started = await api(s.url, 'POST', '/api/v1/flight/getFare', {
      token,
      body: oneWaySearch('LHR', 'DXB', futureDate(60)),
    });
    const batch = await api(
      s.url,
      'GET',
      `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`,
      {
        token,
      },
    );
    const offers = ((batch.body.results_by_gds?.amadeus ?? []) as Array<Record<string, any>>).filter(
      (o) => !o.lcc,
    );
    const [held, late] = offers;
    if (!held || !late) throw new Error('two bookable amadeus offers needed');
    const body = (o: Record<string, any>) => ({
      offer_id: o.offer_id,
      currency: o.price.currency,
      passengers: [passenger],
      contact,
    });
    // A booking in flight at the supplier keeps the drain going.
    const before = emulators.orders('amadeus').length;
    emulators.gates.amadeus.close();
    const inFlight = api(s.url, 'POST', '/api/v1/bookings/createPnr', {
      token,
      key: 'drain-held',
      body: body(held),
    });
    await emulators.gates.amadeus.arrived(1);

    // A keep-alive socket that is mid-request when the drain begins (its headers half sent), so the drain
    // does not close it as idle: the request completes during the drain.
    const raw = connect(Number(new URL(s.url).port), '127.0.0.1');
    await new Promise<void>((r) => raw.once('connect', () => r()));
    const payload = JSON.stringify(body(late));
    raw.write(`POST /api/v1/bookings/createPnr HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
    let reply = '';
    raw.on('data', (c) => {
      reply += c.toString();
    });
    const closed = new Promise<void>((r) => raw.once('close', () => r()));

    s.child.kill('SIGTERM');
    await s.printed('"msg":"draining"', 1);
    raw.write(
      `authorization: Bearer ${token}\r\ncontent-type: application/json\r\nidempotency-key: drain-late\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
    );
    await closed;
    const [head = '', text = ''] = reply.split('\r\n\r\n');
    expect(head, reply).toMatch(/^HTTP\/1\.1 503/);
    expect(head.toLowerCase()).toMatch(/\r\nconnection: close/);
    expect(head.toLowerCase()).toMatch(/\r\nretry-after: \d+/);
    // The body may come chunked: the JSON object inside it.
    expect(JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)).code).toBe('server_draining');

    emulators.gates.amadeus.open();
    const answered = await inFlight;
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    // The answer in flight at the drain closes its keep-alive socket: no request can follow on it.
    expect(answered.headers.get('connection')).toBe('close');
    // The held booking reached the supplier; the refused one never did.
    expect(emulators.orders('amadeus').length).toBe(before + 1);
    await s.stop();
    server = undefined;
  }, 120_000);
});
