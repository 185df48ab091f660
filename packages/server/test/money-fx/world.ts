/**
 * The whole server (createRuntime) on a test database with the sandbox emulators on loopback, dispatch
 * without a socket, every response checked against openapi.json (strict). For the money/FX suites:
 * searches read to their end, offers, bookings and the Stripe emulator's own view of a payment.
 */
import { type MockServers, startMockServers } from '@travel/mock-server';
import pino from 'pino';
import { ManualClock } from '../../src/internal/clock.ts';
import { loadConfig } from '../../src/internal/config.ts';
import { MemoryMailer } from '../../src/mail/mailer.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import type { Database } from '../../src/storage/database.ts';
import { dispatch } from '../harness/dispatch.ts';
import { seedCompany, seedUser } from '../harness/seed.ts';
import { TEST_CONTACT, TEST_PASSENGER } from '../harness/traveller.ts';
import { realContract } from '../helpers/contract.ts';
import { testDatabase } from '../helpers/db.ts';

process.env.PASSWORD_SCRYPT_N ??= '1024';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
export type Json = any;

export interface Res {
  status: number;
  body: Json;
  text: string;
}

export interface FxWorld {
  runtime: Runtime;
  database: Database;
  mocks: MockServers;
  req(method: string, path: string, o?: { body?: unknown; key?: string }): Promise<Res>;
  company: { id: number; code: string };
  user: { id: string; email: string; token: string };
  /** Starts a search and reads its stream to the end; the offers in arrival order, and the search id. */
  search(
    kind: 'flight' | 'hotel' | 'transport',
    body: Record<string, unknown>,
  ): Promise<{ id: string; offers: Json[] }>;
  /** createPnr of `offerId` in `currency` for the suites' passenger and contact, pay later (PNR_FIRST). */
  book(offerId: string, currency: string, key: string): Promise<Res>;
  /** The Stripe emulator's PaymentIntent behind a booking's payment (what the provider was asked for). */
  stripeIntent(bookingId: number): Json;
  close(): Promise<void>;
}

export { futureDate } from '../harness/flight-search.ts';

/** A fresh copy of the suites' passenger for each booking body. */
export const passenger = () => ({ ...TEST_PASSENGER });
export const contact = TEST_CONTACT;

export async function fxWorld(): Promise<FxWorld> {
  const mocks = await startMockServers({
    options: { latencyMs: 0, seed: 7 },
    suppliers: ['amadeus', 'duffel', 'mystifly', 'hotelbeds', 'hotelbeds-transfers', 'stripe'],
  });
  const database = await testDatabase();
  const runtime = await createRuntime({
    config: loadConfig({
      SUPPLIERS: 'sandbox',
      PUBLIC_BASE_URL: 'http://travel.test',
      AUTH_STATUS_CACHE_MS: '0',
      RESPONSE_VALIDATION: 'strict',
      RATE_LIMIT_SEARCH: '10000/60',
      RATE_LIMIT_USER: '100000/60',
    }),
    database,
    mailer: new MemoryMailer(),
    logger: pino({ level: process.env.TEST_LOG_LEVEL || 'silent' }),
    clock: new ManualClock(new Date()),
    contract: realContract(),
    sandboxUrls: mocks.urls as never,
    startJobs: false,
  });
  const app = runtime.app;
  const company = await seedCompany(database.db, 'FX');
  const user = await seedUser(database.db, app.services.tokens, {
    role: 'company_admin',
    companyId: company.id,
    tag: 'fx',
    fullName: 'FX Tester',
    userCode: (_id, email) => email,
  });
  const { token, email } = user;

  const req: FxWorld['req'] = async (method, path, o = {}) => {
    const r = await dispatch(app, method, path, { token, ...o });
    return { status: r.status, body: r.body as Json, text: r.text };
  };

  const START = {
    flight: '/api/v1/flight/getFare',
    hotel: '/api/v1/hotel/search',
    transport: '/api/v1/transport/search',
  };
  const OFFER_EVENT = { flight: 'offer', hotel: 'hotel_offer', transport: 'transport_offer' };

  return {
    runtime,
    database,
    mocks,
    req,
    company,
    user,
    book: (offerId, currency, key) =>
      req('POST', '/api/v1/bookings/createPnr', {
        key,
        body: { offer_id: offerId, currency, passengers: [passenger()], contact, payment_mode: 'PNR_FIRST' },
      }),
    async search(kind, body) {
      const codes =
        kind === 'flight'
          ? { companyCode: company.code, userCode: email }
          : kind === 'hotel'
            ? { company_code: company.code, user_code: email }
            : {};
      const started = await req('POST', START[kind], { body: { ...codes, ...body } });
      if (started.status !== 202 && started.status !== 200)
        throw new Error(`${kind} search: ${started.status} ${started.text}`);
      // Flights answer in the spec's camelCase (searchId, streamUrl), hotels and transfers in snake_case.
      const sid = (started.body.search_id ?? started.body.searchId) as string;
      // The stream ends after its `done` event: reading it whole waits for every supplier.
      const stream = await req('GET', (started.body.stream_url ?? started.body.streamUrl) as string);
      const offers: Json[] = [];
      let event = '';
      for (const line of stream.text.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:') && event === OFFER_EVENT[kind]) {
          const data = JSON.parse(line.slice(5));
          offers.push(data.offer ?? data);
        }
      }
      return { id: sid, offers };
    },
    stripeIntent(bookingId) {
      const state = mocks.states.stripe as unknown as {
        paymentIntents: Map<string, Json>;
        refunds: Map<string, Json>;
      };
      return [...state.paymentIntents.values()].find((pi) => pi.metadata?.booking_id === String(bookingId));
    },
    async close() {
      await runtime.close();
      await database.close();
      await mocks.close();
    },
  };
}
