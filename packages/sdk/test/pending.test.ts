import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { SupplierError } from '../src/index.ts';
import { createBooking, hotelBook, transferBook } from './fixtures/bodies.ts';
import { apiError, BASE, frame, sseResponse, testClient, useMsw } from './helpers.ts';

const server = useMsw();
const STREAM = `${BASE}/api/v1/events/stream`;
const CREATE = `${BASE}/api/v1/bookings/createPnr`;
const body = createBooking;

function bookingSequence(statuses: string[]) {
  let reads = 0;
  return http.get(`${BASE}/api/v1/bookings/:id`, ({ params }) => {
    const status = statuses[Math.min(reads++, statuses.length - 1)];
    return HttpResponse.json({ booking_id: Number(params.id), pnr: 'PND001', status });
  });
}

describe('502 pending confirmation', () => {
  // A server without the event feed: the SDK polls (the stream path is below).
  beforeEach(() => server.use(http.get(STREAM, () => apiError(404, 'not_found'))));

  it('polls a 502 booking to confirmation, never re-sending the create', async () => {
    let creates = 0;
    server.use(
      http.post(CREATE, () => {
        creates++;
        return apiError(502, 'booking_pending', { booking_id: 42 });
      }),
      bookingSequence(['pending_pnr', 'pending_pnr', 'confirmed']),
    );
    const { client, sleeps } = testClient();
    const result = await client.bookings.create(body);
    expect(result.outcome).toBe('confirmed');
    expect(result.booking_id).toBe(42);
    expect(result.booking?.status).toBe('confirmed');
    expect(result.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.requestId).toBe('req-booking_pending');
    expect(creates).toBe(1);
    expect(sleeps).toEqual([1000, 2000, 4000]);
  });

  it('says failed when the supplier rejects during reconciliation', async () => {
    server.use(
      http.post(CREATE, () => apiError(502, 'booking_pending', { booking_id: 7 })),
      bookingSequence(['pnr_failed']),
    );
    const { client } = testClient();
    await expect(client.bookings.create(body)).resolves.toMatchObject({ outcome: 'failed', booking_id: 7 });
  });

  it('returns pending with the id to poll later when the deadline passes', async () => {
    let clock = 0;
    server.use(
      http.post(CREATE, () => apiError(502, 'booking_pending', { booking_id: 9 })),
      bookingSequence(['pending_pnr']),
    );
    const { client } = testClient({
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    const result = await client.bookings.create(body, { pending: { deadlineMs: 5000 } });
    expect(result).toMatchObject({ outcome: 'pending', booking_id: 9, booking: { status: 'pending_pnr' } });
    expect(clock).toBeLessThanOrEqual(5000);
  });

  it('returns confirmed straight away on 200 and sends the caller’s key', async () => {
    let key: string | null = null;
    server.use(
      http.post(CREATE, ({ request }) => {
        key = request.headers.get('idempotency-key');
        return HttpResponse.json({ booking_id: 1, pnr: 'ABC123', status: 'confirmed' });
      }),
    );
    const { client, sleeps } = testClient();
    const result = await client.bookings.create(body, { idempotencyKey: 'cart-1' });
    expect(result).toMatchObject({ outcome: 'confirmed', booking_id: 1, idempotencyKey: 'cart-1' });
    expect(key).toBe('cart-1');
    expect(sleeps).toEqual([]);
  });

  it('throws other errors (a supplier rejection is a 400, not pending)', async () => {
    server.use(http.post(CREATE, () => apiError(400, 'supplier_rejected', { supplier: 'amadeus' })));
    const { client } = testClient();
    const error = await client.bookings.create(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SupplierError);
    expect(error).toMatchObject({ supplier: 'amadeus', retryable: false });
  });

  it('does the same for hotel bookings', async () => {
    let reads = 0;
    server.use(
      http.post(`${BASE}/api/v1/hotel/book`, () => apiError(502, 'booking_pending', { booking_id: 5 })),
      http.get(`${BASE}/api/v1/hotel/bookings/:id`, () =>
        HttpResponse.json({ booking_id: 5, status: ++reads < 2 ? 'pending' : 'confirmed' }),
      ),
    );
    const { client } = testClient();
    const result = await client.hotels.book(hotelBook);
    expect(result).toMatchObject({ outcome: 'confirmed', booking_id: 5 });
  });

  it('does the same for transfer bookings', async () => {
    server.use(
      http.post(`${BASE}/api/v1/transport/book`, () => apiError(502, 'booking_pending', { booking_id: 6 })),
      http.get(`${BASE}/api/v1/transport/bookings/:id`, () =>
        HttpResponse.json({ booking_id: 6, status: 'failed' }),
      ),
    );
    const { client } = testClient();
    await expect(client.transfers.book(transferBook)).resolves.toMatchObject({
      outcome: 'failed',
      booking_id: 6,
    });
  });
});

/** A sleep that waits until its signal aborts, except the deadline's (`deadlineMs`), which passes at once. */
function waitingSleep(deadlineMs: number) {
  const asked: number[] = [];
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      asked.push(ms);
      if (ms === deadlineMs) return resolve();
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  return { asked, sleep };
}

const feedEvent = (id: string, type: string, status: string, bookingId = 42) =>
  frame(
    'event',
    {
      id,
      object: 'event',
      type,
      resource: { type: 'booking', id: String(bookingId), version: 1 },
      data: { booking_id: bookingId, status },
    },
    id,
  );

describe('502 pending confirmation over the event stream', () => {
  it('subscribes to the booking’s events, reads it once the stream is open and once when an event settles it: no polling', async () => {
    let streamQuery = '';
    server.use(
      http.post(CREATE, () => apiError(502, 'booking_pending', { booking_id: 42 })),
      http.get(STREAM, ({ request }) => {
        streamQuery = new URL(request.url).search;
        return sseResponse([
          feedEvent('evt_1', 'booking.created', 'pending_pnr'),
          feedEvent('evt_2', 'booking.pending_settled', 'confirmed'),
        ]);
      }),
      bookingSequence(['pending_pnr', 'confirmed']),
    );
    const { asked, sleep } = waitingSleep(-1);
    const { client } = testClient({ sleep, now: () => 0 });
    const result = await client.bookings.create(body, { pending: { deadlineMs: 5000 } });
    expect(result).toMatchObject({ outcome: 'confirmed', booking_id: 42, booking: { status: 'confirmed' } });
    expect(new URLSearchParams(streamQuery).get('resource_type')).toBe('booking');
    expect(new URLSearchParams(streamQuery).get('resource_id')).toBe('42');
    // The one wait asked for is the deadline; no polling delay.
    expect(asked).toEqual([5000]);
  });

  it('a booking already settled when the stream opens is answered by the first read', async () => {
    let reads = 0;
    let resourceType: string | null = null;
    server.use(
      http.post(`${BASE}/api/v1/hotel/book`, () => apiError(502, 'booking_pending', { booking_id: 5 })),
      http.get(STREAM, ({ request }) => {
        resourceType = new URL(request.url).searchParams.get('resource_type');
        return sseResponse([': open\n\n']);
      }),
      http.get(`${BASE}/api/v1/hotel/bookings/:id`, () => {
        reads++;
        return HttpResponse.json({ booking_id: 5, status: 'confirmed' });
      }),
    );
    const { sleep } = waitingSleep(-1);
    const { client } = testClient({ sleep, now: () => 0 });
    await expect(client.hotels.book(hotelBook)).resolves.toMatchObject({
      outcome: 'confirmed',
      booking_id: 5,
    });
    expect(resourceType).toBe('hotel_booking');
    expect(reads).toBe(1);
  });

  it('says pending at the deadline when no event settles it', async () => {
    server.use(
      http.post(CREATE, () => apiError(502, 'booking_pending', { booking_id: 42 })),
      http.get(STREAM, () => sseResponse([feedEvent('evt_1', 'booking.created', 'pending_pnr')])),
      bookingSequence(['pending_pnr']),
    );
    const { sleep } = waitingSleep(5000);
    const { client } = testClient({ sleep, now: () => 0 });
    const result = await client.bookings.create(body, { pending: { deadlineMs: 5000 } });
    expect(result).toMatchObject({ outcome: 'pending', booking_id: 42, booking: { status: 'pending_pnr' } });
  });

  it('polls when the feed refuses the caller (403), as before', async () => {
    server.use(
      http.post(CREATE, () => apiError(502, 'booking_pending', { booking_id: 42 })),
      http.get(STREAM, () => apiError(403, 'forbidden')),
      bookingSequence(['pending_pnr', 'confirmed']),
    );
    const { client, sleeps } = testClient();
    await expect(client.bookings.create(body)).resolves.toMatchObject({ outcome: 'confirmed' });
    expect(sleeps).toEqual([1000, 2000]);
  });
});
