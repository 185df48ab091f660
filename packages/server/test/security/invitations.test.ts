/**
 * Issue 28 (review L-6): a staff invitation tells a company admin nothing about accounts outside their
 * company. An address with an account elsewhere (a traveller, another company's staff) gets the answer a
 * new address gets; its owner is mailed a notice without an invitation code; only the company's own
 * members are refused as already registered.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { companyRoutes } from '../../src/domains/company/routes.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectMatchesContract, realContract } from '../helpers/contract.ts';

const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ contract: doc, routes: (s) => companyRoutes(s) });
});
afterAll(() => t.close());

const invite = (token: string, email: string) =>
  t.request('POST', '/api/v1/company/staff/invite', {
    token,
    body: { email, full_name: 'Probe', role: 'company_staff' },
  });

/** The answer with what differs between any two invitations (ids, addresses, times) taken out. */
const shape = (body: any) => ({
  invitation_sent: body.invitation_sent,
  staff: { ...body.staff, staff_id: 0, email: '', invited_at: '', created_at: '', updated_at: '' },
  expires_in: Math.round((Date.parse(body.expires_at) - t.clock.now().getTime()) / 3600_000),
});

describe('staff invitations reveal nothing about other tenants', () => {
  test('an account elsewhere gets the answer a new address gets; its owner a notice without a code', async () => {
    const a = await t.company();
    const b = await t.company();
    const admin = await t.user({ role: 'company_admin', companyId: a });
    const traveller = await t.user({ role: 'customer' });
    const otherStaff = await t.user({ role: 'company_staff', companyId: b });

    const fresh = await invite(admin.token, 'nobody-yet@example.test');
    expect(fresh.status, fresh.text).toBe(201);
    for (const email of [traveller.email, otherStaff.email]) {
      const r = await invite(admin.token, email);
      expect(r.status, r.text).toBe(201);
      expectMatchesContract('companyInviteStaff', 201, r.body);
      expect(shape(r.body)).toEqual(shape(fresh.body));
      const mail = t.mailer.sent.filter((m) => m.to === email).at(-1);
      expect(mail?.text).toContain('already has an account');
      expect(mail?.text).not.toMatch(/invite_code/);
    }
    const rows = await t.database.db
      .selectFrom('invitations')
      .select('email')
      .where('email', 'in', [traveller.email, otherStaff.email])
      .execute();
    expect(rows).toEqual([]);
  });

  test("the company's own member is still named: 400 email_already_registered", async () => {
    const a = await t.company();
    const admin = await t.user({ role: 'company_admin', companyId: a });
    const colleague = await t.user({ role: 'company_staff', companyId: a });
    const r = await invite(admin.token, colleague.email);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('email_already_registered');
  });
});
