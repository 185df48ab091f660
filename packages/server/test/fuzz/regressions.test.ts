/**
 * Named regressions for what the contract fuzz found in code it does not own (see `known-issues.ts`).
 * Each asserts the correct behaviour. While a bug stands its test is marked `it.fails` and listed in
 * KNOWN_ISSUES; when its owner fixes it, drop `.fails` and the entry. Everything below is fixed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperations } from '../../src/kernel/contract.ts';
import { realContract } from '../helpers/contract.ts';
import { createFuzzWorld, type FuzzRequest, type FuzzWorld, type Tokens } from './harness.ts';

const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');

describe('contract fuzz regressions', () => {
  let world: FuzzWorld;
  let tokens: Tokens;
  let n = 0;
  beforeAll(async () => {
    world = await createFuzzWorld(doc);
    tokens = await world.freshTokens('regressions');
  }, 120_000);
  afterAll(() => world?.close());

  /** Sends `req` and returns the contract violations found in its response. */
  const violations = async (operationId: string, req: FuzzRequest) => {
    const op = world.operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`no operation ${operationId}`);
    const res = await world.send(req, tokens, `10.250.0.${++n}`);
    return { res, found: world.check(op, req, res).map((v) => `${v.kind}: ${v.message}`) };
  };

  it('sanity: a plain 404 passes the checker', async () => {
    const { res, found } = await violations('adminGetCompany', {
      method: 'GET',
      path: '/api/v1/admin/companies/424242',
      auth: 'super_admin',
      headers: {},
    });
    expect(res.status).toBe(404);
    expect(found).toEqual([]);
  });

  // int64-overflow-500
  it('adminGetCompany: company_id 99999999999999999999 is a 4xx, not 500', async () => {
    const { res } = await violations('adminGetCompany', {
      method: 'GET',
      path: '/api/v1/admin/companies/99999999999999999999',
      auth: 'super_admin',
      headers: {},
    });
    expect(res.status).toBeLessThan(500);
  });

  it('customerGetBooking: booking_id 99999999999999999999 is a 4xx, not 500', async () => {
    const { res } = await violations('customerGetBooking', {
      method: 'GET',
      path: '/api/v1/customer/bookings/99999999999999999999',
      auth: 'customer',
      headers: {},
    });
    expect(res.status).toBeLessThan(500);
  });

  it('customerListBookings: page=9223372036854776000 is a 4xx, not 500', async () => {
    const { res } = await violations('customerListBookings', {
      method: 'GET',
      path: '/api/v1/customer/bookings?page=9223372036854776000',
      auth: 'customer',
      headers: {},
    });
    expect(res.status).toBeLessThan(500);
  });

  it('companyListClientBookings: client_id 2147483648 (int64 in the contract) is a 4xx, not 500', async () => {
    const { res } = await violations('companyListClientBookings', {
      method: 'GET',
      path: '/api/v1/company/clients/2147483648/bookings',
      auth: 'company_admin',
      headers: {},
    });
    expect(res.status).toBeLessThan(500);
  });

  it('listTransportBookings: page=1e309 is a 4xx, not 500', async () => {
    const { res } = await violations('listTransportBookings', {
      method: 'GET',
      path: '/api/v1/transport/bookings?page=1e309',
      auth: 'company_admin',
      headers: {},
    });
    expect(res.status).toBeLessThan(500);
  });

  // nul-byte-500
  it('customerUpdateProfile: a NUL in full_name is a 4xx, not 500', async () => {
    const { res } = await violations('customerUpdateProfile', {
      method: 'PATCH',
      path: '/api/v1/customer/profile',
      auth: 'customer',
      headers: { 'idempotency-key': 'fz-regression-nul' },
      body: { json: { full_name: 'a\u0000b' } },
    });
    expect(res.status).toBeLessThan(500);
  });

  // lone-surrogate-json-500
  it('adminCreateMarkupRule: a lone surrogate in description is not a 500', async () => {
    const { res } = await violations('adminCreateMarkupRule', {
      method: 'POST',
      path: '/api/v1/admin/markup-rules',
      auth: 'super_admin',
      headers: { 'idempotency-key': 'fz-regression-surrogate' },
      body: {
        json: {
          company_id: null,
          rule_type: 'percentage',
          amount: 5,
          currency: 'INR',
          origin: 'QAY',
          destination: 'DUY',
          cabin_class: 'premium_economy',
          airline: '71',
          priority: 761,
          description: '\udfff',
          min_fare: 10,
        },
      },
    });
    expect(res.status).toBeLessThan(500);
  });

  it('adminListCompanies: page=Infinity is a 4xx, not 500', async () => {
    const { res } = await violations('adminListCompanies', {
      method: 'GET',
      path: '/api/v1/admin/companies?page=Infinity',
      auth: 'super_admin',
      headers: {},
    });
    expect(res.status).toBeLessThan(500);
  });

  // clear-cache-body
  it('clearAllCache: the 200 body is a ClearCacheResult', async () => {
    const { res, found } = await violations('clearAllCache', {
      method: 'POST',
      path: '/admin/cache/clear?confirm=true',
      auth: 'none',
      headers: {},
      body: { json: {} },
    });
    expect(res.status).toBe(200);
    expect(found).toEqual([]);
  });

  // nul-byte-500 (path)
  it('getFlightBatchResults: search_id "%00" is a 4xx, not 500', async () => {
    const { res } = await violations('getFlightBatchResults', {
      method: 'GET',
      path: '/api/v1/flight/getFare/batch/%00',
      auth: 'customer',
      headers: {},
    });
    expect(res.status).toBeLessThan(500);
  });

  it('adminGetUser: user_id "%00" is a 4xx, not 500', async () => {
    const { res } = await violations('adminGetUser', {
      method: 'GET',
      path: '/api/v1/admin/users/%00',
      auth: 'super_admin',
      headers: {},
    });
    expect(res.status).toBeLessThan(500);
  });

  // role-code-mismatch
  it('adminListCompanies: a customer gets a 403 code the contract lists', async () => {
    const { res, found } = await violations('adminListCompanies', {
      method: 'GET',
      path: '/api/v1/admin/companies',
      auth: 'customer',
      headers: {},
    });
    expect(res.status).toBe(403);
    expect(found).toEqual([]);
  });

  // tenant-code-mismatch
  it('searchFlights: naming another company gets a 403 code the contract lists', async () => {
    const { res, found } = await violations('searchFlights', {
      method: 'POST',
      path: '/api/v1/flight/getFare',
      auth: 'company_admin',
      headers: { 'idempotency-key': 'fz-regression-tenant' },
      body: {
        json: {
          companyCode: 'SOMEONE-ELSE',
          userCode: 'whoever',
          adults: 1,
          journeyType: 'OneWay',
          cabinClass: 'Economy',
          searchAirLegs: [{ origin: 'LHR', destination: 'JFK', departureDate: '2030-04-19' }],
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(found).toEqual([]);
  });

  // patch-415-413-undeclared
  it('every PATCH operation declares the 413 and 415 the kernel sends', () => {
    const missing = listOperations(doc ?? { openapi: '3.1.0', paths: {} })
      .filter((o) => o.method === 'PATCH' && (!o.responses['415'] || !o.responses['413']))
      .map((o) => o.operationId);
    expect(missing).toEqual([]);
  });

  it('customerUpdateProfile: text/plain gets a declared 415', async () => {
    const { res, found } = await violations('customerUpdateProfile', {
      method: 'PATCH',
      path: '/api/v1/customer/profile',
      auth: 'customer',
      headers: {},
      body: { json: { full_name: 'X' } },
      contentType: 'text/plain',
    });
    expect(res.status).toBe(415);
    expect(found).toEqual([]);
  });
});
