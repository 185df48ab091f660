/**
 * A consolidator booking on Mystifly (+ Stripe): PAYMENT_FIRST (the supplier order is placed once the
 * payment is authorized), asynchronous ticketing (issue -> in process -> status polled -> issued, then the
 * documents), and the servicing the spec routes to the supplier: notes, void/refund/reissue quotes, a void
 * request worked asynchronously and read back from the servicing list. Every body is checked against
 * openapi.json.
 */
import { describe, expect, it } from 'vitest';
import { check, refused, useWorld } from './checks.ts';
import { contact, passenger, SANDBOX_ROUTES } from './harness.ts';

const ctx = useWorld();
const { currency } = SANDBOX_ROUTES.mystifly;

const s = {} as {
  agent: { id: string; token: string };
  offerId: string;
  bookingId: number;
  total: number;
  voidRequest: string;
  /** What each servicing read showed: the request's state and the booking's status right after. */
  trail: string[];
};
const B = () => `/api/v1/bookings/${s.bookingId}`;
const as = (method: string, path: string, o: { body?: unknown; key?: string } = {}) =>
  ctx.w.req(method, path, { token: s.agent.token, ...o });
const booking = async () => (await as('GET', B())).body;

describe('flight booking on mystifly: PAYMENT_FIRST, asynchronous ticketing, servicing', () => {
  it('search and pricing: a refundable full-service fare; no upsell, no chargeable bags', async () => {
    const companyId = await ctx.w.company();
    s.agent = await ctx.w.user({ companyId });
    const offers = await ctx.w.seedOffers('mystifly', { userId: s.agent.id, companyId });
    const hit = offers.find((o) => !o.offer.lcc && o.offer.refundable);
    expect(hit).toBeDefined();
    s.offerId = hit?.offer_id as string;
    const rv = await as('POST', '/api/v1/bookings/revalidation', { body: { offer_id: s.offerId, currency } });
    check('revalidateOffer', rv);
    expect(rv.body.available).toBe(true);
    refused(
      'getUpsellOffers',
      await as('POST', '/api/v1/bookings/upsell', { body: { offer_id: s.offerId, currency } }),
      'upsell_unsupported',
    );
    const cat = await as('POST', '/api/v1/bookings/bags/catalogue', {
      body: { offer_id: s.offerId, currency },
    });
    check('getBagCatalogue', cat);
    expect(cat.body.bag_options).toEqual([]);
    refused(
      'repriceWithBags',
      await as('POST', '/api/v1/bookings/bags/reprice', {
        body: { offer_id: s.offerId, currency, selections: [{ bag_option_id: 'any', quantity: 1 }] },
      }),
      'bags_unsupported',
    );
  });

  it('createPnr PAYMENT_FIRST: the booking waits for its payment, no supplier order yet', async () => {
    const body = {
      offer_id: s.offerId,
      currency,
      passengers: [passenger()],
      contact,
      payment_mode: 'PAYMENT_FIRST',
    };
    const r = await as('POST', '/api/v1/bookings/createPnr', { key: 'myst-create-1', body });
    check('createPnr', r);
    expect(r.body).toMatchObject({
      status: 'payment_pending',
      pnr: null,
      supplier_order_ref: null,
      payment_mode: 'PAYMENT_FIRST',
    });
    s.bookingId = r.body.booking_id;
    s.total = r.body.pricing.total_minor;
    const again = await as('POST', '/api/v1/bookings/createPnr', { key: 'myst-create-1', body });
    expect(again.body).toEqual(r.body);
    refused(
      'issueTickets',
      await as('POST', `${B()}/ticket`, { key: 'myst-ticket-early', body: {} }),
      'invalid_booking_state',
    );
  });

  it('authorize places the supplier order', async () => {
    const a = await as('POST', `${B()}/authorize`, {
      key: 'myst-auth-1',
      body: { token: 'tok_sandbox_ok', currency, amount_minor: s.total },
    });
    check('authorizePayment', a);
    expect(a.body.state).toBe('AUTHORIZED');
    const b = await booking();
    expect(b.status).toBe('payment_pending');
    expect(b.pnr).toMatch(/^[A-Z0-9]{6}$/);
    expect(b.supplier_order_ref).toBeTruthy();
    check('getBookingOrder', await as('GET', `${B()}/order`));
  });

  it('ticket: the payment is captured, the supplier issues asynchronously (in process)', async () => {
    const r = await as('POST', `${B()}/ticket`, { key: 'myst-ticket-1', body: {} });
    check('issueTickets', r);
    expect(r.body).toMatchObject({ issued: false, raw_status: '3', status: 'paid', tickets: [] });
    expect(r.body.payment.state).toBe('CAPTURED');
    const again = await as('POST', `${B()}/ticket`, { key: 'myst-ticket-1', body: {} });
    expect(again.body).toEqual(r.body);
  });

  it('ticket status is polled until issued; the booking is then ticketed and its documents read', async () => {
    const first = await as('GET', `${B()}/ticket/status`);
    check('getTicketStatus', first);
    expect([first.body.issued, first.body.raw_status]).toEqual([false, '3']);
    expect((await booking()).status).toBe('paid');
    let st = first;
    for (let i = 0; i < 5 && !st.body.issued; i++) st = await as('GET', `${B()}/ticket/status`);
    check('getTicketStatus', st);
    expect([st.body.issued, st.body.raw_status]).toEqual([true, '6']);
    expect((await booking()).status).toBe('ticketed');
    const d = await as('GET', `${B()}/ticket/document`);
    check('getTicketDocument', d);
    expect(d.body.tickets).toHaveLength(1);
    expect(d.body.tickets[0].coupons).toHaveLength((await booking()).flights.length);
    expect(d.body.tickets[0].coupons.every((c: { status: string }) => c.status === 'OPEN')).toBe(true);
    refused(
      'issueTickets',
      await as('POST', `${B()}/ticket`, { key: 'myst-ticket-2', body: {} }),
      'already_ticketed',
    );
  });

  it('servicing before any request: "No records found." is an empty list', async () => {
    const sv = await as('GET', `${B()}/servicing`);
    check('listServicingRequests', sv);
    expect(sv.body).toMatchObject({ items: [], message: 'No records found.' });
  });

  it('notes reach the supplier; what the consolidator does not take is refused', async () => {
    const n = await as('POST', `${B()}/notes`, { body: { notes: ['window seat please'] } });
    check('addBookingNotes', n);
    expect([n.body.success, n.body.notes_added]).toEqual([true, 1]);
    refused(
      'updateBookingFoid',
      await as('PATCH', `${B()}/foid`, { body: { number: 'A1234567' } }),
      'foid_unsupported',
    );
    refused(
      'updateBookingCommission',
      await as('PATCH', `${B()}/commission`, { body: { percentage: 5 } }),
      'commission_unsupported',
    );
    refused('getSeatMap', await as('GET', `${B()}/seats`), 'seats_unsupported');
  });

  it('quotes change nothing: void, refund and reissue; a reissue is never confirmed', async () => {
    for (const action of ['void', 'refund', 'reissue']) {
      const q = await as('POST', `${B()}/ticket/${action}`);
      check('performTicketAction', q);
      expect(q.body).toMatchObject({ action, confirmed: false, permitted: true, booking_status: 'ticketed' });
      expect(q.body.servicing_request_id).toBeTruthy();
    }
    const refund = await as('POST', `${B()}/ticket/refund`);
    expect(refund.body.refund.amount_minor).toBeGreaterThan(0);
    const re = await as('POST', `${B()}/ticket/reissue?confirm=true`);
    check('performTicketAction', re);
    expect([re.body.confirmed, re.body.determination]).toEqual([false, 'reissue_quote_only']);
    expect((await booking()).status).toBe('ticketed');
  });

  it('a confirmed void raises a request the consolidator works asynchronously', async () => {
    const c = await as('POST', `${B()}/ticket/void?confirm=true`, {});
    check('performTicketAction', c);
    expect(c.body).toMatchObject({ confirmed: true, permitted: true, determination: 'request_raised' });
    s.voidRequest = c.body.servicing_request_id;
    expect(s.voidRequest).toBeTruthy();
    // Raised, not done: the tickets stand until the consolidator completes the request.
    expect(c.body.booking_status).toBe('ticketed');
  });

  it('the servicing list follows the request to Completed; the document then shows the void', async () => {
    const order = ['Requested', 'InProcess', 'Completed'];
    const seen: string[] = [];
    s.trail = [];
    for (let i = 0; i < 5 && seen.at(-1) !== 'Completed'; i++) {
      const sv = await as('GET', `${B()}/servicing`);
      check('listServicingRequests', sv);
      const req = sv.body.items.find((x: { request_id: string }) => x.request_id === s.voidRequest);
      expect(req).toMatchObject({ type: 'void' });
      seen.push(req.state);
      s.trail.push(`${req.state}:${(await booking()).status}`);
    }
    expect(seen.at(-1)).toBe('Completed');
    expect(seen.map((x) => order.indexOf(x))).toEqual([...seen.map((x) => order.indexOf(x))].sort());
    const d = await as('GET', `${B()}/ticket/document`);
    check('getTicketDocument', d);
    expect(d.body.tickets[0].coupons.every((x: { status: string }) => x.status === 'VOID')).toBe(true);
  });

  it('the booking follows the ticket document once the consolidator completes the void', async () => {
    // Ticketed while the request is worked; the servicing read that sees it Completed voids the booking.
    expect(s.trail.at(-1)).toBe('Completed:cancelled');
    expect(s.trail.slice(0, -1).every((x) => x.endsWith(':ticketed'))).toBe(true);
    const st = await as('GET', `${B()}/ticket/status`);
    check('getTicketStatus', st);
    expect(st.body.raw_status).toBe('7');
    expect((await booking()).status).toBe('cancelled');
    refused('performTicketAction', await as('POST', `${B()}/ticket/void?confirm=true`), 'not_ticketed');
    // A void settles the tickets with the consolidator; the customer's money moves only by a refund.
    const h = await as('GET', `${B()}/payment/history`);
    check('getPaymentHistory', h);
    expect(h.body.payments.map((x: { state: string }) => x.state)).toEqual(['CAPTURED']);
    const r = await as('POST', `${B()}/payment/refund`, { key: 'myst-refund-1' });
    check('refundPayment', r);
    expect([r.body.state, r.body.refunded_minor]).toEqual(['REFUNDED', s.total]);
    expect((await booking()).status).toBe('refunded');
  });
});

describe('mystifly: a void completed while nobody reads the servicing list', () => {
  const v = {} as { bookingId: number; total: number; voidRequest: string };
  const V = () => `/api/v1/bookings/${v.bookingId}`;

  it('is followed by the ticket status reads', async () => {
    const companyId = await ctx.w.company();
    s.agent = await ctx.w.user({ companyId });
    const offers = await ctx.w.seedOffers('mystifly', { userId: s.agent.id, companyId });
    const hit = offers.find((o) => !o.offer.lcc && o.offer.refundable);
    const body = { offer_id: hit?.offer_id, currency, passengers: [passenger()], contact };
    const created = await as('POST', '/api/v1/bookings/createPnr', { key: 'myst-v-create', body });
    check('createPnr', created);
    v.bookingId = created.body.booking_id;
    v.total = created.body.pricing.total_minor;
    const auth = await as('POST', `${V()}/authorize`, {
      key: 'myst-v-auth',
      body: { token: 'tok_sandbox_ok', currency, amount_minor: v.total },
    });
    check('authorizePayment', auth);
    check('issueTickets', await as('POST', `${V()}/ticket`, { key: 'myst-v-ticket', body: {} }));
    for (let i = 0; i < 5 && (await as('GET', `${V()}/ticket/status`)).body.issued !== true; i++);
    expect((await as('GET', V())).body.status).toBe('ticketed');
    check('performTicketAction', await as('POST', `${V()}/ticket/void`));
    const c = await as('POST', `${V()}/ticket/void?confirm=true`);
    check('performTicketAction', c);
    expect(c.body).toMatchObject({ determination: 'request_raised', booking_status: 'ticketed' });
    // Half an hour on, the consolidator has worked the request without being asked (emulator clock).
    const mfRef = (await as('GET', V())).body.supplier_order_ref as string;
    const ptr = ctx.w.mocks.states.mystifly?.bookings.get(mfRef)?.ptrs.at(-1);
    expect(ptr?.id).toBe(c.body.servicing_request_id);
    if (ptr) ptr.createdAt -= 31 * 60_000;
    expect((await as('GET', V())).body.status).toBe('ticketed');
    const seen: string[] = [];
    for (let i = 0; i < 3 && !seen.at(-1)?.startsWith('7:'); i++) {
      const st = await as('GET', `${V()}/ticket/status`);
      check('getTicketStatus', st);
      seen.push(`${st.body.raw_status}:${(await as('GET', V())).body.status}`);
    }
    // Ticketed while the request is in process; voided by the read that sees the void done (7 Voided).
    expect(seen.at(-1)).toBe('7:cancelled');
    expect(seen.slice(0, -1).every((x) => x === '6:ticketed')).toBe(true);
    const d = await as('GET', `${V()}/ticket/document`);
    expect(d.body.tickets[0].coupons.every((x: { status: string }) => x.status === 'VOID')).toBe(true);
  });
});
