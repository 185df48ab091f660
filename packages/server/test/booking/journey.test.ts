/**
 * The scripted journey of issue 7 against the sandbox emulators, through the app's request dispatch:
 * search, revalidate, upsell, bags, createPnr (+ replay), authorize, capture, ticket, document, seats,
 * ancillary purchase and EMD, void quote, void confirm. Every body is checked against openapi.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServers } from '../../../mock-server/src/index.ts';
import { expectMatchesContract } from '../helpers/contract.ts';
import { contact, createWorld, passenger, startMocks, type World } from './harness.ts';

let mocks: MockServers;
let w: World;
let agent: { id: string; token: string };
let companyId: number;
let offerId: string;
let bookingId: number;
let pnr: string;
const B = () => `/api/v1/bookings/${bookingId}`;

beforeAll(async () => {
  mocks = await startMocks();
  w = await createWorld(mocks);
  companyId = await w.company();
  agent = await w.user({ role: 'company_staff', companyId });
});
afterAll(async () => {
  await w?.close();
  await mocks?.close();
});

const check = (op: string, r: { status: number; body: unknown }, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expectMatchesContract(op, r.status, r.body);
};

describe('flight booking journey (duffel + stripe sandbox)', () => {
  it('search: offers are stored server-side with their supplier ref', async () => {
    const offers = await w.seedOffers('duffel', { userId: agent.id, companyId });
    const full = offers.find((o) => !o.offer.lcc && o.offer.validating_carrier !== 'W6');
    expect(full).toBeDefined();
    offerId = full!.offer_id;
  });

  it('revalidates (verbose adds fare rules and bags)', async () => {
    const r = await w.req('POST', '/api/v1/bookings/revalidation?verbose=true', {
      token: agent.token,
      body: { offer_id: offerId, currency: 'GBP' },
    });
    check('revalidateOffer', r);
    expect(r.body.available).toBe(true);
    expect(typeof r.body.previous_total_minor).toBe('number');
    expect(Array.isArray(r.body.fare_rules)).toBe(true);
  });

  it('upsell: duffel has none, 400 upsell_unsupported', async () => {
    const r = await w.req('POST', '/api/v1/bookings/upsell', {
      token: agent.token,
      body: { offer_id: offerId, currency: 'GBP' },
    });
    check('getUpsellOffers', r, 400);
    expect(r.body.code).toBe('upsell_unsupported');
  });

  it('bags: catalogue, and a reprice whose total includes the bags', async () => {
    const cat = await w.req('POST', '/api/v1/bookings/bags/catalogue', {
      token: agent.token,
      body: { offer_id: offerId, currency: 'GBP' },
    });
    check('getBagCatalogue', cat);
    const bag = cat.body.bag_options[0];
    if (!bag) return;
    const r = await w.req('POST', '/api/v1/bookings/bags/reprice', {
      token: agent.token,
      body: {
        offer_id: offerId,
        currency: 'GBP',
        selections: [{ bag_option_id: bag.bag_option_id, quantity: 1 }],
      },
    });
    check('repriceWithBags', r);
    expect(r.body.bags_minor).toBe(bag.price.amount_minor);
    expect(r.body.offer.price.total_minor).toBe(cat.body.offer.price.total_minor + bag.price.amount_minor);
  });

  it('fare rules by offer; unknown offer 404, malformed 400', async () => {
    check(
      'getFareRules',
      await w.req('POST', '/api/v1/bookings/fareRules', { token: agent.token, body: { offer_id: offerId } }),
    );
    const nf = await w.req('POST', '/api/v1/bookings/fareRules', {
      token: agent.token,
      body: { offer_id: 'of_nope' },
    });
    expect([nf.status, nf.body.code]).toEqual([404, 'offer_not_found']);
    const bad = await w.req('POST', '/api/v1/bookings/fareRules', {
      token: agent.token,
      body: { offer_id: 'bad id!' },
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_offer_id']);
  });

  it('createPnr validates passengers (age vs type)', async () => {
    const r = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: 'k-invalid',
      body: {
        offer_id: offerId,
        currency: 'GBP',
        passengers: [passenger('RAHMAN', { date_of_birth: '2020-01-01' })],
        contact,
      },
    });
    check('createPnr', r, 400);
    expect(r.body.code).toBe('invalid_passenger');
  });

  it('createPnr requires an Idempotency-Key', async () => {
    const r = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      body: { offer_id: offerId, currency: 'GBP', passengers: [passenger()], contact },
    });
    expect(r.status).toBe(422);
  });

  it('createPnr books, and a replay with the same key returns the same booking', async () => {
    const body = {
      offer_id: offerId,
      currency: 'GBP',
      passengers: [passenger()],
      contact,
      payment_mode: 'PNR_FIRST',
      client_ref: 'my-ref-1',
    };
    const r = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: 'k-create-1',
      body,
    });
    check('createPnr', r);
    expect(r.body.status).toBe('confirmed');
    expect(r.body.pnr).toMatch(/^[A-Z0-9]{6}$/);
    bookingId = r.body.booking_id;
    pnr = r.body.pnr;
    const again = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: 'k-create-1',
      body,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(r.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const n = await w.database.db
      .withTables<{ flight_bookings: { id: number; client_ref: string } }>()
      .selectFrom('flight_bookings')
      .select('id')
      .where('client_ref', '=', 'my-ref-1')
      .execute();
    expect(n).toHaveLength(1);
  });

  it('reads the booking by id and by PNR; order by reference must be the own PNR', async () => {
    check('getBooking', await w.req('GET', B(), { token: agent.token }));
    const byPnr = await w.req('GET', `/api/v1/bookings/${pnr}`, { token: agent.token });
    expect(byPnr.body.booking_id).toBe(bookingId);
    check('getBookingOrder', await w.req('GET', `${B()}/order`, { token: agent.token }));
    check(
      'getBookingOrderByReference',
      await w.req('GET', `${B()}/order/by-reference?reference=${pnr}`, { token: agent.token }),
    );
    const mismatch = await w.req('GET', `${B()}/order/by-reference?reference=ZZZZZZ`, { token: agent.token });
    expect([mismatch.status, mismatch.body.code]).toEqual([400, 'reference_mismatch']);
    check('getBookingFareRules', await w.req('GET', `${B()}/rules`, { token: agent.token }));
  });

  it('commission: amount and percentage together is 400; notes on duffel are 501', async () => {
    const both = await w.req('PATCH', `${B()}/commission`, {
      token: agent.token,
      body: { amount: '10.00', percentage: 5 },
    });
    expect([both.status, both.body.code]).toEqual([400, 'amount_or_percentage_required']);
    const notes = await w.req('POST', `${B()}/notes`, { token: agent.token, body: { notes: ['hello'] } });
    expect(notes.status).toBe(501);
    const blank = await w.req('POST', `${B()}/notes`, { token: agent.token, body: { notes: ['  ', ''] } });
    expect([blank.status, blank.body.code]).toEqual([400, 'no_usable_notes']);
    const missing = await w.req('POST', '/api/v1/bookings/999999/notes', {
      token: agent.token,
      body: { notes: ['x'] },
    });
    expect([missing.status, missing.body.code]).toEqual([400, 'booking_not_found']);
  });

  it('ticketing before payment is refused: 400 payment_required', async () => {
    const r = await w.req('POST', `${B()}/ticket`, { token: agent.token, key: 'k-ticket-early', body: {} });
    expect([r.status, r.body.code]).toEqual([400, 'payment_required']);
  });

  it('authorize with a declined token: 400 payment_declined, recorded', async () => {
    const total = (await w.req('GET', B(), { token: agent.token })).body.pricing.total_minor;
    const r = await w.req('POST', `${B()}/authorize`, {
      token: agent.token,
      key: 'k-auth-decline',
      body: { token: 'tok_sandbox_decline', currency: 'GBP', amount_minor: total },
    });
    check('authorizePayment', r, 400);
    expect(r.body.code).toBe('payment_declined');
    expect((await w.req('GET', B(), { token: agent.token })).body.status).toBe('payment_failed');
  });

  it('authorize, capture', async () => {
    const total = (await w.req('GET', B(), { token: agent.token })).body.pricing.total_minor;
    const wrong = await w.req('POST', `${B()}/authorize`, {
      token: agent.token,
      key: 'k-auth-wrong',
      body: { token: 'tok_sandbox_ok', currency: 'GBP', amount_minor: total + 1 },
    });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'amount_mismatch']);
    const a = await w.req('POST', `${B()}/authorize`, {
      token: agent.token,
      key: 'k-auth-1',
      body: { token: 'tok_sandbox_ok', currency: 'GBP', amount_minor: total },
    });
    check('authorizePayment', a);
    expect(a.body.state).toBe('AUTHORIZED');
    expect((await w.req('GET', B(), { token: agent.token })).body.status).toBe('payment_pending');
    const again = await w.req('POST', `${B()}/authorize`, {
      token: agent.token,
      key: 'k-auth-2',
      body: { token: 'tok_sandbox_ok', currency: 'GBP', amount_minor: total },
    });
    expect([again.status, again.body.code]).toEqual([400, 'invalid_payment_state']);
    const refundEarly = await w.req('POST', `${B()}/payment/refund`, {
      token: agent.token,
      key: 'k-refund-early',
    });
    expect([refundEarly.status, refundEarly.body.code]).toEqual([400, 'not_captured']);
    const c = await w.req('POST', `${B()}/payment/capture`, { token: agent.token, key: 'k-capture-1' });
    check('capturePayment', c);
    expect(c.body.state).toBe('CAPTURED');
    expect(c.body.captured_minor).toBe(total);
    expect((await w.req('GET', B(), { token: agent.token })).body.status).toBe('paid');
    const c2 = await w.req('POST', `${B()}/payment/capture`, { token: agent.token, key: 'k-capture-2' });
    expect([c2.status, c2.body.code]).toEqual([400, 'invalid_payment_state']);
    const v = await w.req('POST', `${B()}/payment/void`, { token: agent.token, key: 'k-void-1' });
    expect([v.status, v.body.code]).toEqual([400, 'already_captured']);
  });

  it('tickets (the captured payment is left alone) and replays the same key', async () => {
    const r = await w.req('POST', `${B()}/ticket`, { token: agent.token, key: 'k-ticket-1', body: {} });
    check('issueTickets', r);
    expect(r.body.issued).toBe(true);
    expect(r.body.status).toBe('ticketed');
    expect(r.body.payment.state).toBe('CAPTURED');
    expect(r.body.payment.transactions.filter((t: { type: string }) => t.type === 'capture')).toHaveLength(1);
    const again = await w.req('POST', `${B()}/ticket`, { token: agent.token, key: 'k-ticket-1', body: {} });
    expect(again.body).toEqual(r.body);
    const other = await w.req('POST', `${B()}/ticket`, { token: agent.token, key: 'k-ticket-2', body: {} });
    expect([other.status, other.body.code]).toEqual([400, 'already_ticketed']);
  });

  it('document: one coupon per flight; status 501 on duffel; servicing 501', async () => {
    const d = await w.req('GET', `${B()}/ticket/document`, { token: agent.token });
    check('getTicketDocument', d);
    const flights = (await w.req('GET', B(), { token: agent.token })).body.flights.length;
    expect(d.body.tickets[0].coupons).toHaveLength(flights);
    expect((await w.req('GET', `${B()}/ticket/status`, { token: agent.token })).status).toBe(501);
    expect((await w.req('GET', `${B()}/servicing`, { token: agent.token })).status).toBe(501);
  });

  it('seats: map, a single seat, a batch with partial success', async () => {
    const m = await w.req('GET', `${B()}/seats`, { token: agent.token });
    check('getSeatMap', m);
    const map = m.body.seat_maps[0];
    if (!map) return;
    const free = map.rows
      .flatMap((r: { seats: { seat_number: string; available: boolean }[] }) => r.seats)
      .filter(
        (s: { available: boolean; seat_number: string }) => s.available && !s.seat_number.startsWith('7'),
      );
    const one = await w.req(
      'POST',
      `${B()}/seats?segment_id=${map.segment_id}&seat_number=${free[0].seat_number}&passenger_id=1`,
      { token: agent.token },
    );
    check('selectSeat', one);
    expect(one.body.accepted).toBe(true);
    const row7 = map.rows
      .find((r: { row: number }) => r.row === 7)
      ?.seats.find((s: { available: boolean }) => s.available);
    const batch = await w.req('POST', `${B()}/seats/batch`, {
      token: agent.token,
      body: {
        seats: [
          { segment_id: map.segment_id, seat_number: free[1].seat_number, passenger_id: '1' },
          ...(row7 ? [{ segment_id: map.segment_id, seat_number: row7.seat_number, passenger_id: '1' }] : []),
        ],
      },
    });
    check('selectSeatsBatch', batch);
    expect(batch.body.requested).toBe(row7 ? 2 : 1);
    const missingSeg = await w.req('POST', `${B()}/seats?segment_id=s99&seat_number=1A&passenger_id=1`, {
      token: agent.token,
    });
    expect([missingSeg.status, missingSeg.body.code]).toEqual([404, 'segment_not_found']);
    check('getBaggage', await w.req('GET', `${B()}/baggage`, { token: agent.token }));
  });

  it('ancillaries: catalogue, purchase (TSM per service), EMD issuance', async () => {
    const cat = await w.req('GET', `${B()}/ancillaries/catalogue?service_group=BG`, { token: agent.token });
    check('getAncillaryCatalogue', cat);
    const item = cat.body.items[0];
    expect(item).toBeDefined();
    const buy = await w.req('POST', `${B()}/ancillaries/purchase`, {
      token: agent.token,
      body: {
        products: [
          {
            customer_ref_ids: ['1'],
            code: item.code,
            rfic: item.rfic,
            rfisc: item.rfisc,
            booking_method: item.booking_method,
            provider: item.provider,
            segment_ref_ids: (item.segment_ids.length ? item.segment_ids : ['s1']).join(' '),
          },
        ],
      },
    });
    check('purchaseAncillaries', buy);
    expect(buy.body.tsm_references).toHaveLength(1);
    const emd = await w.req('POST', `${B()}/ancillaries/emd`, { token: agent.token, body: {} });
    check('issueAncillaryEmds', emd);
    expect(emd.body.emds[0].emd_number).toBeTruthy();
    expect(emd.body.ancillaries[0].status).toBe('issued');
    const none = await w.req('POST', `${B()}/ancillaries/emd`, { token: agent.token, body: {} });
    expect([none.status, none.body.code]).toEqual([400, 'no_pending_ancillaries']);
  });

  it('void: the quote changes nothing, the confirm voids and the booking follows the ticket', async () => {
    const q = await w.req('POST', `${B()}/ticket/void`, { token: agent.token });
    check('performTicketAction', q);
    expect(q.body.confirmed).toBe(false);
    expect((await w.req('GET', B(), { token: agent.token })).body.status).toBe('ticketed');
    const re = await w.req('POST', `${B()}/ticket/reissue?confirm=true`, { token: agent.token });
    check('performTicketAction', re);
    expect(re.body.determination).toBe('reissue_quote_only');
    const c = await w.req('POST', `${B()}/ticket/void?confirm=true`, { token: agent.token });
    check('performTicketAction', c);
    expect(c.body.confirmed).toBe(true);
    expect(c.body.permitted).toBe(true);
    expect(c.body.booking_status).toBe('cancelled');
    expect((await w.req('GET', B(), { token: agent.token })).body.status).toBe('cancelled');
  });

  it('payment history lists every movement; a partial then a full refund', async () => {
    const p1 = await w.req('POST', `${B()}/payment/refund?amount_minor=100`, {
      token: agent.token,
      key: 'k-refund-1',
    });
    check('refundPayment', p1);
    expect([p1.body.state, p1.body.refunded_minor]).toEqual(['CAPTURED', 100]);
    const tooMuch = await w.req('POST', `${B()}/payment/refund?amount_minor=999999999`, {
      token: agent.token,
      key: 'k-refund-x',
    });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([400, 'amount_exceeds_refundable']);
    const p2 = await w.req('POST', `${B()}/payment/refund`, { token: agent.token, key: 'k-refund-2' });
    expect(p2.body.state).toBe('REFUNDED');
    const h = await w.req('GET', `${B()}/payment/history`, { token: agent.token });
    check('getPaymentHistory', h);
    expect(h.body.transactions.map((t: { type: string; status: string }) => `${t.type}:${t.status}`)).toEqual(
      [
        'authorization:failed',
        'authorization:succeeded',
        'capture:succeeded',
        'refund:succeeded',
        'refund:succeeded',
      ],
    );
    expect((await w.req('GET', B(), { token: agent.token })).body.status).toBe('refunded');
  });

  it('admin: list, detail with payments, tickets and audit; override with a reason and a mail', async () => {
    const admin = await w.user({ role: 'super_admin' });
    const list = await w.req('GET', `/api/v1/admin/bookings?pnr=${pnr}`, { token: admin.token });
    check('adminListBookings', list);
    expect(list.body.items.map((b: { booking_id: number }) => b.booking_id)).toEqual([bookingId]);
    const d = await w.req('GET', `/api/v1/admin/bookings/${bookingId}`, { token: admin.token });
    check('adminGetBooking', d);
    expect(d.body.tickets.length).toBeGreaterThan(0);
    const o = await w.req('POST', `/api/v1/admin/bookings/${bookingId}/override-status`, {
      token: admin.token,
      body: { new_status: 'expired', reason: 'test override', notify_customer: true },
    });
    check('adminOverrideBookingStatus', o);
    expect(o.body.status).toBe('expired');
    expect(w.mailer.sent.at(-1)?.to).toBe(contact.email);
    const audit = (await w.req('GET', `/api/v1/admin/bookings/${bookingId}`, { token: admin.token })).body
      .audit_trail;
    expect(
      audit.some(
        (e: { event: string; details: { reason?: string } }) =>
          e.event === 'booking.status_overridden' && e.details.reason === 'test override',
      ),
    ).toBe(true);
    const notReconcilable = await w.req('POST', `/api/v1/admin/bookings/${bookingId}/reconcile`, {
      token: admin.token,
      body: {},
    });
    expect([notReconcilable.status, notReconcilable.body.code]).toEqual([400, 'not_reconcilable']);
  });
});
