import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordWalletTransaction } from '../../src/domains/company/routes.ts';
import { expectOp, type Harness, harness } from './harness.ts';

let t: Harness;
let a: number;
let b: number;
let adminA: { id: string; token: string };
let staffA: { id: string; token: string };
let adminB: { id: string; token: string };
beforeAll(async () => {
  t = await harness();
  a = await t.company('ACO');
  b = await t.company('BCO');
  adminA = await t.user({ role: 'company_admin', companyId: a });
  staffA = await t.user({ role: 'company_staff', companyId: a });
  adminB = await t.user({ role: 'company_admin', companyId: b });
});
afterAll(() => t.close());

describe('company clients', () => {
  test('CRUD, search and type filter, isolation between companies', async () => {
    const c1 = expectOp(
      'companyCreateClient',
      await t.request('POST', '/api/v1/company/clients', {
        token: staffA.token,
        body: {
          email: 'ada@example.org',
          full_name: 'Ada Lovelace',
          client_type: 'corporate',
          credit_limit: 100.5,
        },
      }),
      201,
    );
    expect(c1.company_id).toBe(a);
    expect(c1.credit_limit).toBe(100.5);
    expectOp(
      'companyCreateClient',
      await t.request('POST', '/api/v1/company/clients', {
        token: staffA.token,
        body: { email: 'bob@example.org', full_name: 'Bob' },
      }),
      201,
    );
    const dup = await t.request('POST', '/api/v1/company/clients', {
      token: staffA.token,
      body: { email: 'ADA@example.org', full_name: 'Ada again' },
    });
    expect(dup.body.code).toBe('client_email_taken');
    const byType = expectOp(
      'companyListClients',
      await t.request('GET', '/api/v1/company/clients?client_type=corporate', { token: staffA.token }),
      200,
    );
    expect(byType.items.map((c: { client_id: number }) => c.client_id)).toEqual([c1.client_id]);
    expect(
      expectOp(
        'companyListClients',
        await t.request('GET', '/api/v1/company/clients?search=bob', { token: staffA.token }),
        200,
      ).total,
    ).toBe(1);
    const upd = expectOp(
      'companyUpdateClient',
      await t.request('PATCH', `/api/v1/company/clients/${c1.client_id}`, {
        token: staffA.token,
        body: { notes: 'VIP' },
      }),
      200,
    );
    expect(upd.notes).toBe('VIP');
    // Company B neither sees nor touches A's client: 404 exactly like a missing one.
    const foreign = await t.request('GET', `/api/v1/company/clients/${c1.client_id}`, {
      token: adminB.token,
    });
    const missing = await t.request('GET', '/api/v1/company/clients/999999', { token: adminB.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe(missing.body.detail);
    expect(
      (
        await t.request('PATCH', `/api/v1/company/clients/${c1.client_id}`, {
          token: adminB.token,
          body: { notes: 'x' },
        })
      ).status,
    ).toBe(404);
    expect((await t.request('GET', '/api/v1/company/clients', { token: adminB.token })).body.total).toBe(0);
    // A company named in the body never widens the tenant.
    const widen = await t.request('POST', '/api/v1/company/clients', {
      token: adminB.token,
      body: { email: 'x@y.test', full_name: 'X', company_id: a },
    });
    expect(widen.status).toBe(422);
    const viaQuery = await t.request('GET', `/api/v1/company/clients?company_id=${a}`, {
      token: adminB.token,
    });
    expect([403, 422]).toContain(viaQuery.status);
    // The client's bookings are matched by contact email within the company.
    await t.booking({ userId: staffA.id, companyId: a, email: 'ada@example.org' });
    await t.booking({ userId: adminB.id, companyId: b, email: 'ada@example.org' });
    const cb = expectOp(
      'companyListClientBookings',
      await t.request('GET', `/api/v1/company/clients/${c1.client_id}/bookings`, { token: staffA.token }),
      200,
    );
    expect(cb.total).toBe(1);
    expect(cb.items[0].company_id).toBe(a);
  });
});

describe('company bookings', () => {
  test('list, pending categories, get isolation, assign to same-company staff', async () => {
    const soon = new Date(t.clock.now().getTime() + 3_600_000);
    const hold = await t.booking({ userId: staffA.id, companyId: a, status: 'on_hold', deadline: soon });
    await t.booking({ userId: staffA.id, companyId: a, status: 'payment_pending' });
    await t.booking({ userId: staffA.id, companyId: a, status: 'paid' });
    const other = await t.booking({ userId: adminB.id, companyId: b, status: 'on_hold', deadline: soon });
    const list = expectOp(
      'companyListBookings',
      await t.request('GET', '/api/v1/company/bookings?status=on_hold', { token: staffA.token }),
      200,
    );
    expect(list.items.map((x: { booking_id: number }) => x.booking_id)).toEqual([hold]);
    const pend = expectOp(
      'companyListPendingBookings',
      await t.request('GET', '/api/v1/company/bookings/pending', { token: staffA.token }),
      200,
    );
    expect(pend.on_hold_expiring.map((x: { booking_id: number }) => x.booking_id)).toEqual([hold]);
    expect(pend.payment_pending).toHaveLength(1);
    expect(pend.ticketing_pending).toHaveLength(1);
    expectOp(
      'companyGetBooking',
      await t.request('GET', `/api/v1/company/bookings/${hold}`, { token: staffA.token }),
      200,
    );
    expect(
      (await t.request('GET', `/api/v1/company/bookings/${other}`, { token: staffA.token })).status,
    ).toBe(404);
    const asg = expectOp(
      'companyAssignBooking',
      await t.request('POST', `/api/v1/company/bookings/${hold}/assign`, {
        token: adminA.token,
        body: { staff_user_id: staffA.id },
      }),
      200,
    );
    expect(asg.assigned_to_user_id).toBe(staffA.id);
    const cross = await t.request('POST', `/api/v1/company/bookings/${hold}/assign`, {
      token: adminA.token,
      body: { staff_user_id: adminB.id },
    });
    expect(cross.body.code).toBe('staff_not_found');
    expect(
      (
        await t.request('POST', `/api/v1/company/bookings/${other}/assign`, {
          token: adminA.token,
          body: { staff_user_id: staffA.id },
        })
      ).body.code,
    ).toBe('booking_not_found');
  });
});

describe('company markup rules, profile, settings', () => {
  test('rules are forced to the caller company; other company rules are 404; staff is 403', async () => {
    const r = expectOp(
      'companyCreateMarkupRule',
      await t.request('POST', '/api/v1/company/markup-rules', {
        token: adminA.token,
        body: { rule_type: 'per_pax', amount: 7, currency: 'GBP' },
      }),
      201,
    );
    expect(r.company_id).toBe(a);
    expect(
      expectOp(
        'companyListMarkupRules',
        await t.request('GET', '/api/v1/company/markup-rules', { token: adminA.token }),
        200,
      ).total,
    ).toBe(1);
    expect((await t.request('GET', '/api/v1/company/markup-rules', { token: adminB.token })).body.total).toBe(
      0,
    );
    expect(
      (
        await t.request('PATCH', `/api/v1/company/markup-rules/${r.rule_id}`, {
          token: adminB.token,
          body: { amount: 1 },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.request('DELETE', `/api/v1/company/markup-rules/${r.rule_id}`, { token: adminB.token }))
        .status,
    ).toBe(404);
    expect((await t.request('GET', '/api/v1/company/markup-rules', { token: staffA.token })).status).toBe(
      403,
    );
    const foreign = await t.request('POST', '/api/v1/company/markup-rules', {
      token: adminB.token,
      body: { company_id: a, rule_type: 'fixed', amount: 1 },
    });
    expect(foreign.status).toBe(403);
    expectOp(
      'companyUpdateMarkupRule',
      await t.request('PATCH', `/api/v1/company/markup-rules/${r.rule_id}`, {
        token: adminA.token,
        body: { amount: 8 },
      }),
      200,
    );
    expectOp(
      'companyDeleteMarkupRule',
      await t.request('DELETE', `/api/v1/company/markup-rules/${r.rule_id}`, { token: adminA.token }),
      200,
    );
  });

  test('profile and settings', async () => {
    expectOp(
      'companyGetProfile',
      await t.request('GET', '/api/v1/company/profile', { token: staffA.token }),
      200,
    );
    const p = expectOp(
      'companyUpdateProfile',
      await t.request('PATCH', '/api/v1/company/profile', {
        token: adminA.token,
        body: { website: 'https://aco.test', iata_number: '1234567' },
      }),
      200,
    );
    expect(p).toMatchObject({ website: 'https://aco.test', iata_number: '1234567', company_id: a });
    expect(
      (
        await t.request('PATCH', '/api/v1/company/profile', {
          token: staffA.token,
          body: { website: 'https://x.test' },
        })
      ).status,
    ).toBe(403);
    const s = expectOp(
      'companyUpdateSettings',
      await t.request('PATCH', '/api/v1/company/profile/settings', {
        token: adminA.token,
        body: { auto_ticket: true, max_hold_hours: 12 },
      }),
      200,
    );
    expect(s).toMatchObject({ auto_ticket: true, max_hold_hours: 12 });
    expect(
      expectOp(
        'companyGetSettings',
        await t.request('GET', '/api/v1/company/profile/settings', { token: adminB.token }),
        200,
      ).auto_ticket,
    ).toBe(false);
  });
});

describe('company staff', () => {
  test('invite mails a join link with the code; registering with it grants exactly that role and company', async () => {
    const inv = expectOp(
      'companyInviteStaff',
      await t.request('POST', '/api/v1/company/staff/invite', {
        token: adminA.token,
        body: { email: 'new.agent@aco.test', full_name: 'New Agent', permissions: ['bookings:read'] },
      }),
      201,
    );
    expect(inv.staff.status).toBe('pending');
    // No account yet: the contract's StaffMember says user_id is null for a pending invitation.
    expect(inv.staff.user_id).toBeNull();
    const mail = t.mailer.sent.find((m) => m.to === 'new.agent@aco.test');
    expect(mail).toBeDefined();
    const code = /invite_code=([^&\s]+)/.exec(mail?.text ?? '')?.[1];
    expect(code).toBeTruthy();
    expect(mail?.text).toContain('http://travel.test/join?invite_code=');
    const reg = await t.request('POST', '/api/v1/auth/register', {
      body: {
        email: 'new.agent@aco.test',
        password: 'correct horse battery',
        full_name: 'New Agent',
        role: 'company_admin',
        invite_code: decodeURIComponent(code as string),
      },
    });
    expect(reg.status).toBeLessThan(300);
    expect(reg.body.user).toMatchObject({ role: 'company_staff', company_id: a });
    const list = expectOp(
      'companyListStaff',
      await t.request('GET', '/api/v1/company/staff', { token: adminA.token }),
      200,
    );
    const joined = list.items.find((s: { email: string }) => s.email === 'new.agent@aco.test');
    expect(joined).toMatchObject({ status: 'active', role: 'company_staff', permissions: ['bookings:read'] });
    expect(joined.user_id).toBe(reg.body.user.user_id);
    const dup = await t.request('POST', '/api/v1/company/staff/invite', {
      token: adminA.token,
      body: { email: 'new.agent@aco.test', full_name: 'Again' },
    });
    expect(dup.body.code).toBe('email_already_registered');
    const upd = expectOp(
      'companyUpdateStaff',
      await t.request('PATCH', `/api/v1/company/staff/${joined.staff_id}`, {
        token: adminA.token,
        body: { department: 'Sales' },
      }),
      200,
    );
    expect(upd.department).toBe('Sales');
    const de = expectOp(
      'companyDeactivateStaff',
      await t.request('POST', `/api/v1/company/staff/${joined.staff_id}/deactivate`, { token: adminA.token }),
      200,
    );
    expect(de.is_active).toBe(false);
    expect(
      (await t.request('GET', '/api/v1/company/staff', { token: adminB.token })).body.items.some(
        (s: { email: string }) => s.email === 'new.agent@aco.test',
      ),
    ).toBe(false);
    expect(
      (
        await t.request('PATCH', `/api/v1/company/staff/${joined.staff_id}`, {
          token: adminB.token,
          body: { department: 'x' },
        })
      ).status,
    ).toBe(404);
    const me = list.items.find((s: { user_id: string }) => s.user_id === adminA.id);
    expect(
      (await t.request('POST', `/api/v1/company/staff/${me.staff_id}/deactivate`, { token: adminA.token }))
        .body.code,
    ).toBe('cannot_deactivate_self');
    expect(
      (
        await t.request('POST', '/api/v1/company/staff/invite', {
          token: staffA.token,
          body: { email: 'x@y.test', full_name: 'X' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('company wallet and reports', () => {
  test('ledger through recordWalletTransaction, type filter, credit limit', async () => {
    await t.database.db
      .updateTable('companies')
      .set({ credit_limit_minor: 5000, currency: 'GBP' })
      .where('id', '=', a)
      .execute();
    await t.database.db.transaction().execute(async (trx) => {
      await recordWalletTransaction(trx, {
        companyId: a,
        type: 'credit',
        amountMinor: 10000,
        currency: 'GBP',
        description: 'Top-up',
      });
      await recordWalletTransaction(trx, {
        companyId: a,
        type: 'debit',
        amountMinor: 12000,
        currency: 'GBP',
        description: 'Booking',
        bookingId: 1,
      });
    });
    await expect(
      t.database.db.transaction().execute((trx) =>
        recordWalletTransaction(trx, {
          companyId: a,
          type: 'debit',
          amountMinor: 4000,
          currency: 'GBP',
          description: 'Too much',
        }),
      ),
    ).rejects.toMatchObject({ code: 'insufficient_credit' });
    const w = expectOp(
      'companyGetWallet',
      await t.request('GET', '/api/v1/company/wallet', { token: adminA.token }),
      200,
    );
    expect(w).toMatchObject({
      balance_minor: -2000,
      credit_limit_minor: 5000,
      available_credit_minor: 3000,
      currency: 'GBP',
    });
    const debits = expectOp(
      'companyListWalletTransactions',
      await t.request('GET', '/api/v1/company/wallet/transactions?transaction_type=debit', {
        token: adminA.token,
      }),
      200,
    );
    expect(debits.items).toHaveLength(1);
    expect(debits.items[0]).toMatchObject({ amount_minor: 12000, balance_after_minor: -2000, booking_id: 1 });
    expect(
      (await t.request('GET', '/api/v1/company/wallet/transactions', { token: adminB.token })).body.total,
    ).toBe(0);
    expect((await t.request('GET', '/api/v1/company/wallet', { token: staffA.token })).status).toBe(403);
  });

  test('dashboard, sales, top clients, top routes', async () => {
    const d = expectOp(
      'companyGetDashboard',
      await t.request('GET', '/api/v1/company/reports/dashboard', { token: staffA.token }),
      200,
    );
    expect(d.on_hold_expiring).toBe(1);
    const s = expectOp(
      'companyGetSalesReport',
      await t.request('GET', '/api/v1/company/reports/sales?period=7d', { token: staffA.token }),
      200,
    );
    expect(s.totals[0].currency).toBe('GBP');
    const tc = expectOp(
      'companyGetTopClients',
      await t.request('GET', '/api/v1/company/reports/top-clients?limit=5', { token: staffA.token }),
      200,
    );
    expect(tc.items[0].full_name).toBeTruthy();
    const tr = expectOp(
      'companyGetTopRoutes',
      await t.request('GET', '/api/v1/company/reports/top-routes', { token: staffA.token }),
      200,
    );
    expect(tr.items[0]).toMatchObject({ origin: 'LHR', destination: 'DXB' });
    const trB = expectOp(
      'companyGetTopRoutes',
      await t.request('GET', '/api/v1/company/reports/top-routes', { token: adminB.token }),
      200,
    );
    expect(trB.items[0].bookings).toBe(2);
  });
});
