/**
 * The SDK against the REAL server, started in this process (createRuntime: every domain, fresh PGlite,
 * sandbox supplier emulators with no latency). No environment variable needed; the job runner does not
 * poll on its own, the PENDING test drives reconciliation with `jobs.runOnce()`.
 */

import { type Login, startTestServer, type TestServer } from '@travel/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTravelClient,
  type FlightOffer,
  NotFoundError,
  PaymentDeclinedError,
  SupplierError,
  type TravelClient,
  type TravelClientOptions,
  ValidationError,
} from '../src/index.ts';
import { createBooking } from './fixtures/bodies.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
/** Real waits, but short: the server's `retry:` hint and the poll backoff are seconds long. */
const quickSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    setTimeout(resolve, Math.min(ms, 25));
  });

async function loggedIn(who: Login = server.agent, options: Partial<TravelClientOptions> = {}) {
  const travel = createTravelClient({ baseUrl: server.url, sleep: quickSleep, ...options });
  await travel.auth.login(who);
  return travel;
}

function startSearch(travel: TravelClient, days = 30) {
  return travel.flights.search({
    companyCode: 'SANDBOX',
    userCode: 'AGENT1',
    searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: inDays(days) }],
  });
}

/** The cheapest offer of a given supplier (amadeus: no travel documents needed, honours PENDING). */
async function offerFrom(travel: TravelClient, supplier = 'amadeus'): Promise<FlightOffer> {
  const offers = (await (await startSearch(travel)).offers()).filter((o) => o.supplier === supplier);
  const cheapest = offers.sort((a, b) => a.price.total_minor - b.price.total_minor)[0];
  if (!cheapest) throw new Error(`no ${supplier} offer`);
  return cheapest;
}

const traveller = (lastName: string, firstName = 'Ada') =>
  ({ ...createBooking.passengers[0], first_name: firstName, last_name: lastName }) as never;

interface Connection {
  lastEventId: string | null;
  /** Event ids as they came over the wire on this connection. */
  ids: string[];
}

/**
 * A fetch that cuts the FIRST stream connection after `afterEvents` events with an id (a network drop
 * mid-stream) and records what every stream connection carried, to check the server's resume itself.
 */
function droppingFetch(afterEvents: number) {
  const connections: Connection[] = [];
  const encoder = new TextEncoder();
  const fetchFn = async (request: Request) => {
    const response = await fetch(request);
    if (!/\/getFare\/stream\//.test(request.url) || !response.body) return response;
    const connection: Connection = { lastEventId: request.headers.get('last-event-id'), ids: [] };
    const drop = connections.length === 0;
    connections.push(connection);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let withId = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // Forward whole frames only, so the cut falls exactly after the Nth event.
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
          let out = '';
          for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, i + 2);
            buffer = buffer.slice(i + 2);
            out += frame;
            const id = /^id: ?(.*)$/m.exec(frame)?.[1];
            if (id === undefined) continue;
            connection.ids.push(id);
            if (drop && ++withId >= afterEvents) {
              controller.enqueue(encoder.encode(out));
              controller.error(new TypeError('terminated: forced drop'));
              await reader.cancel().catch(() => undefined);
              return;
            }
          }
          if (out) return controller.enqueue(encoder.encode(out));
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: fetchFn, connections };
}

describe('real server (sandbox, in process)', () => {
  it('logs in and knows who it is; a wrong password is an AuthenticationError', async () => {
    const travel = await loggedIn();
    expect(await travel.auth.me()).toMatchObject({
      email: server.agent.email,
      company_code: 'SANDBOX',
      user_code: 'AGENT1',
      role: 'company_admin',
    });
    const anon = createTravelClient({ baseUrl: server.url, sleep: quickSleep });
    const error = await anon.auth.login({ email: server.agent.email, password: 'wrong' }).catch((e) => e);
    expect(error).toMatchObject({ status: 401, code: 'invalid_credentials' });
    expect(error.requestId).toMatch(/^req_/);
  });

  it('streams a flight search to done across a forced drop: Last-Event-ID resume, no duplicates', async () => {
    const dropping = droppingFetch(3);
    const travel = await loggedIn(server.agent, { fetch: dropping.fetch });
    const search = await startSearch(travel);
    const events = [];
    for await (const event of search.stream()) events.push(event);

    const [first, second, ...more] = dropping.connections;
    expect(more).toEqual([]);
    expect(first?.lastEventId).toBeNull();
    expect(first?.ids).toHaveLength(3);
    // The reconnect names the last event delivered, and the server resumes after it: nothing twice.
    expect(second?.lastEventId).toBe(first?.ids.at(-1));
    expect(second?.ids.filter((id) => first?.ids.includes(id))).toEqual([]);
    expect(second?.ids.length).toBeGreaterThan(0);

    const ids = events.flatMap((e) => (e.id === undefined ? [] : [e.id]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...(first?.ids ?? []), ...(second?.ids ?? [])]);
    expect(events.at(-1)?.event).toBe('done');
    const offers = events.filter((e) => e.event === 'offer');
    expect(offers.length).toBeGreaterThan(0);

    // The same search read as a batch, and collected again as offers, agrees with the stream.
    const batch = await search.batch({ timeout: 30 });
    expect(batch.partial).toBe(false);
    expect(batch.timed_out).toBe(false);
    expect(batch.total_offers).toBe(offers.length);
    expect(Object.values(batch.results_by_gds).flat()).toHaveLength(offers.length);
    const collected = await search.offers();
    expect(collected.map((o) => o.offer_id).sort()).toEqual(
      Object.values(batch.results_by_gds)
        .flat()
        .map((o) => o.offer_id)
        .sort(),
    );
  }, 60_000);

  it('createPnr replays the same Idempotency-Key to the same booking; pays; a decline is typed', async () => {
    const travel = await loggedIn();
    const offer = await offerFrom(travel);
    const body = {
      ...createBooking,
      offer_id: offer.offer_id,
      currency: offer.price.currency,
      passengers: [traveller('Lovelace')],
    };
    const key = `sdk-it-${offer.offer_id}`;
    const first = await travel.bookings.create(body, { idempotencyKey: key });
    const replay = await travel.bookings.create(body, { idempotencyKey: key });
    expect(first.outcome).toBe('confirmed');
    expect(first.idempotencyKey).toBe(key);
    expect(replay.booking_id).toBe(first.booking_id);
    expect(replay.booking?.pnr).toBe(first.booking?.pnr);
    const listed = await travel.bookings.get(first.booking_id);
    expect(listed.pnr).toMatch(/^[A-Z0-9]{6}$/);

    const pricing = first.booking?.pricing;
    const auth = await travel.payments.authorize(first.booking_id, {
      token: 'tok_sandbox_ok',
      currency: pricing?.currency ?? offer.price.currency,
      amount_minor: pricing?.total_minor ?? 0,
    });
    expect(auth.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    const other = await travel.bookings.create({ ...body, passengers: [traveller('Babbage')] });
    await expect(
      travel.payments.authorize(other.booking_id, {
        token: 'tok_sandbox_decline',
        currency: other.booking?.pricing.currency ?? offer.price.currency,
        amount_minor: other.booking?.pricing.total_minor ?? 0,
      }),
    ).rejects.toBeInstanceOf(PaymentDeclinedError);
  }, 60_000);

  it('waits for a PENDING booking (502) on the event stream until reconciliation settles it: no polling', async () => {
    const calls: string[] = [];
    let onStream: () => void = () => {};
    const streaming = new Promise<void>((resolve) => {
      onStream = resolve;
    });
    const travel = createTravelClient({
      baseUrl: server.url,
      // The deadline's wait never ends by itself here: only the stream's event can end the wait.
      sleep: (_ms, signal) =>
        new Promise<void>((_, reject) =>
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true }),
        ),
      fetch: async (request) => {
        const call = `${request.method} ${new URL(request.url).pathname}`;
        calls.push(call);
        const response = await fetch(request);
        // The SDK subscribed, then read the booking once: now the settlement can only reach it by the stream.
        if (/^GET \/api\/v1\/bookings\/\d+$/.test(call) && calls.includes('GET /api/v1/events/stream'))
          onStream();
        return response;
      },
      pending: { deadlineMs: 30_000 },
    });
    await travel.auth.login(server.agent);
    const offer = await offerFrom(travel);
    const creating = travel.bookings.create({
      ...createBooking,
      offer_id: offer.offer_id,
      currency: offer.price.currency,
      passengers: [traveller('PENDING', 'Stella')],
    });
    let done = false;
    void creating.finally(() => {
      done = true;
    });
    await streaming;
    // Reconciliation runs as the job runner's loop would, until the SDK has its answer.
    for (let i = 0; i < 400 && !done; i++) {
      await server.runJobs();
      if (!done) await new Promise((r) => setTimeout(r, 25));
    }
    const result = await Promise.race([
      creating,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no answer from the event stream in 20 s')), 20_000).unref(),
      ),
    ]);
    expect(result.outcome).toBe('confirmed');
    expect(result.booking?.status).toBe('confirmed');
    const reads = calls.filter((c) => c === `GET /api/v1/bookings/${result.booking_id}`);
    expect(calls.filter((c) => c === 'GET /api/v1/events/stream')).toHaveLength(1);
    // One read once the stream was open, one when the settling event came.
    expect(reads).toHaveLength(2);
  }, 60_000);

  it('polls a PENDING booking (502) to confirmation when the event stream is not available', async () => {
    const ran: number[] = [];
    // Each wait of the poller lets the job runner take one pass, as its polling loop would.
    const travel = await loggedIn(server.agent, {
      sleep: async (ms, signal) => {
        ran.push(await server.runJobs());
        await quickSleep(ms, signal);
      },
      // A proxy that does not pass event streams.
      fetch: async (request) =>
        /\/events\/stream/.test(request.url)
          ? new Response('{"detail":"no streams here","code":"unavailable"}', {
              status: 503,
              headers: { 'content-type': 'application/json' },
            })
          : fetch(request),
      pending: { deadlineMs: 30_000, initialDelayMs: 10, maxDelayMs: 50 },
    });
    const offer = await offerFrom(travel);
    const result = await travel.bookings.create({
      ...createBooking,
      offer_id: offer.offer_id,
      currency: offer.price.currency,
      passengers: [traveller('PENDING')],
    });
    expect(result.outcome).toBe('confirmed');
    expect(result.booking?.status).toBe('confirmed');
    expect(result.booking?.pnr).toMatch(/^[A-Z0-9]{6}$/);
    expect(ran.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);

    // Without time to wait it says so plainly, and the booking is still there to poll later.
    const quick = await loggedIn(server.agent, { pending: { deadlineMs: 0 } });
    const later = await quick.bookings.create({
      ...createBooking,
      offer_id: offer.offer_id,
      currency: offer.price.currency,
      passengers: [traveller('PENDING', 'Pat')],
    });
    expect(later.outcome).toBe('pending');
    expect((await quick.bookings.get(later.booking_id)).status).toBe('pending_pnr');
    await server.runJobs();
    expect((await quick.bookings.get(later.booking_id)).status).toBe('confirmed');
  }, 60_000);

  it('searches hotels and transfers to their done event', async () => {
    const travel = await loggedIn();
    const hotels = await travel.hotels.search({
      destination: 'DXB',
      check_in: inDays(30),
      check_out: inDays(33),
      rooms: [{ adults: 2 }],
      company_code: 'SANDBOX',
      user_code: 'AGENT1',
    });
    const hotelEvents = [];
    for await (const event of hotels.stream()) hotelEvents.push(event.event);
    expect(hotelEvents.at(-1)).toBe('done');
    expect(hotelEvents).toContain('hotel_offer');

    const transfers = await travel.transfers.search({
      pickup_location: 'DXB',
      dropoff_location: 'Dubai Marina',
      pickup_datetime: `${inDays(30)}T10:00:00`,
      passengers: 2,
    });
    const offers = await transfers.offers();
    expect(offers.length).toBeGreaterThan(0);
    expect(offers[0]).toMatchObject({ quote_id: expect.any(String), supplier: expect.any(String) });
  }, 60_000);

  it('maps a real 404 to NotFoundError and a real 422 to ValidationError with its issues', async () => {
    const travel = await loggedIn();
    const missing = await travel.bookings.get(999_999).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'booking_not_found' });
    expect((missing as NotFoundError).requestId).toMatch(/^req_/);

    const invalid = await travel.bookings
      .create({ ...createBooking, passengers: [] })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 422 });
    expect((invalid as ValidationError).issues.some((i) => i.loc.includes('passengers'))).toBe(true);

    const offer = await offerFrom(travel);
    const reject = travel.bookings.create({
      ...createBooking,
      offer_id: offer.offer_id,
      currency: offer.price.currency,
      passengers: [traveller('REJECT')],
    });
    await expect(reject).rejects.toBeInstanceOf(SupplierError);
  }, 60_000);

  it('walks admin bookings page by page', async () => {
    const travel = await loggedIn(server.admin);
    const ids: number[] = [];
    for await (const booking of travel.admin.bookings.list({ page_size: 2 })) ids.push(booking.booking_id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(new Set(ids).size).toBe(ids.length);
  }, 60_000);
});
