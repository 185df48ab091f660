/**
 * Bags on Duffel, whose hold orders take no services: a bag offer is booked as a hold without its bags,
 * which the booking keeps (priced in from the start) and ticketing adds as services right after paying the
 * hold. Here with two bags of a kind on a PAYMENT_FIRST booking (the order placed by the authorization),
 * and a bag whose price rose at the supplier before ticketing: the tickets stand, the bag is not bought
 * at the higher price and shows failed. (The journey covers a PNR_FIRST booking with one bag.)
 */
import { describe, expect, it } from 'vitest';
import { check, useWorld } from './checks.ts';
import { contact, passenger, pickBookable, SANDBOX_ROUTES } from './harness.ts';

const ctx = useWorld();
const { currency } = SANDBOX_ROUTES.duffel;

type Raw = Record<string, unknown>;
const bagsInOrder = (raw: Raw) =>
  ((raw.services ?? []) as Raw[])
    .filter((x) => x.type === 'baggage')
    .reduce((n, x) => n + Number(x.quantity ?? 0), 0);

async function bagOffer(quantity: number, mode: 'PAYMENT_FIRST' | 'PNR_FIRST', key: string) {
  const companyId = await ctx.w.company();
  const agent = await ctx.w.user({ companyId });
  const as = (method: string, path: string, o: { body?: unknown; key?: string } = {}) =>
    ctx.w.req(method, path, { token: agent.token, ...o });
  const hit = pickBookable('duffel', await ctx.w.seedOffers('duffel', { userId: agent.id, companyId }));
  const cat = await as('POST', '/api/v1/bookings/bags/catalogue', {
    body: { offer_id: hit?.offer_id, currency },
  });
  const bag = cat.body.bag_options[0];
  const priced = await as('POST', '/api/v1/bookings/bags/reprice', {
    body: { offer_id: hit?.offer_id, currency, selections: [{ bag_option_id: bag.bag_option_id, quantity }] },
  });
  check('repriceWithBags', priced);
  const created = await as('POST', '/api/v1/bookings/createPnr', {
    key,
    body: {
      offer_id: priced.body.offer.offer_id,
      currency,
      passengers: [passenger()],
      contact,
      payment_mode: mode,
    },
  });
  check('createPnr', created);
  expect(created.body.pricing.bags_minor).toBe(bag.price.amount_minor * quantity);
  expect(created.body.pricing.total_minor).toBe(priced.body.offer.price.total_minor);
  const B = `/api/v1/bookings/${created.body.booking_id}`;
  return { as, B, bag, total: created.body.pricing.total_minor as number };
}

describe('duffel: bags booked with the PNR are added once the hold is paid', () => {
  it('PAYMENT_FIRST, two bags: pending on the held order, on the paid order after ticketing', async () => {
    const { as, B, bag, total } = await bagOffer(2, 'PAYMENT_FIRST', 'duffel-bags-pf');
    const auth = await as('POST', `${B}/authorize`, {
      key: 'duffel-bags-pf-auth',
      body: { token: 'tok_sandbox_ok', currency, amount_minor: total },
    });
    check('authorizePayment', auth);
    const held = await as('GET', `${B}/order`);
    check('getBookingOrder', held);
    expect([held.body.status, bagsInOrder(held.body.raw)]).toEqual(['on_hold', 0]);
    const before = await as('GET', `${B}/baggage`);
    check('getBaggage', before);
    expect(before.body.purchased_bags).toEqual([
      expect.objectContaining({
        bought_with: 'booking',
        bag_option_id: bag.bag_option_id,
        status: 'pending',
        quantity: 2,
        price: { currency, amount_minor: bag.price.amount_minor * 2 },
      }),
    ]);
    const t = await as('POST', `${B}/ticket`, { key: 'duffel-bags-pf-ticket', body: {} });
    check('issueTickets', t);
    expect([t.body.status, t.body.payment.captured_minor]).toEqual(['ticketed', total]);
    const paid = await as('GET', `${B}/order`);
    expect(bagsInOrder(paid.body.raw)).toBe(2);
    const pricing = (await as('GET', B)).body.pricing;
    expect(paid.body.total.amount_minor).toBe(pricing.total_minor - pricing.markup_minor);
    const after = await as('GET', `${B}/baggage`);
    expect(after.body.purchased_bags.map((x: { status: string }) => x.status)).toEqual(['issued']);
  });

  it('a bag the supplier now sells dearer is not bought: the tickets stand, the bag shows failed', async () => {
    const { as, B, bag, total } = await bagOffer(1, 'PNR_FIRST', 'duffel-bags-dear');
    const svc = ctx.w.mocks.states.duffel?.services.get(bag.bag_option_id);
    expect(svc).toBeDefined();
    if (svc) svc.amountMinor += 500;
    const auth = await as('POST', `${B}/authorize`, {
      key: 'duffel-bags-dear-auth',
      body: { token: 'tok_sandbox_ok', currency, amount_minor: total },
    });
    check('authorizePayment', auth);
    const t = await as('POST', `${B}/ticket`, { key: 'duffel-bags-dear-ticket', body: {} });
    check('issueTickets', t);
    expect(t.body.status).toBe('ticketed');
    expect(bagsInOrder((await as('GET', `${B}/order`)).body.raw)).toBe(0);
    const bags = await as('GET', `${B}/baggage`);
    check('getBaggage', bags);
    expect(bags.body.purchased_bags).toEqual([
      expect.objectContaining({ bought_with: 'booking', status: 'failed' }),
    ]);
    const admin = await ctx.w.user({ role: 'super_admin' });
    const d = await ctx.w.req('GET', B.replace('/bookings/', '/admin/bookings/'), { token: admin.token });
    check('adminGetBooking', d);
    const failed = d.body.audit_trail.find((e: { event: string }) => e.event === 'booking.bags_failed');
    expect(failed?.details.reason).toMatch(/now asks/);
  });
});
