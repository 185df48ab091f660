/**
 * Issue 13 part 1 (review 2026-11-24 H1): no reference a client hands back steers a supplier request.
 * Hotel rate keys and transfer quote ids are server-signed; flight offer ids are opaque ids of our own
 * tables; every hand-built supplier URL passes one origin/traversal guard; supplier error text is logged,
 * not answered. Each refusal is checked at the emulators' request counters (zero requests) and, in the
 * live-mode tests, at a canary listener on loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockServers } from '@travel/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDb } from '../../src/domains/reservation/tables.ts';
import {
  createRefSigner,
  deriveSandboxRefSecret,
  type RefSigner,
  refSecretFromEnv,
} from '../../src/internal/signed-ref.ts';
import { HotelbedsTransfersAdapter } from '../../src/suppliers/hotelbeds-transfers/adapter.ts';
import { supplierHttpError } from '../../src/suppliers/http-errors.ts';
import { SupplierError } from '../../src/suppliers/ports/errors.ts';
import { createSupplierRegistry } from '../../src/suppliers/registry.ts';
import { assertSupplierUrl, pathSegment, supplierUrl } from '../../src/suppliers/supplier-url.ts';
import {
  contact,
  createWorld,
  type World as FlightWorld,
  passenger,
  pickBookable,
  sandboxQuery,
  startMocks,
} from '../booking/harness.ts';
import { call, hotelBook, hotelRate, transferQuote, transportBook } from '../hotel-transport/flows.ts';
import { idem, type World, world } from '../hotel-transport/setup.ts';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const total = (m: MockServers) => Object.values(m.requests()).reduce((a, n) => a + (n ?? 0), 0);
/** The forged quote of the review's reproducer, with a chosen path. */
const h1 = (path: string) =>
  b64({
    path,
    pickup: 'DXB',
    dropoff: 'X',
    datetime: '2026-12-24T10:00',
    group: 'PRIVATE:CR:STND',
    rateKeys: ['x'],
    total: 1,
  });
const HOSTILE_PATHS = [
  '/transfer-api/1.0/bookings/en',
  '/transfer-api/1.0/../../admin',
  '.attacker.example/x',
  'host:18299/stolen',
  '//attacker.example/x',
];

/** A well-formed quote (base64 JSON) with its content changed: bare, and under the genuine signature. */
function tamperedJson(value: string, mac: string): [string, string][] {
  const parse = (v: string) => {
    try {
      return JSON.parse(Buffer.from(v, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  // (The whole token parses only if it carries no signature: then the tampering must still be refused.)
  const inner = parse(value) ?? parse(value + mac);
  if (!inner || typeof inner !== 'object') return [];
  const changed = b64({ ...inner, rateKeys: ['forged'], offerId: '1', total: 1, totalMinor: 1 });
  return [
    ['a tampered quote without a signature', changed],
    ['a tampered quote under the genuine signature', `${changed}${mac}`],
  ];
}

/** Every way a client can hand back a reference we did not issue for this provider and field. */
function forgeries(
  ours: RefSigner,
  provider: string,
  field: 'rate_key' | 'quote_id',
  genuine: string,
  other: string,
) {
  const value = genuine.slice(0, -44);
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  return [
    ['a flipped byte in the signature', flip(genuine, genuine.length - 5)],
    ['a flipped byte in the value', flip(genuine, 3)],
    ['re-signed with another key', createRefSigner('k'.repeat(40)).sign(`${provider}:${field}`, value)],
    ['signed for another provider', ours.sign(`${other}:${field}`, value)],
    [
      'signed for another field',
      ours.sign(`${provider}:${field === 'rate_key' ? 'quote_id' : 'rate_key'}`, value),
    ],
    ['the supplier value without our signature', value],
    ...tamperedJson(value, genuine.slice(-44)),
    ...HOSTILE_PATHS.map((p) => [`the H1 forged base64 JSON with path ${p}`, h1(p)]),
    ...HOSTILE_PATHS.map((p) => [`the raw string ${p}`, p]),
  ] as [string, string][];
}

describe('hotel rate keys and transfer quote ids are signed by the server', () => {
  let w: World;
  let token: string;
  beforeAll(async () => {
    w = await world();
    const company = await w.t.company();
    token = (await w.t.user({ role: 'customer', companyId: company })).token;
  });
  afterAll(() => w?.close());

  const bookings = async (table: 'hotel_bookings' | 'transport_bookings') =>
    Number(
      (
        await serviceDb(w.t.database.db)
          .selectFrom(table as 'hotel_bookings')
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** What differs between the two verticals: the reference, its code, the re-check and the booking. */
  const hotel = {
    noun: 'hotel',
    field: 'rate_key',
    code: 'invalid_rate_key',
    table: 'hotel_bookings',
    check: ['checkHotelRate', '/api/v1/hotel/check-rate'],
    book: ['bookHotel', '/api/v1/hotel/book'],
    genuine: async (provider: string) => (await hotelRate(w, provider)).rate_key,
    bookBody: hotelBook,
  } as const;
  const transfer = {
    noun: 'transfer',
    field: 'quote_id',
    code: 'invalid_quote',
    table: 'transport_bookings',
    check: ['quoteTransport', '/api/v1/transport/quote'],
    book: ['bookTransport', '/api/v1/transport/book'],
    genuine: async (provider: string) => (await transferQuote(w, provider)).quote_id,
    bookBody: transportBook,
  } as const;

  describe.each([
    { v: hotel, provider: 'hotelbeds', other: 'duffel_stays' },
    { v: hotel, provider: 'duffel_stays', other: 'hotelbeds' },
    { v: transfer, provider: 'hotelbeds_transfers', other: 'amadeus_transfers' },
    { v: transfer, provider: 'amadeus_transfers', other: 'hotelbeds_transfers' },
  ])('$v.noun provider $provider', ({ v, provider, other }) => {
    it(`a genuine ${v.field} reaches the supplier; every forged one answers 400 ${v.code} and reaches none`, async () => {
      const genuine = await v.genuine(provider);
      const before = total(w.mocks);
      const ok = await call(w, v.check[0], 'POST', v.check[1], {
        token,
        body: { [v.field]: genuine, provider },
      });
      expect(ok.status).toBe(200);
      // The counter sees real traffic, so the zero below means something.
      expect(total(w.mocks)).toBeGreaterThan(before);

      const rows = await bookings(v.table);
      for (const [what, ref] of forgeries(w.refSigner, provider, v.field, genuine, other)) {
        const seen = total(w.mocks);
        const check = await call(w, v.check[0], 'POST', v.check[1], {
          token,
          body: { [v.field]: ref, provider },
        });
        expect([what, check.status, check.body.code]).toEqual([what, 400, v.code]);
        expect(check.body.request_id).toBeTruthy();
        const book = await call(w, v.book[0], 'POST', v.book[1], {
          token,
          headers: idem(),
          body: v.bookBody(ref, provider),
        });
        expect([what, book.status, book.body.code]).toEqual([what, 400, v.code]);
        expect([what, total(w.mocks)]).toEqual([what, seen]);
      }
      expect(await bookings(v.table)).toBe(rows);
    });
  });

  it('the review reproducer: no supplier text in the answer, no request to the emulator', async () => {
    const seen = total(w.mocks);
    const res = await call(w, 'quoteTransport', 'POST', '/api/v1/transport/quote', {
      token,
      body: { quote_id: h1('/transfer-api/1.0/bookings/en'), provider: 'hotelbeds_transfers' },
    });
    expect(res.status).toBe(400);
    expect(res.text).not.toMatch(/supplier answered|clientReference|transfer-api/i);
    expect(total(w.mocks)).toBe(seen);
  });

  it('a supplier refusal is answered in our words: the supplier text stays out of the body', async () => {
    const offer = await transferQuote(w, 'hotelbeds_transfers');
    const res = await call(w, 'bookTransport', 'POST', '/api/v1/transport/book', {
      token,
      headers: idem(),
      body: transportBook(offer.quote_id, 'hotelbeds_transfers', 'REJECT'),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('supplier_rejected');
    // The emulator's own message for this refusal (mock-server hotelbeds-transfers routes).
    expect(res.text).not.toContain('Booking not confirmed by the transfer provider');
    expect(res.body.detail).toBe('The supplier rejected the request.');
  });
});

describe('flight offer ids are opaque ids of our own tables', () => {
  let mocks: MockServers;
  let w: FlightWorld;
  let token: string;
  let caller: { userId: string; companyId: number | null };
  beforeAll(async () => {
    mocks = await startMocks();
    w = await createWorld(mocks);
    const companyId = await w.company();
    const u = await w.user({ role: 'company_staff', companyId });
    token = u.token;
    caller = { userId: u.id, companyId };
  });
  afterAll(async () => {
    await w?.close();
    await mocks?.close();
  });

  it.each(['amadeus', 'duffel', 'mystifly'] as const)(
    '%s: a tampered or forged offer_id answers 400/404 and reaches no supplier',
    async (provider) => {
      const [genuine] = await w.seedOffers(provider, caller);
      if (!genuine) throw new Error(`no ${provider} offer`);
      const id = genuine.offer_id;
      const currency = sandboxQuery(provider).currency;
      const forged = [
        id.slice(0, -1) + (id.endsWith('A') ? 'B' : 'A'),
        `of_${'A'.repeat(16)}`,
        b64({ path: '/v1/booking/flight-orders', host: 'attacker.example' }).slice(0, 128),
        '../../admin',
        '..%2F..%2Fadmin',
        'host:18299/stolen',
      ];
      for (const offerId of forged) {
        const seen = total(mocks);
        for (const path of ['/api/v1/bookings/revalidation', '/api/v1/bookings/upsell']) {
          const res = await w.req('POST', path, { token, body: { offer_id: offerId, currency } });
          const refused =
            (res.status === 400 && res.body.code === 'invalid_offer_id') ||
            (res.status === 404 && res.body.code === 'offer_not_found');
          expect([offerId, path, res.status, res.body.code, refused]).toEqual([
            offerId,
            path,
            res.status,
            res.body.code,
            true,
          ]);
          expect(res.body.request_id).toBeTruthy();
        }
        expect([offerId, total(mocks)]).toEqual([offerId, seen]);
      }
    },
  );
});

describe('seat and ancillary references are resolved against the booking', () => {
  let mocks: MockServers;
  let w: FlightWorld;
  let token: string;
  let bookingId: number;
  beforeAll(async () => {
    mocks = await startMocks();
    w = await createWorld(mocks);
    const companyId = await w.company();
    const u = await w.user({ role: 'company_staff', companyId });
    token = u.token;
    const offers = await w.seedOffers('amadeus', { userId: u.id, companyId });
    const offer = pickBookable('amadeus', offers);
    if (!offer) throw new Error('no bookable amadeus offer');
    const r = await w.req('POST', '/api/v1/bookings/createPnr', {
      token,
      key: 'sec-ref-1',
      body: {
        offer_id: offer.offer_id,
        currency: sandboxQuery('amadeus').currency,
        passengers: [passenger()],
        contact,
        payment_mode: 'PNR_FIRST',
      },
    });
    expect(r.status).toBe(200);
    bookingId = r.body.booking_id;
  });
  afterAll(async () => {
    await w?.close();
    await mocks?.close();
  });

  it('forged segment, passenger, TSM and ancillary ids answer 400/404 and reach no supplier', async () => {
    const B = `/api/v1/bookings/${bookingId}`;
    const seen = total(mocks);
    const cases: [string, string, unknown, number, string][] = [
      [
        'a forged segment id',
        `${B}/seats/batch`,
        { seats: [{ segment_id: '../../x', seat_number: '12A', passenger_id: '1' }] },
        404,
        'segment_not_found',
      ],
      [
        'a forged passenger id',
        `${B}/seats/batch`,
        { seats: [{ segment_id: 's1', seat_number: '12A', passenger_id: '../../x' }] },
        400,
        'invalid_passenger',
      ],
      [
        'a forged TSM reference',
        `${B}/ancillaries/emd`,
        { tsm_references: ['../../x'] },
        404,
        'ancillary_not_found',
      ],
      [
        'a forged ancillary id',
        `${B}/ancillaries/cancel`,
        { ancillary_ids: [987654] },
        404,
        'ancillary_not_found',
      ],
    ];
    for (const [what, path, body, status, code] of cases) {
      const res = await w.req('POST', path, { token, body });
      expect([what, res.status, res.body.code]).toEqual([what, status, code]);
    }
    expect(total(mocks)).toBe(seen);
  });
});

describe('live mode: a canary on loopback receives nothing from a forged reference', () => {
  let canary: Server;
  let hits: string[];
  let canaryUrl: string;
  beforeAll(async () => {
    hits = [];
    canary = createServer((req, res) => {
      hits.push(`${req.method} ${req.url} api-key=${String(req.headers['api-key'])}`);
      res.setHeader('content-type', 'application/json');
      res.end('{"services":[]}');
    });
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
    canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => canary.close(() => r())));

  const live = (baseUrl: string) =>
    createSupplierRegistry({
      config: { sandbox: false, suppliers: 'hotelbeds_transfers' },
      db: undefined as never,
      env: {
        HOTELBEDS_TRANSFERS_BASE_URL: baseUrl,
        HOTELBEDS_TRANSFERS_API_KEY: 'HB-LIVE-KEY-123',
        HOTELBEDS_TRANSFERS_SECRET: 'hb-live-secret',
        SUPPLIER_REF_SECRET: 'live-supplier-ref-secret-of-forty-chars!!',
      },
    });

  it('outside sandbox mode the registry refuses to start without SUPPLIER_REF_SECRET', async () => {
    await expect(
      createSupplierRegistry({
        config: { sandbox: false, suppliers: 'hotelbeds_transfers' },
        db: undefined as never,
        env: { HOTELBEDS_TRANSFERS_API_KEY: 'k', HOTELBEDS_TRANSFERS_SECRET: 's' },
      }),
    ).rejects.toThrow(/SUPPLIER_REF_SECRET is required/);
    expect(() => refSecretFromEnv({ SUPPLIER_REF_SECRET: 'short' }, false)).toThrow(/at least 32/);
  });

  it.each([
    ['the canary as the configured supplier', () => canaryUrl],
    // The review's variant: `http://local` + `host:PORT/stolen` concatenated to `http://localhost:PORT/stolen`.
    ['http://local as the configured supplier', () => 'http://local'],
  ])('%s: forged quote ids are refused before any request', async (_what, base) => {
    const registry = await live(base());
    const adapter = registry.transfer('hotelbeds_transfers');
    if (!adapter) throw new Error('hotelbeds_transfers not built');
    const port = (canary.address() as AddressInfo).port;
    const paths = [...HOSTILE_PATHS, `host:${port}/stolen`, `.attacker.example/x`];
    hits.length = 0;
    for (const path of paths) {
      for (const quoteId of [h1(path), path]) {
        const err = await adapter.quote(quoteId).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(SupplierError);
        expect((err as SupplierError).kind).toBe('invalid_request');
      }
    }
    expect(hits).toEqual([]);
  });

  it('the canary does answer a genuine search (the zero above is not a dead listener)', async () => {
    const registry = await live(canaryUrl);
    hits.length = 0;
    await registry.transfer('hotelbeds_transfers')?.search({
      pickup_location: 'DXB',
      dropoff_location: 'Atlantis The Palm, Dubai',
      pickup_datetime: '2026-12-24T10:00',
      passengers: 2,
      luggage: 0,
      currency: 'EUR',
    });
    expect(hits).toEqual([
      expect.stringMatching(
        /^GET \/transfer-api\/1\.0\/availability\/en\/from\/IATA\/DXB\/to\/ATLAS\/Atlantis%20The%20Palm%2C%20Dubai\/2026-12-24T10:00:00\/2\/0\/0 api-key=HB-LIVE-KEY-123$/,
      ),
    ]);
  });

  it('even a quote the adapter accepts cannot choose the path: it is rebuilt from validated fields', async () => {
    // The adapter itself (below the signature check): hostile fields are refused, an injected path ignored.
    const adapter = new HotelbedsTransfersAdapter({
      baseUrl: canaryUrl,
      apiKey: 'HB-LIVE-KEY-123',
      secret: 's',
    });
    const good = {
      from: ['IATA', 'DXB'],
      to: ['IATA', 'DWC'],
      out: '2026-12-24T10:00:00',
      pax: 2,
      group: 'PRIVATE:CR:STND',
      rateKeys: ['rk'],
      total: 100,
      pickup: 'DXB',
      dropoff: 'DWC',
      datetime: '2026-12-24T10:00',
    };
    const hostile = [
      { ...good, from: ['IATA', '../x'] },
      { ...good, from: ['ATLAS', '..'] },
      { ...good, to: ['ATLAS', 'a/../../admin'] },
      { ...good, to: ['HOST', 'attacker.example'] },
      { ...good, out: '2026-12-24T10:00:00/../../../admin' },
      { ...good, pax: '2/../../x' },
    ];
    hits.length = 0;
    for (const q of hostile) {
      const err = await adapter.quote(b64(q)).catch((e: unknown) => e);
      expect([JSON.stringify(q), (err as SupplierError).kind]).toEqual([
        JSON.stringify(q),
        'invalid_request',
      ]);
    }
    expect(hits).toEqual([]);
    // A well-formed quote carrying an attacker's path: the request goes to the availability path only.
    await adapter.quote(b64({ ...good, path: '/transfer-api/1.0/bookings/en' })).catch(() => undefined);
    expect(hits).toEqual([
      'GET /transfer-api/1.0/availability/en/from/IATA/DXB/to/IATA/DWC/2026-12-24T10:00:00/2/0/0 api-key=HB-LIVE-KEY-123',
    ]);
  });
});

describe('the supplier origin guard', () => {
  it.each([
    [
      'https://api.test.hotelbeds.com',
      '/hotel-api/1.0/hotels',
      'https://api.test.hotelbeds.com/hotel-api/1.0/hotels',
    ],
    ['http://127.0.0.1:9/prefix', '/a/b?x=1&y=%2F', 'http://127.0.0.1:9/prefix/a/b?x=1&y=%2F'],
    ['http://127.0.0.1:9/duffel/', 'air/orders/ord_1', 'http://127.0.0.1:9/duffel/air/orders/ord_1'],
    // An encoded slash inside an id (Amadeus order ids are URL-encoded base64) is not traversal.
    [
      'https://test.api.amadeus.com',
      '/v1/booking/flight-orders/eJzTd9f3NjIJdgIAC%2B0CRg%3D%3D',
      'https://test.api.amadeus.com/v1/booking/flight-orders/eJzTd9f3NjIJdgIAC%2B0CRg%3D%3D',
    ],
  ])('%s + %s -> %s', (base, path, href) => {
    expect(supplierUrl('hotelbeds', base, path).href).toBe(href);
  });

  it.each([
    '.attacker.example/x',
    'host:18299/stolen',
    'https://attacker.example/x',
    '//attacker.example/x',
    '/transfer-api/1.0/../../admin',
    '/a/./b',
    '/a/%2e%2e/admin',
    '/a/%2E%2E/admin',
    '/a/%252e%252e/admin',
    '/a/..%2Fadmin',
    '/a/%2e%2e%2fadmin',
    '/a\\..\\admin',
    '/a/%zz',
    '/a b',
    '/a\u0000b',
    '/a#fragment',
  ])('refuses %j with a SupplierError, before any request', (path) => {
    const err = (() => {
      try {
        supplierUrl('hotelbeds_transfers', 'https://api.test.hotelbeds.com', path);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SupplierError);
    expect((err as SupplierError).supplierCode).toBe('unsafe_supplier_url');
  });

  it('checks whole URLs built by a client library (Stripe): origin and raw dot segments', () => {
    const base = 'http://127.0.0.1:12111';
    expect(assertSupplierUrl('stripe', base, 'http://127.0.0.1:12111/v1/payment_intents/pi_1').pathname).toBe(
      '/v1/payment_intents/pi_1',
    );
    expect(() => assertSupplierUrl('stripe', base, 'http://127.0.0.1:12112/v1/x')).toThrow(SupplierError);
    expect(() => assertSupplierUrl('stripe', base, 'http://127.0.0.1:12111/v1/../admin')).toThrow(
      SupplierError,
    );
    expect(() => assertSupplierUrl('stripe', base, 'http://user:pw@127.0.0.1:12111/v1')).toThrow(
      SupplierError,
    );
  });

  it('a value bound for one path segment is encoded, or refused when it is not one segment', () => {
    expect(pathSegment('hotelbeds_transfers', 'Atlantis The Palm, Dubai')).toBe(
      'Atlantis%20The%20Palm%2C%20Dubai',
    );
    for (const bad of ['', '.', '..', 'a/b', 'a\\b', 'a\nb'])
      expect(() => pathSegment('hotelbeds_transfers', bad)).toThrow(SupplierError);
  });
});

describe('signed references', () => {
  it('the sandbox secret is in no source: derived from the JWT key, or random per process', () => {
    const jwt = 'j'.repeat(48);
    expect(deriveSandboxRefSecret(jwt)).toBe(deriveSandboxRefSecret(jwt));
    expect(deriveSandboxRefSecret(jwt)).not.toBe(deriveSandboxRefSecret('k'.repeat(48)));
    expect(deriveSandboxRefSecret(jwt)).not.toContain(jwt);
    expect(refSecretFromEnv({}, true, 'derived-secret')).toBe('derived-secret');
    expect(refSecretFromEnv({}, true)).not.toBe(refSecretFromEnv({}, true));
    const set = 'e'.repeat(40);
    expect(refSecretFromEnv({ SUPPLIER_REF_SECRET: set }, true, 'derived-secret')).toBe(set);
    expect(refSecretFromEnv({ SUPPLIER_REF_SECRET: set }, false)).toBe(set);
  });

  const s = createRefSigner('s'.repeat(40));
  it('verifies only what it signed, for the scope it was signed for', () => {
    const t = s.sign('hotelbeds:rate_key', '20261224|20261227|W|1|2|DBL.ST');
    expect(s.verify('hotelbeds:rate_key', t)).toBe('20261224|20261227|W|1|2|DBL.ST');
    expect(s.verify('duffel_stays:rate_key', t)).toBeUndefined();
    expect(s.verify('hotelbeds:rate_key', `${t}A`)).toBeUndefined();
    expect(s.verify('hotelbeds:rate_key', t.slice(1))).toBeUndefined();
    expect(s.verify('hotelbeds:rate_key', '')).toBeUndefined();
    // The last base64url character carries two spare bits: a variant decoding to the same MAC is refused.
    const last = t.at(-1) as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const twin = alphabet[alphabet.indexOf(last) ^ 1] as string;
    expect(s.verify('hotelbeds:rate_key', t.slice(0, -1) + twin)).toBeUndefined();
  });
});

describe('supplier error text is logged, not answered', () => {
  it('maps a SupplierError to our code and sentence; the supplier text goes to the log', () => {
    const logged: object[] = [];
    const log = { info() {}, debug() {}, error() {}, warn: (o: object) => void logged.push(o) };
    const text = '/transfer-api/1.0/bookings/en: HTTP 400 clientReference is required.';
    const err = supplierHttpError(
      new SupplierError('hotelbeds_transfers', 'invalid_request', text, { supplierCode: '400' }),
      { invalid_request: [400, 'invalid_quote'] },
      log,
    );
    expect(err.message).not.toContain('clientReference');
    expect(err).toMatchObject({ status: 400, code: 'invalid_quote' });
    expect(logged).toEqual([expect.objectContaining({ supplier_message: text, code: 'invalid_quote' })]);
    const unmapped = supplierHttpError(
      new SupplierError('hotelbeds', 'unsupported', 'internal detail 42'),
      {},
      log,
    );
    expect(unmapped.message).not.toContain('internal detail 42');
  });
});
