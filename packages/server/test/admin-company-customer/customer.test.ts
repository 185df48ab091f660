import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectOp, type Harness, harness } from './harness.ts';

let t: Harness;
let me: { id: string; email: string; token: string };
let other: { id: string; token: string };
beforeAll(async () => {
  t = await harness();
  me = await t.user({ role: 'customer' });
  other = await t.user({ role: 'customer' });
});
afterAll(() => t.close());

describe('customer bookings and payments', () => {
  test('own bookings only; cancel records a request and is audited', async () => {
    const mine = await t.booking({ userId: me.id, companyId: null, status: 'confirmed' });
    const theirs = await t.booking({ userId: other.id, companyId: null });
    const list = expectOp(
      'customerListBookings',
      await t.request('GET', '/api/v1/customer/bookings', { token: me.token }),
      200,
    );
    expect(list.items.map((b: { booking_id: number }) => b.booking_id)).toEqual([mine]);
    expectOp(
      'customerGetBooking',
      await t.request('GET', `/api/v1/customer/bookings/${mine}`, { token: me.token }),
      200,
    );
    expect((await t.request('GET', `/api/v1/customer/bookings/${theirs}`, { token: me.token })).status).toBe(
      404,
    );
    expect(
      (await t.request('POST', `/api/v1/customer/bookings/${theirs}/cancel`, { token: me.token, body: {} }))
        .status,
    ).toBe(404);
    const c = expectOp(
      'customerCancelBooking',
      await t.request('POST', `/api/v1/customer/bookings/${mine}/cancel`, {
        token: me.token,
        body: { reason: 'plans changed' },
      }),
      200,
    );
    expect(c).toMatchObject({ booking_id: mine, cancelled: false });
    await t.request('POST', `/api/v1/customer/bookings/${mine}/cancel`, { token: me.token, body: {} });
    const reqs = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'cancellation_requested')
      .execute();
    expect(reqs).toHaveLength(1);
    expect(reqs[0]?.reason).toBe('plans changed');
    const done = await t.booking({ userId: me.id, companyId: null, status: 'cancelled' });
    expect(
      (await t.request('POST', `/api/v1/customer/bookings/${done}/cancel`, { token: me.token, body: {} }))
        .body.code,
    ).toBe('invalid_booking_state');
    const staff = await t.user({ role: 'company_staff', companyId: await t.company('CUSTCO') });
    expect((await t.request('GET', '/api/v1/customer/bookings', { token: staff.token })).status).toBe(403);
  });

  test('payments list and receipt, isolated', async () => {
    const b = await t.booking({ userId: me.id, companyId: null });
    const pid = await t.payment(b);
    const ob = await t.booking({ userId: other.id, companyId: null });
    const opid = await t.payment(ob);
    const list = expectOp(
      'customerListPayments',
      await t.request('GET', '/api/v1/customer/payments', { token: me.token }),
      200,
    );
    expect(list.items.map((p: { payment_id: number }) => p.payment_id)).toEqual([pid]);
    const r = expectOp(
      'customerGetReceipt',
      await t.request('GET', `/api/v1/customer/payments/receipts/${pid}`, { token: me.token }),
      200,
    );
    expect(r.line_items.reduce((s: number, l: { amount_minor: number }) => s + l.amount_minor, 0)).toBe(
      10000,
    );
    expect(r.customer.email).toBe(me.email);
    expect(
      (await t.request('GET', `/api/v1/customer/payments/receipts/${opid}`, { token: me.token })).status,
    ).toBe(404);
  });
});

describe('customer profile and travelers', () => {
  test('profile and preferences', async () => {
    expectOp(
      'customerGetProfile',
      await t.request('GET', '/api/v1/customer/profile', { token: me.token }),
      200,
    );
    const p = expectOp(
      'customerUpdateProfile',
      await t.request('PATCH', '/api/v1/customer/profile', {
        token: me.token,
        body: {
          full_name: 'Ada L',
          nationality: 'GB',
          date_of_birth: '1990-12-10',
          preferred_currency: 'EUR',
        },
      }),
      200,
    );
    expect(p).toMatchObject({
      full_name: 'Ada L',
      nationality: 'GB',
      date_of_birth: '1990-12-10',
      preferred_currency: 'EUR',
    });
    const pr0 = expectOp(
      'customerGetPreferences',
      await t.request('GET', '/api/v1/customer/profile/preferences', { token: me.token }),
      200,
    );
    expect(pr0.notification_email).toBe(true);
    const pr = expectOp(
      'customerUpdatePreferences',
      await t.request('PATCH', '/api/v1/customer/profile/preferences', {
        token: me.token,
        body: { seat_preference: 'aisle', preferred_airlines: ['BA', 'EK'] },
      }),
      200,
    );
    expect(pr).toMatchObject({ seat_preference: 'aisle', preferred_airlines: ['BA', 'EK'] });
    expect(
      (
        await t.request('PATCH', '/api/v1/customer/profile/preferences', {
          token: me.token,
          body: { seat_preference: 'roof' },
        })
      ).status,
    ).toBe(422);
  });

  test('saved travelers: CRUD, validation, isolation', async () => {
    const body = {
      first_name: 'Ada',
      last_name: 'Lovelace',
      date_of_birth: '1990-12-10',
      gender: 'F',
      doc_type: 'passport',
      doc_number: 'X123',
      doc_expiry: '2031-01-01',
      doc_issuing_country: 'GB',
    };
    const t1 = expectOp(
      'customerCreateTraveler',
      await t.request('POST', '/api/v1/customer/travelers', {
        token: me.token,
        body: { ...body, is_primary: true },
      }),
      201,
    );
    expect(t1.is_primary).toBe(true);
    const t2 = expectOp(
      'customerCreateTraveler',
      await t.request('POST', '/api/v1/customer/travelers', {
        token: me.token,
        body: {
          first_name: 'Byron',
          last_name: 'L',
          date_of_birth: '2015-01-01',
          gender: 'M',
          is_primary: true,
        },
      }),
      201,
    );
    const list = expectOp(
      'customerListTravelers',
      await t.request('GET', '/api/v1/customer/travelers', { token: me.token }),
      200,
    );
    expect(list.items.filter((x: { is_primary: boolean }) => x.is_primary)).toHaveLength(1);
    expect(list.items.map((x: { traveler_id: number }) => x.traveler_id)).toEqual([
      t2.traveler_id,
      t1.traveler_id,
    ]);
    for (const bad of [
      { ...body, gender: 'X' },
      { ...body, date_of_birth: '2999-01-01' },
      { ...body, date_of_birth: '1990-13-45' },
      { ...body, doc_expiry: '2000-01-01' },
      { ...body, doc_type: undefined },
    ]) {
      const r = await t.request('POST', '/api/v1/customer/travelers', { token: me.token, body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(422);
      expect(r.body.detail[0].loc[0]).toBe('body');
    }
    const upd = expectOp(
      'customerUpdateTraveler',
      await t.request('PATCH', `/api/v1/customer/travelers/${t1.traveler_id}`, {
        token: me.token,
        body: { nickname: 'Me' },
      }),
      200,
    );
    expect(upd.nickname).toBe('Me');
    expect(
      (
        await t.request('PATCH', `/api/v1/customer/travelers/${t1.traveler_id}`, {
          token: me.token,
          body: { doc_expiry: '2001-01-01' },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await t.request('PATCH', `/api/v1/customer/travelers/${t1.traveler_id}`, {
          token: other.token,
          body: { nickname: 'x' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.request('DELETE', `/api/v1/customer/travelers/${t1.traveler_id}`, { token: other.token }))
        .status,
    ).toBe(404);
    expectOp(
      'customerDeleteTraveler',
      await t.request('DELETE', `/api/v1/customer/travelers/${t1.traveler_id}`, { token: me.token }),
      200,
    );
    expect((await t.request('GET', '/api/v1/customer/travelers', { token: other.token })).body.total).toBe(0);
  });
});
