/**
 * Issue 28 (review L-3): every answer the router gives is declared by the operation the path names, and
 * no answer echoes unbounded client input. A contract path whose parameter cannot be read (malformed
 * percent-encoding, longer than any id) answers that operation's declared 422 naming the parameter; an
 * unknown path's 404 names at most 100 characters of it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectMatchesContract, realContract } from '../helpers/contract.ts';

const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ contract: doc });
  token = (await t.user({ role: 'company_admin', companyId: await t.company() })).token;
});
afterAll(() => t.close());

describe('paths the radix router cannot read', () => {
  test.each([
    ['a malformed percent-encoding', '%ZZ'],
    ['a 5,000-character id', 'x'.repeat(5000)],
  ])('addBookingNotes with %s: 422 naming booking_id, declared, no echo', async (_what, id) => {
    const r = await t.request('POST', `/api/v1/bookings/${id}/notes`, { token, body: { notes: ['x'] } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['path', 'booking_id']);
    expectMatchesContract('addBookingNotes', 422, r.body);
    expect(r.text.length).toBeLessThan(400);
    expect(r.text).not.toContain('xxxxxxxxxx');
  });

  test('any operation with a path parameter: the same 422 (a GET, a PATCH)', async () => {
    const get = await t.request('GET', '/api/v1/company/bookings/%E0%A4%A', { token });
    expect(get.status).toBe(422);
    expectMatchesContract('companyGetBooking', 422, get.body);
    const patch = await t.request('PATCH', `/api/v1/company/staff/${'9'.repeat(3000)}`, { token, body: {} });
    expect(patch.status).toBe(422);
    expect(patch.body.detail[0].loc).toEqual(['path', 'staff_id']);
  });

  test('an unknown path: 404 not_found naming at most 100 characters of it', async () => {
    const r = await t.request('GET', `/api/v1/nowhere/${'y'.repeat(5000)}`);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
    expect(r.body.detail.length).toBeLessThan(150);
  });
});
