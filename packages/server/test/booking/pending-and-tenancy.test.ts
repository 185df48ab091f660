/**
 * The 502 path (supplier neither confirms nor rejects) settled by the durable reconciliation job after a
 * server restart; REJECT; and tenant isolation on every booking operation. Once per flight supplier.
 */
import { describe, expect, it } from 'vitest';
import type { FlightSupplierName } from '../../src/suppliers/ports/errors.ts';
import { expectMatchesContract } from '../helpers/contract.ts';
import { refused, useWorld } from './checks.ts';
import { contact, passenger, pickBookable, SANDBOX_ROUTES } from './harness.ts';

const ctx = useWorld();
const SUPPLIERS: FlightSupplierName[] = ['duffel', 'amadeus', 'mystifly'];

for (const supplier of SUPPLIERS) {
  const { currency } = SANDBOX_ROUTES[supplier];
  const bookable = async (agent: { id: string }, companyId: number) => {
    const hit = pickBookable(supplier, await ctx.w.seedOffers(supplier, { userId: agent.id, companyId }));
    if (!hit) throw new Error('no bookable offer');
    return hit.offer_id;
  };

  describe(`createPnr 502 pending confirmation (${supplier})`, () => {
    it('REJECT: 400 supplier_rejected', async () => {
      const companyId = await ctx.w.company();
      const agent = await ctx.w.user({ companyId });
      const offerId = await bookable(agent, companyId);
      const r = await ctx.w.req('POST', '/api/v1/bookings/createPnr', {
        token: agent.token,
        key: `rej-${supplier}`,
        body: { offer_id: offerId, currency, passengers: [passenger('REJECT')], contact },
      });
      refused('createPnr', r, 'supplier_rejected');
    });

    it('PENDING: 502 with booking_id, queued durably, settled by the job after a restart', async () => {
      const companyId = await ctx.w.company();
      const agent = await ctx.w.user({ companyId });
      const admin = await ctx.w.user({ role: 'super_admin' });
      const offerId = await bookable(agent, companyId);
      const body = { offer_id: offerId, currency, passengers: [passenger('PENDING')], contact };
      const r = await ctx.w.req('POST', '/api/v1/bookings/createPnr', {
        token: agent.token,
        key: `pend-${supplier}`,
        body,
      });
      expect(r.status).toBe(502);
      expectMatchesContract('createPnr', 502, r.body);
      expect(r.body).toMatchObject({ code: 'booking_pending', status: 'pending_pnr' });
      const id = r.body.booking_id as number;
      const replay = await ctx.w.req('POST', '/api/v1/bookings/createPnr', {
        token: agent.token,
        key: `pend-${supplier}`,
        body,
      });
      expect([replay.status, replay.body.booking_id]).toEqual([502, id]);
      expect((await ctx.w.req('GET', `/api/v1/bookings/${id}`, { token: agent.token })).body.status).toBe(
        'pending_pnr',
      );
      const q = await ctx.w.req('GET', '/api/v1/admin/bookings/reconciliation', { token: admin.token });
      expectMatchesContract('adminGetReconciliationQueue', 200, q.body);
      expect(q.body.items.map((i: { booking_id: number }) => i.booking_id)).toContain(id);

      // A restart: the app and its database close; the job is still there when they come back.
      ctx.w = await ctx.w.restart();
      expect(await ctx.w.runner.runOnce()).toBe(1);
      const after = await ctx.w.req('GET', `/api/v1/bookings/${id}`, {
        token: (await ctx.w.user({ companyId })).token,
      });
      expect(after.body.status).toBe('confirmed');
      expect(after.body.pnr).toMatch(/^[A-Z0-9]{6}$/);
      const admin2 = await ctx.w.user({ role: 'super_admin' });
      const q2 = await ctx.w.req('GET', '/api/v1/admin/bookings/reconciliation', { token: admin2.token });
      expect(q2.body.items.map((i: { booking_id: number }) => i.booking_id)).not.toContain(id);
      const forced = await ctx.w.req('POST', `/api/v1/admin/bookings/${id}/reconcile`, {
        token: admin2.token,
        body: { force: true },
      });
      expectMatchesContract('adminReconcileBooking', 200, forced.body);
      expect(forced.body.attempts).toBe(0);
      expect(await ctx.w.runner.runOnce()).toBe(1);
    });
  });

  describe(`tenant isolation (${supplier})`, () => {
    it('another company’s user gets 404 (400 on notes) on every booking and offer operation', async () => {
      const c1 = await ctx.w.company();
      const c2 = await ctx.w.company();
      const owner = await ctx.w.user({ companyId: c1 });
      const other = await ctx.w.user({ companyId: c2 });
      const customer = await ctx.w.user({ role: 'customer', companyId: c1 });
      const offerId = await bookable(owner, c1);
      const r = await ctx.w.req('POST', '/api/v1/bookings/createPnr', {
        token: owner.token,
        key: `ten-${supplier}`,
        body: { offer_id: offerId, currency, passengers: [passenger()], contact },
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
        ['POST', `${B}/authorize`, { token: 'tok_sandbox_ok', currency, amount_minor: 100 }, 'k'],
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
          const res = await ctx.w.req(method, path, {
            token: who.token,
            body,
            key: key ? `${key}-${path}-${who.id}` : undefined,
          });
          expect([path, res.status, res.body?.code]).toEqual([path, 404, 'booking_not_found']);
        }
        const notes = await ctx.w.req('POST', `${B}/notes`, { token: who.token, body: { notes: ['x'] } });
        expect([notes.status, notes.body.code]).toEqual([400, 'booking_not_found']);
      }
      // The owner's offer is as unknown to another company as a missing one, on every pricing operation.
      const priced = { offer_id: offerId, currency };
      const offerOps: [string, string, Record<string, unknown>, string?][] = [
        ['revalidateOffer', '/api/v1/bookings/revalidation', priced],
        ['getUpsellOffers', '/api/v1/bookings/upsell', priced],
        ['getBagCatalogue', '/api/v1/bookings/bags/catalogue', priced],
        ['repriceWithBags', '/api/v1/bookings/bags/reprice', priced],
        ['getFareRules', '/api/v1/bookings/fareRules', { offer_id: offerId }],
        [
          'createPnr',
          '/api/v1/bookings/createPnr',
          { ...priced, passengers: [passenger()], contact },
          `ten-other-${supplier}`,
        ],
      ];
      for (const [op, path, body, key] of offerOps)
        refused(op, await ctx.w.req('POST', path, { token: other.token, key, body }), 'offer_not_found', 404);
      // the owner still sees it, unchanged
      expect((await ctx.w.req('GET', B, { token: owner.token })).body.status).toBe('confirmed');
    });
  });
}

describe('GET /bookings/{id} read at once by many callers (reads coalesce into one statement)', () => {
  it('each caller gets its own answer: the owner and its company the booking, by id or PNR; others 404', async () => {
    const supplier: FlightSupplierName = 'duffel';
    const { currency } = SANDBOX_ROUTES[supplier];
    const c1 = await ctx.w.company();
    const c2 = await ctx.w.company();
    const owner = await ctx.w.user({ companyId: c1 });
    const colleague = await ctx.w.user({ companyId: c1 });
    const other = await ctx.w.user({ companyId: c2 });
    const customer = await ctx.w.user({ role: 'customer', companyId: c1 });
    const admin = await ctx.w.user({ role: 'super_admin' });
    const book = async (agent: { id: string; token: string }, companyId: number, key: string) => {
      const hit = pickBookable(supplier, await ctx.w.seedOffers(supplier, { userId: agent.id, companyId }));
      if (!hit) throw new Error('no bookable offer');
      const r = await ctx.w.req('POST', '/api/v1/bookings/createPnr', {
        token: agent.token,
        key,
        body: { offer_id: hit.offer_id, currency, passengers: [passenger()], contact },
      });
      expect(r.status).toBe(200);
      return r.body as { booking_id: number; pnr: string };
    };
    const mine = await book(owner, c1, 'many-1');
    const theirs = await book(other, c2, 'many-2');
    const alone = async (token: string, ref: string | number) =>
      ctx.w.req('GET', `/api/v1/bookings/${ref}`, { token });
    const expected = [
      [owner, mine.booking_id, 200],
      [colleague, mine.pnr, 200],
      [admin, theirs.booking_id, 200],
      [other, mine.booking_id, 404],
      [customer, mine.pnr, 404],
      [other, theirs.pnr, 200],
      [owner, theirs.booking_id, 404],
      [owner, 987_654_321, 404],
      [colleague, mine.booking_id, 200],
    ] as const;
    const once = await Promise.all(expected.map(([who, ref]) => alone(who.token, ref)));
    for (const [i, [who, ref, status]] of expected.entries()) {
      const r = once[i] as Awaited<ReturnType<typeof alone>>;
      expect([ref, r.status]).toEqual([ref, status]);
      if (status === 404) expect(r.body.code).toBe('booking_not_found');
      // The same answer as the same read made on its own.
      const single = await alone(who.token, ref);
      expect(status === 200 ? r.body : r.body.code).toEqual(status === 200 ? single.body : single.body.code);
    }
    expect(once[0]?.body.booking_id).toBe(mine.booking_id);
    expect(once[2]?.body.booking_id).toBe(theirs.booking_id);
    expect(once[5]?.body.booking_id).toBe(theirs.booking_id);
  });
});

describe('createPnr 500 booking_failed', () => {
  it('nothing reached the supplier (it refused our credentials): 500, nothing stored, the key released', async () => {
    const companyId = await ctx.w.company();
    const agent = await ctx.w.user({ companyId });
    const offers = await ctx.w.seedOffers('mystifly', { userId: agent.id, companyId });
    const offerId = pickBookable('mystifly', offers)?.offer_id;
    const body = {
      offer_id: offerId,
      currency: SANDBOX_ROUTES.mystifly.currency,
      passengers: [passenger()],
      contact,
      client_ref: 'booking-failed-1',
    };
    ctx.w.mocks.states.mystifly?.faults.fail(401, { path: /\/Book\/Flight$/ });
    const create = () =>
      ctx.w.req('POST', '/api/v1/bookings/createPnr', { token: agent.token, key: 'bf-1', body });
    const r = await create();
    // A 500 the contract lists for createPnr beside internal_error: "booking creation failed".
    refused('createPnr', r, 'booking_failed', 500);
    expect(r.body.request_id).toBeTruthy();
    const rows = await ctx.w.database.db
      .withTables<{ flight_bookings: { id: number; client_ref: string } }>()
      .selectFrom('flight_bookings')
      .select('id')
      .where('client_ref', '=', body.client_ref)
      .execute();
    expect(rows).toHaveLength(0);
    // Not stored: the same key runs anew and books.
    const again = await create();
    expect([again.status, again.body.status]).toEqual([200, 'confirmed']);
  });
});
