/**
 * Against the REAL server (sandbox suppliers). Skipped unless TRAVEL_SDK_SERVER_URL is set, e.g.
 *   pnpm start   # in another shell; prints the URL and the sandbox admin login
 *   TRAVEL_SDK_SERVER_URL=http://localhost:8080 TRAVEL_EMAIL=… TRAVEL_PASSWORD=… npx vitest run --project sdk server.integration
 * TODO(server): once @travel/server's createApp() is stable, start it in process here (listen(0)) instead.
 */
import { describe, expect, it } from 'vitest';
import {
  createTravelClient,
  PaymentDeclinedError,
  SupplierError,
  type TravelClient,
  ValidationError,
} from '../src/index.ts';
import { createBooking, flightSearch } from './fixtures/bodies.ts';

const url = process.env.TRAVEL_SDK_SERVER_URL;

async function loggedIn(): Promise<TravelClient> {
  const travel = createTravelClient({ baseUrl: url ?? '', pending: { deadlineMs: 30_000 } });
  await travel.auth.login({
    email: process.env.TRAVEL_EMAIL ?? '',
    password: process.env.TRAVEL_PASSWORD ?? '',
  });
  return travel;
}

async function firstOffer(travel: TravelClient) {
  const me = await travel.auth.me();
  const search = await travel.flights.search({
    ...flightSearch,
    companyCode: me.company_code ?? '',
    userCode: me.user_code ?? '',
  });
  const ids = new Set<string>();
  const offers = [];
  for await (const event of search.stream()) {
    if (event.id !== undefined) {
      expect(ids.has(event.id), `duplicate event ${event.id}`).toBe(false);
      ids.add(event.id);
    }
    if (event.event === 'offer') offers.push(event.data.offer);
  }
  expect(offers.length).toBeGreaterThan(0);
  return offers[0] as (typeof offers)[number];
}

describe.skipIf(!url)('real server (sandbox)', () => {
  it('streams a flight search to its done event without duplicates', async () => {
    await firstOffer(await loggedIn());
  }, 60_000);

  it('books, replays the same Idempotency-Key to the same booking, and pays', async () => {
    const travel = await loggedIn();
    const offer = await firstOffer(travel);
    const body = {
      ...createBooking,
      offer_id: offer.offer_id,
      passengers: [{ ...createBooking.passengers[0], last_name: 'Lovelace' }],
    };
    const first = await travel.bookings.create(body as typeof createBooking, {
      idempotencyKey: `sdk-it-${offer.offer_id}`,
    });
    const replay = await travel.bookings.create(body as typeof createBooking, {
      idempotencyKey: first.idempotencyKey,
    });
    expect(first.outcome).toBe('confirmed');
    expect(replay.booking_id).toBe(first.booking_id);
    const auth = await travel.payments.authorize(first.booking_id, {
      token: 'tok_sandbox_ok',
      currency: 'GBP',
      amount_minor: first.booking?.pricing.total_minor ?? 0,
    });
    expect(auth.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    await expect(
      travel.payments.authorize(first.booking_id, {
        token: 'tok_sandbox_decline',
        currency: 'GBP',
        amount_minor: 1,
      }),
    ).rejects.toBeInstanceOf(PaymentDeclinedError);
  }, 120_000);

  it('polls a PENDING booking (502) instead of retrying it', async () => {
    const travel = await loggedIn();
    const offer = await firstOffer(travel);
    const result = await travel.bookings.create({ ...createBooking, offer_id: offer.offer_id });
    expect(['confirmed', 'failed', 'pending']).toContain(result.outcome);
    expect(result.booking_id).toBeGreaterThan(0);
  }, 120_000);

  it('maps REJECT to SupplierError and a bad body to ValidationError', async () => {
    const travel = await loggedIn();
    const offer = await firstOffer(travel);
    const reject = {
      ...createBooking,
      offer_id: offer.offer_id,
      passengers: [{ ...createBooking.passengers[0], last_name: 'REJECT' }],
    };
    await expect(travel.bookings.create(reject as typeof createBooking)).rejects.toBeInstanceOf(
      SupplierError,
    );
    await expect(travel.bookings.create({ ...createBooking, passengers: [] })).rejects.toBeInstanceOf(
      ValidationError,
    );
  }, 120_000);

  it('walks admin bookings page by page', async () => {
    const travel = await loggedIn();
    let count = 0;
    for await (const booking of travel.admin.bookings.list({ page_size: 2 })) {
      expect(booking.booking_id).toBeGreaterThan(0);
      if (++count >= 5) break;
    }
  }, 60_000);
});
