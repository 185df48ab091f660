import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amadeusHandlers } from '../src/suppliers/amadeus/handlers.ts';

/**
 * Fidelity: every request the emulator accepts and every response it gives for the published operations is
 * validated against Amadeus' own descriptions (Swagger 2.0 converted with swagger2openapi, then Ajv).
 */

const require = createRequire(import.meta.url);
const swagger2openapi = require('swagger2openapi') as {
  convertObj: (spec: unknown, opts: Record<string, unknown>) => Promise<{ openapi: Record<string, unknown> }>;
};
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;

// Amadeus' published descriptions, kept in the repository with their licence (fixtures/amadeus/README.md).
const DIR = new URL('./fixtures/amadeus/', import.meta.url);
const FILES = [
  'Authorizaton_v1.json',
  'FlightOffersSearch_v2.json',
  'FlightOffersPrice_v1.json',
  'BrandedFaresUpsell_v1.json',
  'SeatMapDisplay_v1.json',
  'FlightCreateOrders_v1.json',
  'FlightOrderManagement_v1.json',
  'TransferSearch_v1.json',
  'TransferBook_v1.json',
  'TransferManagement_v1.json',
];
const BASE = 'https://test.api.amadeus.com';

type Json = Record<string, unknown>;
interface Op {
  file: string;
  operationId: string;
  method: string;
  regex: RegExp;
  pointer: string;
  doc: Json;
}

// unicodeRegExp off: TransferBook_v1 publishes the pattern `[a-zA-Z0-9]{1-2}`, invalid under the u flag.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, unicodeRegExp: false });
addFormats(ajv);
// Amadeus declares `format: date-time` on segment times yet its own examples (and live payloads) carry
// local airport times without an offset ("2023-11-01T21:50:00"); accept an optional offset, nothing looser.
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/);
const ops: Op[] = [];
const docs = new Map<string, Json>();
const validated = new Map<string, { requests: number; responses: number }>();
const esc = (s: string): string => s.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Known defects of the published files, patched before compiling (each is contradicted by the file's own
 * examples): TransferSearch/TransferBook `serviceProvider.name` pattern `[a-zA-Z]{30}` means "at most 30".
 */
function patchDefects(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.pattern === '[a-zA-Z]{30}') {
    delete o.pattern;
    o.maxLength = 30;
  }
  for (const v of Object.values(o)) patchDefects(v);
}

async function load(): Promise<void> {
  for (const file of FILES) {
    const raw = JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as Json;
    const doc = raw.swagger
      ? (await swagger2openapi.convertObj(raw, { patch: true, warnOnly: true })).openapi
      : raw;
    const basePath = typeof raw.basePath === 'string' ? raw.basePath : '/v1';
    patchDefects(doc);
    ajv.addSchema(doc, file);
    docs.set(file, doc);
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item)) {
        if (!['get', 'post', 'delete', 'patch', 'put'].includes(method)) continue;
        const full = `${basePath}${path}`;
        const regex = new RegExp(`^${full.replace(/\{[^}]+\}/g, '[^/]+')}$`);
        ops.push({
          file,
          operationId: String((op as Json).operationId),
          method: method.toUpperCase(),
          regex,
          pointer: `#/paths/${esc(path)}/${method}`,
          doc: op as Json,
        });
      }
    }
  }
}

const cache = new Map<string, ValidateFunction>();
function validator(file: string, pointer: string): ValidateFunction {
  const key = `${file}${pointer}`;
  let v = cache.get(key);
  if (!v) {
    v = ajv.compile({ $ref: key });
    cache.set(key, v);
  }
  return v;
}

function firstContent(content: Json | undefined): string | undefined {
  return content ? Object.keys(content)[0] : undefined;
}

function check(op: Op, what: string, pointer: string, value: unknown): void {
  const v = validator(op.file, pointer);
  const ok = v(value);
  expect(ok, `${op.operationId} ${what}: ${JSON.stringify(v.errors?.slice(0, 5), null, 1)}`).toBe(true);
}

/** Sends one request through the emulator and validates both sides against the published operation. */
async function exchange(
  method: string,
  path: string,
  opts: {
    token?: string;
    body?: unknown;
    form?: Record<string, string>;
    expect?: number;
    invalid?: boolean;
  } = {},
): Promise<{ status: number; body: Json }> {
  const url = new URL(path, BASE);
  const op = ops.find((o) => o.method === method && o.regex.test(url.pathname));
  if (!op) throw new Error(`no published operation for ${method} ${url.pathname}`);
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/vnd.amadeus+json';
    body = JSON.stringify(opts.body);
  }
  if (
    method === 'POST' &&
    op.doc.parameters &&
    JSON.stringify(op.doc.parameters).includes('X-HTTP-Method-Override')
  )
    headers['x-http-method-override'] = 'GET';
  const stat = validated.get(op.operationId) ?? { requests: 0, responses: 0 };
  const rb = op.doc.requestBody as Json | undefined;
  // A deliberately invalid request (to draw a 400) is not checked; its error response still is.
  if (rb && !opts.invalid && (opts.body !== undefined || opts.form)) {
    const ct = firstContent(rb.content as Json) as string;
    check(op, 'request', `${op.pointer}/requestBody/content/${esc(ct)}/schema`, opts.form ?? opts.body);
    stat.requests += 1;
  }
  const res = await getResponse(handlers, new Request(url, { method, headers, body }));
  if (!res) throw new Error(`emulator did not answer ${method} ${path}`);
  const text = await res.text();
  const json = (text ? JSON.parse(text) : {}) as Json;
  if (opts.expect) expect(res.status, text).toBe(opts.expect);
  const responses = op.doc.responses as Json;
  const key = String(res.status) in responses ? String(res.status) : 'default';
  let spec = responses[key] as Json | undefined;
  let base = `${op.pointer}/responses/${key}`;
  // Shared responses are `$ref`s into components/responses: validate against the referenced one.
  if (typeof spec?.$ref === 'string') {
    base = spec.$ref;
    spec = base
      .slice(2)
      .split('/')
      .reduce<Json | undefined>(
        (n, k) => n?.[k.replaceAll('~1', '/').replaceAll('~0', '~')] as Json | undefined,
        docs.get(op.file),
      );
  }
  const ct = firstContent(spec?.content as Json | undefined);
  if (spec && ct) {
    check(op, `response ${res.status}`, `${base}/content/${esc(ct)}/schema`, json);
    stat.responses += 1;
  } else if (res.status !== 204) throw new Error(`${op.operationId}: status ${res.status} is not published`);
  else stat.responses += 1;
  validated.set(op.operationId, stat);
  return { status: res.status, body: json };
}

const { handlers, state } = amadeusHandlers({ baseUrl: BASE, seed: 7, latencyMs: 0 });

describe('Amadeus emulator fidelity against the published descriptions', () => {
  let token = '';
  const traveler = (id: string, lastName: string) => ({
    id,
    dateOfBirth: '1985-04-12',
    gender: 'MALE',
    name: { firstName: 'ADAM', lastName },
    contact: {
      emailAddress: 'adam@example.com',
      phones: [{ deviceType: 'MOBILE', countryCallingCode: '44', number: '7700900123' }],
    },
    documents: [
      {
        documentType: 'PASSPORT',
        number: 'X1234567',
        expiryDate: '2031-01-01',
        issuanceCountry: 'GB',
        nationality: 'GB',
        holder: true,
      },
    ],
  });

  beforeAll(load);
  afterAll(() => {
    const count = validated.size;
    const lines = [...validated.entries()].map(
      ([id, s]) => `  ${id}: ${s.requests} requests, ${s.responses} responses`,
    );
    console.log(`Amadeus fidelity: ${count} published operations validated\n${lines.join('\n')}`);
  });

  it('validates every published operation', async () => {
    const bad = await exchange('POST', '/v1/security/oauth2/token', {
      form: { grant_type: 'client_credentials', client_id: 'id', client_secret: '' },
      expect: 401,
    });
    expect(bad.body.error).toBe('invalid_client');
    const tok = await exchange('POST', '/v1/security/oauth2/token', {
      form: { grant_type: 'client_credentials', client_id: 'sandbox', client_secret: 'secret' },
      expect: 200,
    });
    token = String(tok.body.access_token);
    await exchange('GET', `/v1/security/oauth2/token/${token}`, { expect: 200 });
    await exchange('GET', '/v1/security/oauth2/token/nope', { expect: 404 });

    const get = await exchange(
      'GET',
      '/v2/shopping/flight-offers?originLocationCode=LHR&destinationLocationCode=DXB&departureDate=2026-12-20&returnDate=2026-12-27&adults=2&children=1&infants=1&currencyCode=GBP&max=5',
      { token, expect: 200 },
    );
    expect((get.body.data as unknown[]).length).toBeGreaterThan(0);
    await exchange('GET', '/v2/shopping/flight-offers?originLocationCode=LHR', { token, expect: 400 });
    await exchange(
      'GET',
      '/v2/shopping/flight-offers?originLocationCode=LHR&destinationLocationCode=DXB&departureDate=2026-12-20&adults=1',
      { expect: 401 },
    );
    const search = await exchange('POST', '/v2/shopping/flight-offers', {
      token,
      expect: 200,
      body: {
        currencyCode: 'EUR',
        originDestinations: [
          {
            id: '1',
            originLocationCode: 'CDG',
            destinationLocationCode: 'DOH',
            departureDateTimeRange: { date: '2026-11-02' },
          },
        ],
        travelers: [{ id: '1', travelerType: 'ADULT' }],
        sources: ['GDS'],
        searchCriteria: {
          maxFlightOffers: 5,
          flightFilters: {
            cabinRestrictions: [{ cabin: 'ECONOMY', coverage: 'MOST_SEGMENTS', originDestinationIds: ['1'] }],
          },
        },
      },
    });
    const offer = (search.body.data as Json[])[0] as Json;
    const priced = await exchange(
      'POST',
      '/v1/shopping/flight-offers/pricing?include=bags,detailed-fare-rules',
      {
        token,
        expect: 200,
        body: { data: { type: 'flight-offers-pricing', flightOffers: [offer] } },
      },
    );
    await exchange('POST', '/v1/shopping/flight-offers/pricing', {
      token,
      expect: 400,
      invalid: true,
      body: { data: { type: 'flight-offers-pricing', flightOffers: [] } },
    });
    await exchange('POST', '/v1/shopping/flight-offers/upselling', {
      token,
      expect: 200,
      body: { data: { type: 'flight-offers-upselling', flightOffers: [offer] } },
    });
    await exchange('POST', '/v1/shopping/seatmaps', { token, expect: 200, body: { data: [offer] } });

    const pricedOffer = ((priced.body.data as Json).flightOffers as Json[])[0];
    const order = await exchange('POST', '/v1/booking/flight-orders', {
      token,
      expect: 201,
      body: {
        data: {
          type: 'flight-order',
          flightOffers: [pricedOffer],
          travelers: [traveler('1', 'SMITH')],
          remarks: { general: [{ subType: 'GENERAL_MISCELLANEOUS', text: 'CLIENT-REF BK-FIDELITY' }] },
          ticketingAgreement: { option: 'DELAY_TO_CANCEL', delay: '6D' },
          contacts: [
            {
              addresseeName: { firstName: 'ADAM', lastName: 'SMITH' },
              purpose: 'STANDARD',
              emailAddress: 'a@example.com',
              phones: [{ deviceType: 'MOBILE', countryCallingCode: '44', number: '7700900123' }],
            },
          ],
        },
      },
    });
    await exchange('POST', '/v1/booking/flight-orders', {
      token,
      expect: 400,
      body: {
        data: { type: 'flight-order', flightOffers: [pricedOffer], travelers: [traveler('1', 'REJECT')] },
      },
    });
    await exchange('POST', '/v1/booking/flight-orders', {
      token,
      expect: 400,
      invalid: true,
      body: { data: { type: 'flight-order', flightOffers: [pricedOffer] } },
    });
    const id = String((order.body.data as Json).id);
    await exchange('GET', `/v1/shopping/seatmaps?flightOrderId=${id}`, { token, expect: 200 });
    await exchange('GET', '/v1/shopping/seatmaps?flightOrderId=unknown', { token, expect: 404 });
    await exchange('GET', `/v1/booking/flight-orders/${id}`, { token, expect: 200 });
    await exchange('DELETE', `/v1/booking/flight-orders/${id}`, { token, expect: 204 });
    await exchange('GET', `/v1/booking/flight-orders/${id}`, { token, expect: 404 });

    const tsearch = await exchange('POST', '/v1/shopping/transfer-offers', {
      token,
      expect: 200,
      body: {
        startLocationCode: 'CDG',
        endAddressLine: 'Avenue Anatole France, 5',
        endCityName: 'Paris',
        endCountryCode: 'FR',
        endGeoCode: '48.859466,2.2976965',
        transferType: 'PRIVATE',
        startDateTime: '2026-04-10T10:30:00',
        passengers: 2,
      },
    });
    await exchange('POST', '/v1/shopping/transfer-offers', {
      token,
      expect: 400,
      invalid: true,
      body: { startLocationCode: 'CDG' },
    });
    const toffer = (tsearch.body.data as Json[])[0] as Json;
    const torder = await exchange('POST', `/v1/ordering/transfer-orders?offerId=${String(toffer.id)}`, {
      token,
      expect: 201,
      body: {
        data: {
          note: 'Note to driver',
          passengers: [
            {
              firstName: 'John',
              lastName: 'Doe',
              title: 'MR',
              contacts: { phoneNumber: '+33123456789', email: 'user@email.com' },
            },
          ],
          payment: { methodOfPayment: 'TRAVEL_ACCOUNT' },
        },
      },
    });
    const td = torder.body.data as Json;
    const confirmNbr = String((td.transfers as Json[])[0]?.confirmNbr);
    await exchange(
      'POST',
      `/v1/ordering/transfer-orders/${String(td.id)}/transfers/cancellation?confirmNbr=${confirmNbr}`,
      { token, expect: 200 },
    );
    await exchange('POST', `/v1/ordering/transfer-orders/nope/transfers/cancellation?confirmNbr=1`, {
      token,
      expect: 404,
    });

    state.tokens.clear();
    await exchange('GET', `/v1/booking/flight-orders/${id}`, { token, expect: 401 });

    const published = new Set(ops.map((o) => o.operationId));
    expect(published.size).toBe(14);
    expect([...published].filter((p) => !validated.has(p))).toEqual([]);
    expect(validated.size).toBe(14);
  });
});
