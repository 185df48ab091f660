import { delay, HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConnectionError, NotFoundError } from '../src/index.ts';
import { flightSearch } from './fixtures/bodies.ts';
import { apiError, BASE, testClient, useMsw } from './helpers.ts';

const server = useMsw();
const BATCH = `${BASE}/api/v1/flight/getFare/batch/:id`;
const result = (timedOut: boolean) => ({
  search_id: 's1',
  results_by_gds: { amadeus: [{ offer_id: 'o1' }] },
  total_offers: 1,
  completed_gds_count: timedOut ? 1 : 3,
  total_gds_count: 3,
  timed_out: timedOut,
});

describe('flight batch', () => {
  it('lets the attempt last as long as the server may wait (query.timeout), not the client’s timeoutMs', async () => {
    // The server holds the batch longer than the client's per-attempt timeout (5 ms here).
    server.use(
      http.get(BATCH, async () => {
        await delay(50);
        return HttpResponse.json(result(false));
      }),
      http.get(`${BASE}/api/v1/bookings/:id`, async () => {
        await delay(50);
        return HttpResponse.json({});
      }),
    );
    const { client } = testClient({ timeoutMs: 5, maxRetries: 0 });
    // An ordinary call gives up after 5 ms…
    const error = await client.bookings.get(1).catch((e: unknown) => e);
    expect((error as ConnectionError).timedOut).toBe(true);
    // …the batch read, asked to wait up to 5 s server-side, gets its answer.
    await expect(client.flights.resume('s1').batch({ timeout: 5 })).resolves.toMatchObject({
      partial: false,
    });
    // Unless the caller's own per-request timeout says otherwise.
    const short = await client.flights
      .resume('s1')
      .batch({ timeout: 5 }, { timeout: 5 })
      .catch((e: unknown) => e);
    expect(short).toBeInstanceOf(ConnectionError);
  });

  it('returns a 408 as a partial result, not an exception, and does not retry it', async () => {
    let calls = 0;
    let timeout: string | null = null;
    server.use(
      http.get(BATCH, ({ request }) => {
        calls++;
        timeout = new URL(request.url).searchParams.get('timeout');
        return HttpResponse.json(result(true), { status: 408 });
      }),
    );
    const { client } = testClient();
    const batch = await client.flights.resume('s1').batch({ timeout: 5 });
    expect(batch).toMatchObject({ partial: true, timed_out: true, completed_gds_count: 1, total_offers: 1 });
    expect(calls).toBe(1);
    expect(timeout).toBe('5');
  });

  it('returns a complete result with partial false', async () => {
    server.use(http.get(BATCH, () => HttpResponse.json(result(false))));
    const { client } = testClient();
    await expect(client.flights.resume('s1').batch()).resolves.toMatchObject({
      partial: false,
      completed_gds_count: 3,
    });
  });

  it('still throws real errors', async () => {
    server.use(http.get(BATCH, () => apiError(404, 'search_not_found')));
    const { client } = testClient();
    await expect(client.flights.resume('s1').batch()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('search() starts the search and hands back a handle', async () => {
    let sent: unknown;
    server.use(
      http.post(`${BASE}/api/v1/flight/getFare`, async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          { searchId: 's9', status: 'initiated', streamUrl: '/api/v1/flight/getFare/stream/s9' },
          { status: 202 },
        );
      }),
    );
    const { client } = testClient();
    const search = await client.flights.search(flightSearch);
    expect(search.searchId).toBe('s9');
    expect(sent).toEqual(flightSearch);
  });
});
