import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectOp, type Harness, harness } from './harness.ts';

let t: Harness;
let admin: { id: string; token: string };
beforeAll(async () => {
  t = await harness();
  admin = await t.user({ role: 'super_admin' });
});
afterAll(() => t.close());

describe('admin companies', () => {
  test('create, list with filters and pagination, get, patch', async () => {
    for (const [code, type] of [
      ['ACME', 'travel_agency'],
      ['BETA', 'corporate'],
      ['GAMMA', 'corporate'],
    ]) {
      const r = await t.request('POST', '/api/v1/admin/companies', {
        token: admin.token,
        body: {
          company_name: `${code} Travel`,
          company_code: code,
          contact_email: `ops@${code}.test`,
          company_type: type,
          credit_limit: 5000,
          currency: 'GBP',
        },
      });
      const body = expectOp('adminCreateCompany', r, 201);
      expect(body.credit_limit).toBe(5000);
      expect(body.settings.default_currency).toBe('GBP');
    }
    const dup = await t.request('POST', '/api/v1/admin/companies', {
      token: admin.token,
      body: { company_name: 'x', company_code: 'acme', contact_email: 'a@b.test' },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe('company_code_taken');

    const corp = expectOp(
      'adminListCompanies',
      await t.request(
        'GET',
        '/api/v1/admin/companies?company_type=corporate&sort_by=company_code&sort_order=asc',
        { token: admin.token },
      ),
      200,
    );
    expect(corp.items.map((c: { company_code: string }) => c.company_code)).toEqual(['BETA', 'GAMMA']);
    expect(corp.total).toBe(2);
    const page2 = expectOp(
      'adminListCompanies',
      await t.request(
        'GET',
        '/api/v1/admin/companies?page=2&page_size=1&search=travel&sort_by=company_code&sort_order=asc',
        { token: admin.token },
      ),
      200,
    );
    expect(page2.items).toHaveLength(1);
    expect(page2.items[0].company_code).toBe('BETA');
    expect(page2.total).toBe(3);

    const id = page2.items[0].company_id;
    expectOp(
      'adminGetCompany',
      await t.request('GET', `/api/v1/admin/companies/${id}`, { token: admin.token }),
      200,
    );
    const patched = expectOp(
      'adminUpdateCompany',
      await t.request('PATCH', `/api/v1/admin/companies/${id}`, {
        token: admin.token,
        body: { company_name: 'Beta Renamed', settings: { auto_ticket: true } },
      }),
      200,
    );
    expect(patched.company_name).toBe('Beta Renamed');
    expect(patched.settings.auto_ticket).toBe(true);
    const missing = await t.request('GET', '/api/v1/admin/companies/99999', { token: admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('company_not_found');
  });

  test('suspension blocks every user of the company with 403; activation restores; audited', async () => {
    const cid = await t.company('SUSP');
    const staff = await t.user({ role: 'company_admin', companyId: cid });
    const customerOfCo = await t.user({ role: 'customer', companyId: cid });
    expect((await t.request('GET', '/api/v1/company/profile', { token: staff.token })).status).toBe(200);
    const s = await t.request('POST', `/api/v1/admin/companies/${cid}/suspend`, {
      token: admin.token,
      body: { reason: 'unpaid invoices' },
    });
    expect(expectOp('adminSuspendCompany', s, 200).status).toBe('suspended');
    for (const [tok, path] of [
      [staff.token, '/api/v1/company/profile'],
      [staff.token, '/api/v1/company/clients'],
      [customerOfCo.token, '/api/v1/customer/profile'],
    ] as const) {
      const r = await t.request('GET', path, { token: tok });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('company_suspended');
    }
    const again = await t.request('POST', `/api/v1/admin/companies/${cid}/suspend`, {
      token: admin.token,
      body: {},
    });
    expect(again.body.code).toBe('invalid_company_state');
    expectOp(
      'adminActivateCompany',
      await t.request('POST', `/api/v1/admin/companies/${cid}/activate`, { token: admin.token }),
      200,
    );
    expect((await t.request('GET', '/api/v1/company/profile', { token: staff.token })).status).toBe(200);
    const audit = expectOp(
      'adminGetAuditLog',
      await t.request('GET', '/api/v1/admin/reports/audit?event=company.suspended', { token: admin.token }),
      200,
    );
    expect(
      audit.items.some(
        (e: { target_id: string; details: { reason?: string } }) =>
          e.target_id === String(cid) && e.details.reason === 'unpaid invoices',
      ),
    ).toBe(true);
  });

  test('soft delete keeps the row and blocks its users', async () => {
    const cid = await t.company('DELME');
    const u = await t.user({ role: 'company_staff', companyId: cid });
    const d = expectOp(
      'adminDeleteCompany',
      await t.request('DELETE', `/api/v1/admin/companies/${cid}`, { token: admin.token }),
      200,
    );
    expect(d).toEqual({ id: cid, deleted: true });
    expect(
      (await t.request('GET', `/api/v1/admin/companies/${cid}`, { token: admin.token })).body.status,
    ).toBe('deleted');
    expect((await t.request('GET', '/api/v1/company/profile', { token: u.token })).status).toBe(403);
  });

  test('admin operations need super_admin', async () => {
    const cid = await t.company('ROLES');
    for (const role of ['company_admin', 'company_staff', 'customer'] as const) {
      const u = await t.user({ role, companyId: role === 'customer' ? null : cid });
      for (const [m, p] of [
        ['GET', '/api/v1/admin/companies'],
        ['GET', '/api/v1/admin/users'],
        ['POST', `/api/v1/admin/companies/${cid}/suspend`],
        ['GET', '/api/v1/admin/system/cache-stats'],
      ] as const) {
        expect((await t.request(m, p, { token: u.token })).status).toBe(403);
      }
    }
    expect((await t.request('GET', '/api/v1/admin/companies')).status).toBe(401);
  });
});
