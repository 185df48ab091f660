import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { createWidgetTable, testRoutes } from './helpers/test-routes.ts';

let t: TestApp;
let a: number;
let b: number;
beforeAll(async () => {
  t = await createTestApp({ routes: (s) => testRoutes(s) });
  await createWidgetTable(t.database.db);
  a = await t.company('ACO');
  b = await t.company('BCO');
});
afterAll(() => t.close());

describe('tenancy', () => {
  test('a body field naming another company never widens the tenant', async () => {
    const staff = await t.user({ role: 'company_staff', companyId: a });
    for (const body of [
      { name: 'w', company_id: b },
      { name: 'w', company_code: 'BCO' },
      { name: 'w', companyCode: 'bco' },
    ]) {
      const r = await t.request('POST', '/api/v1/test/widgets', { token: staff.token, body });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('tenant_mismatch');
    }
    const own = await t.request('POST', '/api/v1/test/widgets', {
      token: staff.token,
      body: { name: 'w', companyCode: 'ACO', company_id: a },
    });
    expect(own.status).toBe(201);
    expect(own.body.company_id).toBe(a);
  });

  test("another tenant's resource is 404, exactly like a missing one", async () => {
    const ownerB = await t.user({ role: 'company_staff', companyId: b });
    const created = await t.request('POST', '/api/v1/test/widgets', {
      token: ownerB.token,
      body: { name: 'secret' },
    });
    const staffA = await t.user({ role: 'company_staff', companyId: a });
    const foreign = await t.request('GET', `/api/v1/test/widgets/${created.body.id}`, {
      token: staffA.token,
    });
    const missing = await t.request('GET', '/api/v1/test/widgets/99999', { token: staffA.token });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body.code).toBe(missing.body.code);
    expect(foreign.body.detail).toBe(missing.body.detail);
    expect(
      (await t.request('GET', `/api/v1/test/widgets/${created.body.id}`, { token: ownerB.token })).status,
    ).toBe(200);
    const list = await t.request('GET', '/api/v1/test/widgets', { token: staffA.token });
    expect(list.body.every((w: { company_id: number }) => w.company_id === a)).toBe(true);
  });

  test('a super_admin sees every tenant', async () => {
    const admin = await t.user({ role: 'super_admin' });
    const list = await t.request('GET', '/api/v1/test/widgets', { token: admin.token });
    expect(new Set(list.body.map((w: { company_id: number }) => w.company_id))).toEqual(new Set([a, b]));
  });
});
