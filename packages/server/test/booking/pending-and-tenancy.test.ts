/**
 * The 502 path (supplier neither confirms nor rejects) settled by the durable reconciliation job after a
 * server restart; REJECT; and tenant isolation on every booking operation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServers } from '../../../mock-server/src/index.ts';
import { expectMatchesContract } from '../helpers/contract.ts';
import { contact, createWorld, passenger, startMocks, type World } from './harness.ts';

let mocks: MockServers;
let w: World;

beforeAll(async () => {
  mocks = await startMocks();
  w = await createWorld(mocks);
});
afterAll(async () => {
  await w?.close();
  await mocks?.close();
});

async function bookable(agent: { id: string }, companyId: number) {
  const offers = await w.seedOffers('duffel', { userId: agent.id, companyId });
  const hit = offers.find((o) => !o.offer.lcc && o.offer.validating_carrier !== 'W6');
  if (!hit) throw new Error('no bookable offer');
  return hit.offer_id;
}

describe('createPnr 502 pending confirmation', () => {
  it('REJECT: 400 supplier_rejected', async () => {
    const companyId = await w.company();
    const agent = await w.user({ companyId });
    const offerId = await bookable(agent, companyId);
    const r = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: 'rej-1',
      body: { offer_id: offerId, currency: 'GBP', passengers: [passenger('REJECT')], contact },
    });
    expect([r.status, r.body.code]).toEqual([400, 'supplier_rejected']);
    expectMatchesContract('createPnr', r.status, r.body);
  });

  it('PENDING: 502 with booking_id, queued durably, settled by the job after a restart', async () => {
    const companyId = await w.company();
    const agent = await w.user({ companyId });
    const admin = await w.user({ role: 'super_admin' });
    const offerId = await bookable(agent, companyId);
    const body = { offer_id: offerId, currency: 'GBP', passengers: [passenger('PENDING')], contact };
    const r = await w.req('POST', '/api/v1/bookings/createPnr', { token: agent.token, key: 'pend-1', body });
    expect(r.status).toBe(502);
    expectMatchesContract('createPnr', 502, r.body);
    expect(r.body).toMatchObject({ code: 'booking_pending', status: 'pending_pnr' });
    const id = r.body.booking_id as number;
    const replay = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: 'pend-1',
      body,
    });
    expect([replay.status, replay.body.booking_id]).toEqual([502, id]);
    expect((await w.req('GET', `/api/v1/bookings/${id}`, { token: agent.token })).body.status).toBe(
      'pending_pnr',
    );
    const q = await w.req('GET', '/api/v1/admin/bookings/reconciliation', { token: admin.token });
    expectMatchesContract('adminGetReconciliationQueue', 200, q.body);
    expect(q.body.items.map((i: { booking_id: number }) => i.booking_id)).toContain(id);

    // A restart: the app and its database close; the job is still there when they come back.
    w = await w.restart();
    expect(await w.runner.runOnce()).toBe(1);
    const after = await w.req('GET', `/api/v1/bookings/${id}`, {
      token: (await w.user({ companyId })).token,
    });
    expect(after.body.status).toBe('confirmed');
    expect(after.body.pnr).toMatch(/^[A-Z0-9]{6}$/);
    const admin2 = await w.user({ role: 'super_admin' });
    const q2 = await w.req('GET', '/api/v1/admin/bookings/reconciliation', { token: admin2.token });
    expect(q2.body.items.map((i: { booking_id: number }) => i.booking_id)).not.toContain(id);
    const forced = await w.req('POST', `/api/v1/admin/bookings/${id}/reconcile`, {
      token: admin2.token,
      body: { force: true },
    });
    expectMatchesContract('adminReconcileBooking', 200, forced.body);
    expect(forced.body.attempts).toBe(0);
    expect(await w.runner.runOnce()).toBe(1);
  });
});

describe('tenant isolation', () => {
  it('another company’s user gets 404 (400 on notes) on every booking operation', async () => {
    const c1 = await w.company();
    const c2 = await w.company();
    const owner = await w.user({ companyId: c1 });
    const other = await w.user({ companyId: c2 });
    const customer = await w.user({ role: 'customer', companyId: c1 });
    const offerId = await bookable(owner, c1);
    const r = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: owner.token,
      key: 'ten-1',
      body: { offer_id: offerId, currency: 'GBP', passengers: [passenger()], contact },
    });
    expect(r.status).toBe(200);
    const B = `/api/v1/bookings/${r.body.booking_id}`;
    const ops: [string, string, unknown?, string?][] = [
      ['GET', B],
      ['GET', `${B}/rules`],
      ['POST', `${B}/cancel`],
      ['GET', `${B}/order`],
      ['GET', `${B}/order/by-reference`],
      ['PATCH', `${B}/foid`, { number: 'X1' }],
      ['PATCH', `${B}/commission`, { percentage: 5 }],
      ['POST', `${B}/authorize`, { token: 'tok_sandbox_ok', currency: 'GBP', amount_minor: 100 }, 'k'],
      ['POST', `${B}/payment/capture`, undefined, 'k'],
      ['POST', `${B}/payment/void`, undefined, 'k'],
      ['POST', `${B}/payment/refund`, undefined, 'k'],
      ['GET', `${B}/payment/history`],
      ['POST', `${B}/ticket`, {}, 'k'],
      ['GET', `${B}/ticket/status`],
      ['GET', `${B}/ticket/document`],
      ['POST', `${B}/ticket/void`],
      ['GET', `${B}/servicing`],
      ['GET', `${B}/seats`],
      ['POST', `${B}/seats?segment_id=s1&seat_number=1A&passenger_id=1`],
      ['POST', `${B}/seats/batch`, { seats: [{ segment_id: 's1', seat_number: '1A', passenger_id: '1' }] }],
      ['POST', `${B}/seats/issue`],
      ['GET', `${B}/baggage`],
      ['POST', `${B}/ancillaries?ssr_code=WCHR`],
      ['GET', `${B}/ancillaries/catalogue`],
      [
        'POST',
        `${B}/ancillaries/purchase`,
        {
          products: [
            {
              customer_ref_ids: ['1'],
              code: 'X',
              rfic: 'C',
              rfisc: '0CC',
              booking_method: 'm',
              provider: 'p',
              segment_ref_ids: 's1',
            },
          ],
        },
      ],
      ['POST', `${B}/ancillaries/emd`, {}],
      ['POST', `${B}/ancillaries/cancel`, {}],
    ];
    for (const who of [other, customer]) {
      for (const [method, path, body, key] of ops) {
        const res = await w.req(method, path, {
          token: who.token,
          body,
          key: key ? `${key}-${path}-${who.id}` : undefined,
        });
        expect([path, res.status, res.body?.code]).toEqual([path, 404, 'booking_not_found']);
      }
      const notes = await w.req('POST', `${B}/notes`, { token: who.token, body: { notes: ['x'] } });
      expect([notes.status, notes.body.code]).toEqual([400, 'booking_not_found']);
    }
    // the owner still sees it, unchanged
    expect((await w.req('GET', B, { token: owner.token })).body.status).toBe('confirmed');
  });
});
