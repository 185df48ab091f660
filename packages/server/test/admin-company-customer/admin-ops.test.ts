import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordError } from '../../src/domains/admin/error-log.ts';
import { expectOp, type Harness, harness } from './harness.ts';

let t: Harness;
let admin: { id: string; token: string };
let cid: number;
beforeAll(async () => {
  t = await harness();
  admin = await t.user({ role: 'super_admin' });
  cid = await t.company('OPS');
});
afterAll(() => t.close());

describe('admin users', () => {
  test('list with filters, get, patch role audited', async () => {
    const staff = await t.user({ role: 'company_staff', companyId: cid, email: 'zed.staff@ops.test' });
    const list = expectOp(
      'adminListUsers',
      await t.request('GET', `/api/v1/admin/users?company_id=${cid}&role=company_staff&search=zed`, {
        token: admin.token,
      }),
      200,
    );
    expect(list.items.map((u: { user_id: string }) => u.user_id)).toEqual([staff.id]);
    expect(list.items[0].company_code).toBe('OPS');
    expectOp(
      'adminGetUser',
      await t.request('GET', `/api/v1/admin/users/${staff.id}`, { token: admin.token }),
      200,
    );
    const p = expectOp(
      'adminUpdateUser',
      await t.request('PATCH', `/api/v1/admin/users/${staff.id}`, {
        token: admin.token,
        body: { role: 'company_admin' },
      }),
      200,
    );
    expect(p.role).toBe('company_admin');
    const noCo = await t.user({ role: 'customer' });
    const bad = await t.request('PATCH', `/api/v1/admin/users/${noCo.id}`, {
      token: admin.token,
      body: { role: 'company_staff' },
    });
    expect(bad.body.code).toBe('company_required');
    const self = await t.request('PATCH', `/api/v1/admin/users/${admin.id}`, {
      token: admin.token,
      body: { status: 'inactive' },
    });
    expect(self.body.code).toBe('cannot_modify_self');
    const audit = expectOp(
      'adminGetAuditLog',
      await t.request('GET', `/api/v1/admin/reports/audit?event=user.role_changed&user_id=${staff.id}`, {
        token: admin.token,
      }),
      200,
    );
    expect(audit.items[0].details.role).toEqual({ from: 'company_staff', to: 'company_admin' });
  });

  test('suspend blocks the user (403) for duration_hours, then it lapses', async () => {
    const c = await t.user({ role: 'customer' });
    const s = expectOp(
      'adminSuspendUser',
      await t.request('POST', `/api/v1/admin/users/${c.id}/suspend`, {
        token: admin.token,
        body: { reason: 'fraud check', duration_hours: 0.01 },
      }),
      200,
    );
    expect(s.status).toBe('suspended');
    expect(s.suspended_until).not.toBeNull();
    const r = await t.request('GET', '/api/v1/customer/profile', { token: c.token });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('account_suspended');
    t.clock.advance(60_000);
    expect((await t.request('GET', '/api/v1/customer/profile', { token: c.token })).status).toBe(200);
    expect(
      (
        await t.request('POST', `/api/v1/admin/users/${admin.id}/suspend`, {
          token: admin.token,
          body: { reason: 'x' },
        })
      ).body.code,
    ).toBe('cannot_suspend_self');
  });

  test('impersonation: reason required, token marked, actions audited with the impersonator', async () => {
    const target = await t.user({ role: 'company_admin', companyId: cid });
    const missing = await t.request('POST', `/api/v1/admin/users/${target.id}/impersonate`, {
      token: admin.token,
      body: {},
    });
    expect(missing.status).toBe(422);
    const imp = expectOp(
      'adminImpersonateUser',
      await t.request('POST', `/api/v1/admin/users/${target.id}/impersonate`, {
        token: admin.token,
        body: { reason: 'debug ticket 42' },
      }),
      200,
    );
    expect(imp.impersonator_id).toBe(admin.id);
    expect(imp.user.user_id).toBe(target.id);
    const claims = await t.app.services.tokens.verifyAccess(imp.access_token);
    expect(claims.impersonatorId).toBe(admin.id);
    const created = await t.request('POST', '/api/v1/company/clients', {
      token: imp.access_token,
      body: { email: 'imp@client.test', full_name: 'Imp Client' },
    });
    expect(created.status).toBe(201);
    const rows = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_type', '=', 'client')
      .where('entity_id', '=', String(created.body.client_id))
      .execute();
    expect(rows[0]?.impersonator_id).toBe(admin.id);
    expect(rows[0]?.actor_id).toBe(target.id);
    const audit = expectOp(
      'adminGetAuditLog',
      await t.request('GET', '/api/v1/admin/reports/audit?event=user.impersonated', { token: admin.token }),
      200,
    );
    expect(audit.items[0].details.reason).toBe('debug ticket 42');
    const other = await t.user({ role: 'super_admin' });
    expect(
      (
        await t.request('POST', `/api/v1/admin/users/${other.id}/impersonate`, {
          token: admin.token,
          body: { reason: 'x' },
        })
      ).body.code,
    ).toBe('cannot_impersonate');
  });
});

describe('admin markup rules', () => {
  test('CRUD and calculate with platform then company rule', async () => {
    const platform = expectOp(
      'adminCreateMarkupRule',
      await t.request('POST', '/api/v1/admin/markup-rules', {
        token: admin.token,
        body: { rule_type: 'fixed', amount: 5, currency: 'GBP', priority: 10 },
      }),
      201,
    );
    expect(platform.company_id).toBeNull();
    const co = expectOp(
      'adminCreateMarkupRule',
      await t.request('POST', '/api/v1/admin/markup-rules', {
        token: admin.token,
        body: { company_id: cid, rule_type: 'percentage', amount: 10 },
      }),
      201,
    );
    const bad = await t.request('POST', '/api/v1/admin/markup-rules', {
      token: admin.token,
      body: { rule_type: 'fixed', amount: 1, min_fare: 10, max_fare: 5 },
    });
    expect(bad.body.code).toBe('invalid_fare_range');
    const nf = await t.request('POST', '/api/v1/admin/markup-rules', {
      token: admin.token,
      body: { company_id: 99999, rule_type: 'fixed', amount: 1 },
    });
    expect(nf.body.code).toBe('company_not_found');
    const calc = expectOp(
      'adminCalculateMarkup',
      await t.request(
        'POST',
        `/api/v1/admin/markup-rules/calculate?base_price=100&currency=GBP&company_id=${cid}`,
        { token: admin.token },
      ),
      200,
    );
    // Decision 0002: 5.00 platform, then 10 % of 105.00.
    expect(calc).toMatchObject({
      base_minor: 10000,
      markup_minor: 500 + 1050,
      total_minor: 11550,
      applied_rule_ids: [platform.rule_id, co.rule_id],
    });
    const list = expectOp(
      'adminListMarkupRules',
      await t.request('GET', `/api/v1/admin/markup-rules?company_id=${cid}`, { token: admin.token }),
      200,
    );
    expect(list.items.map((r: { rule_id: number }) => r.rule_id)).toEqual([co.rule_id]);
    const upd = expectOp(
      'adminUpdateMarkupRule',
      await t.request('PATCH', `/api/v1/admin/markup-rules/${co.rule_id}`, {
        token: admin.token,
        body: { amount: 20, is_active: false },
      }),
      200,
    );
    expect(upd.amount).toBe(20);
    expectOp(
      'adminDeleteMarkupRule',
      await t.request('DELETE', `/api/v1/admin/markup-rules/${platform.rule_id}`, { token: admin.token }),
      200,
    );
    expect(
      (await t.request('DELETE', `/api/v1/admin/markup-rules/${platform.rule_id}`, { token: admin.token }))
        .status,
    ).toBe(404);
    const after = expectOp(
      'adminCalculateMarkup',
      await t.request(
        'POST',
        `/api/v1/admin/markup-rules/calculate?base_price=100&currency=GBP&company_id=${cid}`,
        { token: admin.token },
      ),
      200,
    );
    expect(after.markup_minor).toBe(0);
  });
});

describe('admin payments', () => {
  test('list with filters, settlement, manual refund through the provider, idempotent and audited', async () => {
    const u = await t.user({ role: 'customer' });
    const b = await t.booking({ userId: u.id, companyId: cid, status: 'ticketed' });
    const pid = await t.payment(b, { amount: 10000 });
    const list = expectOp(
      'adminListPayments',
      await t.request('GET', `/api/v1/admin/payments?company_id=${cid}&payment_state=CAPTURED`, {
        token: admin.token,
      }),
      200,
    );
    expect(list.items.map((p: { payment_id: number }) => p.payment_id)).toContain(pid);
    expect(
      (await t.request('GET', '/api/v1/admin/payments?company_id=99999', { token: admin.token })).body.total,
    ).toBe(0);
    const headers = { 'idempotency-key': 'refund-1' };
    const body = { amount_minor: 2500, currency: 'GBP', reason: 'goodwill' };
    const r1 = expectOp(
      'adminManualRefund',
      await t.request('POST', `/api/v1/admin/payments/${pid}/manual-refund`, {
        token: admin.token,
        body,
        headers,
      }),
      200,
    );
    expect(r1.refunded_minor).toBe(2500);
    expect(r1.state).toBe('CAPTURED');
    const r2 = await t.request('POST', `/api/v1/admin/payments/${pid}/manual-refund`, {
      token: admin.token,
      body,
      headers,
    });
    expect(r2.body).toEqual(r1);
    expect(t.refunds).toHaveLength(1);
    const wrongCur = await t.request('POST', `/api/v1/admin/payments/${pid}/manual-refund`, {
      token: admin.token,
      body: { ...body, currency: 'USD' },
    });
    expect(wrongCur.body.code).toBe('currency_mismatch');
    const tooMuch = await t.request('POST', `/api/v1/admin/payments/${pid}/manual-refund`, {
      token: admin.token,
      body: { ...body, amount_minor: 999999 },
    });
    expect(tooMuch.body.code).toBe('amount_exceeds_refundable');
    expect(
      (await t.request('POST', '/api/v1/admin/payments/99999/manual-refund', { token: admin.token, body }))
        .status,
    ).toBe(404);
    const audit = expectOp(
      'adminGetAuditLog',
      await t.request('GET', '/api/v1/admin/reports/audit?event=payment.manual_refund', {
        token: admin.token,
      }),
      200,
    );
    expect(audit.items).toHaveLength(1);
    const s = expectOp(
      'adminGetSettlementReport',
      await t.request('GET', '/api/v1/admin/payments/settlement-report?period=7d', { token: admin.token }),
      200,
    );
    expect(s.items.find((i: { currency: string }) => i.currency === 'GBP')).toMatchObject({
      captured_minor: 10000,
      refunded_minor: 2500,
      net_minor: 7500,
    });
  });
});

describe('admin reports and system', () => {
  test('dashboard, revenue, live, health', async () => {
    const dash = expectOp(
      'adminGetDashboard',
      await t.request('GET', '/api/v1/admin/reports/dashboard', { token: admin.token }),
      200,
    );
    expect(dash.bookings_30d).toBeGreaterThanOrEqual(1);
    const rev = expectOp(
      'adminGetRevenueReport',
      await t.request('GET', `/api/v1/admin/reports/revenue?company_id=${cid}`, { token: admin.token }),
      200,
    );
    expect(rev.totals[0]).toMatchObject({
      currency: 'GBP',
      gross_minor: 10000,
      refunds_minor: 2500,
      net_minor: 7500,
    });
    expectOp(
      'adminGetLiveReport',
      await t.request('GET', '/api/v1/admin/reports/live', { token: admin.token }),
      200,
    );
    const h = expectOp(
      'adminGetSystemHealth',
      await t.request('GET', '/api/v1/admin/system/health', { token: admin.token }),
      200,
    );
    expect(h.components.database.status).toBe('ok');
  });

  test('cache stats and clear by pattern', async () => {
    const cache = t.app.services.cache;
    cache.set('reference:airports:LHR', 1, 60_000);
    cache.set('reference:airports:DXB', 1, 60_000);
    cache.set('search:abc', 1, 60_000);
    const st = expectOp(
      'adminGetCacheStats',
      await t.request('GET', '/api/v1/admin/system/cache-stats', { token: admin.token }),
      200,
    );
    expect(st.key_distribution.reference).toBe(2);
    const cl = expectOp(
      'adminClearCache',
      await t.request('POST', '/api/v1/admin/system/clear-cache?pattern=reference:*', { token: admin.token }),
      200,
    );
    expect(cl).toEqual({ pattern: 'reference:*', cleared: 2 });
    expect(cache.get('search:abc')).toBe(1);
    expect(
      (await t.request('POST', '/api/v1/admin/system/clear-cache?pattern=a*b', { token: admin.token }))
        .status,
    ).toBe(422);
  });

  test('error logs with stage/provider filters; credentials scrubbed', async () => {
    await recordError(t.database.db, {
      stage: 'search',
      provider: 'duffel',
      code: 'timeout',
      message: 'timed out token=sekrit123',
    });
    await recordError(t.database.db, {
      stage: 'booking',
      provider: 'mystifly',
      code: 'rejected',
      message: 'no',
    });
    const r = expectOp(
      'adminListErrorLogs',
      await t.request('GET', '/api/v1/admin/system/error-logs?stage=search&provider=duffel', {
        token: admin.token,
      }),
      200,
    );
    expect(r.total).toBe(1);
    expect(r.items[0].message).not.toContain('sekrit123');
  });
});
