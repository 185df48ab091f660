/**
 * The scripted journey of issue 7, one step list for every flight supplier: search, revalidate, upsell,
 * bags, createPnr (+ replay), authorize, capture, ticket, document, seats, ancillary purchase and EMD,
 * void quote, void confirm, refunds, the transitions a finished booking refuses, admin. What differs
 * between suppliers comes from the adapter's declared capabilities, or from the profile where it is a
 * sandbox fact (which offer, which seat the airline refuses). Every body is checked against openapi.json.
 */
import { describe, expect, it } from 'vitest';
import type { FlightOffer, FlightSupplierName, SupplierFlightOffer } from '../../src/suppliers/ports.ts';
import { check, refused } from './checks.ts';
import { contact, passenger, SANDBOX_ROUTES, type World } from './harness.ts';

type Seeded = { offer_id: string; offer: SupplierFlightOffer };
type SeatView = { seat_number: string; available: boolean };
type SeatMapView = { segment_id: string; rows: { row: number; seats: SeatView[] }[] };

export interface JourneyProfile {
  supplier: FlightSupplierName;
  /** The offer to start from, among those of a seeded search. */
  pick(offers: Seeded[]): Seeded | undefined;
  /** The branded-fare alternative to book, where the supplier upsells. */
  chooseUpsell?(alternatives: FlightOffer[]): FlightOffer | undefined;
  /**
   * When the bags of a bag offer reach the supplier's order: `with_pnr` on the order the PNR creates, or
   * `once_paid` where the supplier sells no services on a held order (Duffel): the booking remembers them,
   * prices them from the start, and they are added right after the hold is paid, at ticketing.
   */
  bagsOnOrder: 'with_pnr' | 'once_paid';
  /** Chargeable bags in the supplier's own order (`GET …/order` raw). */
  bagsInOrder(raw: Record<string, unknown>): number;
  /** A seat the sandbox airline refuses although the map may show it. */
  refusedSeat(map: SeatMapView): string | undefined;
}

const flightsOf = (o: { slices: { segments: { flight_number: string; departure_at: string }[] }[] }) =>
  o.slices.flatMap((s) => s.segments.map((g) => `${g.flight_number}@${g.departure_at}`));

export function flightJourney(p: JourneyProfile, ctx: { w: World }) {
  const { currency } = SANDBOX_ROUTES[p.supplier];
  const s = {} as {
    agent: { id: string; token: string };
    companyId: number;
    searched: Seeded;
    offerId: string;
    bagged: { offer_id: string; bags_minor: number; total_minor: number };
    bookingId: number;
    pnr: string;
    total: number;
  };
  const w = () => ctx.w;
  const caps = () => {
    const f = w().suppliers.flight(p.supplier);
    if (!f) throw new Error(`${p.supplier} is not in the sandbox`);
    return f.capabilities;
  };
  const B = () => `/api/v1/bookings/${s.bookingId}`;
  const as = (method: string, path: string, o: { body?: unknown; key?: string } = {}) =>
    w().req(method, path, { token: s.agent.token, ...o });
  const booking = async () => (await as('GET', B())).body;

  describe(`flight booking journey (${p.supplier} + stripe sandbox)`, () => {
    it('search: offers are stored server-side with their supplier ref', async () => {
      s.companyId = await w().company();
      s.agent = await w().user({ role: 'company_staff', companyId: s.companyId });
      const offers = await w().seedOffers(p.supplier, { userId: s.agent.id, companyId: s.companyId });
      const hit = p.pick(offers);
      expect(hit).toBeDefined();
      s.searched = hit as Seeded;
      s.offerId = s.searched.offer_id;
    });

    it('revalidates (verbose adds fare rules and bags)', async () => {
      const r = await as('POST', '/api/v1/bookings/revalidation?verbose=true', {
        body: { offer_id: s.offerId, currency },
      });
      check('revalidateOffer', r);
      expect(r.body.available).toBe(true);
      expect(r.body.offer.offer_id).toBe(s.offerId);
      expect(typeof r.body.previous_total_minor).toBe('number');
      expect(Array.isArray(r.body.fare_rules)).toBe(true);
    });

    it('upsell: branded-fare alternatives where the supplier has them, and the chosen one prices', async () => {
      const r = await as('POST', '/api/v1/bookings/upsell', { body: { offer_id: s.offerId, currency } });
      if (!caps().upsell) {
        refused('getUpsellOffers', r, 'upsell_unsupported');
        return;
      }
      check('getUpsellOffers', r);
      expect(r.body.offer_id).toBe(s.offerId);
      const alts = r.body.alternatives as FlightOffer[];
      expect(alts.length).toBeGreaterThan(1);
      expect(new Set(alts.map((a) => a.fare_brand)).size).toBe(alts.length);
      for (const a of alts) {
        expect(a.offer_id).not.toBe(s.offerId);
        expect(flightsOf(a)).toEqual(flightsOf(s.searched.offer));
      }
      const chosen = p.chooseUpsell?.(alts);
      expect(chosen).toBeDefined();
      const rv = await as('POST', '/api/v1/bookings/revalidation', {
        body: { offer_id: chosen?.offer_id, currency },
      });
      check('revalidateOffer', rv);
      expect(rv.body).toMatchObject({
        available: true,
        price_changed: false,
        previous_total_minor: chosen?.price.total_minor,
      });
      expect(rv.body.offer).toMatchObject({ offer_id: chosen?.offer_id, fare_brand: chosen?.fare_brand });
      s.offerId = chosen?.offer_id as string;
    });

    it('bags: catalogue, and a reprice into a new offer whose total includes the bags', async () => {
      const cat = await as('POST', '/api/v1/bookings/bags/catalogue', {
        body: { offer_id: s.offerId, currency },
      });
      check('getBagCatalogue', cat);
      const bag = cat.body.bag_options[0];
      expect(bag).toBeDefined();
      const reprice = (offer_id: string, selections: unknown[]) =>
        as('POST', '/api/v1/bookings/bags/reprice', { body: { offer_id, currency, selections } });
      refused(
        'repriceWithBags',
        await reprice(s.offerId, [{ bag_option_id: 'nope', quantity: 1 }]),
        'invalid_bag_selection',
      );
      refused('repriceWithBags', await reprice(s.offerId, [{ quantity: 1 }]), 'invalid_bag_selection');
      const r = await reprice(s.offerId, [{ bag_option_id: bag.bag_option_id, quantity: 1 }]);
      check('repriceWithBags', r);
      expect(r.body.bags_minor).toBe(bag.price.amount_minor);
      expect(r.body.offer.price.total_minor).toBe(cat.body.offer.price.total_minor + bag.price.amount_minor);
      expect(r.body.offer.offer_id).not.toBe(s.offerId);
      // A new choice on the bag offer starts again from the offer the bags were put on: it replaces.
      const again = await reprice(r.body.offer.offer_id, [{ bag_option_id: bag.bag_option_id, quantity: 1 }]);
      check('repriceWithBags', again);
      expect(again.body.offer.price.total_minor).toBe(r.body.offer.price.total_minor);
      const rv = await as('POST', '/api/v1/bookings/revalidation?verbose=true', {
        body: { offer_id: r.body.offer.offer_id, currency },
      });
      check('revalidateOffer', rv);
      expect(rv.body).toMatchObject({ available: true, price_changed: false });
      expect(rv.body.offer.price.total_minor).toBe(r.body.offer.price.total_minor);
      s.bagged = {
        offer_id: r.body.offer.offer_id,
        bags_minor: r.body.bags_minor,
        total_minor: r.body.offer.price.total_minor,
      };
      s.offerId = s.bagged.offer_id;
    });

    it('fare rules by offer; unknown offer 404, malformed 400', async () => {
      check(
        'getFareRules',
        await as('POST', '/api/v1/bookings/fareRules', { body: { offer_id: s.offerId } }),
      );
      refused(
        'getFareRules',
        await as('POST', '/api/v1/bookings/fareRules', { body: { offer_id: 'of_nope' } }),
        'offer_not_found',
        404,
      );
      refused(
        'getFareRules',
        await as('POST', '/api/v1/bookings/fareRules', { body: { offer_id: 'bad id!' } }),
        'invalid_offer_id',
      );
    });

    it('createPnr validates passengers (age vs type)', async () => {
      const r = await as('POST', '/api/v1/bookings/createPnr', {
        key: `${p.supplier}-invalid`,
        body: {
          offer_id: s.offerId,
          currency,
          passengers: [passenger('RAHMAN', { date_of_birth: '2020-01-01' })],
          contact,
        },
      });
      refused('createPnr', r, 'invalid_passenger');
    });

    it('createPnr requires an Idempotency-Key', async () => {
      const r = await as('POST', '/api/v1/bookings/createPnr', {
        body: { offer_id: s.offerId, currency, passengers: [passenger()], contact },
      });
      expect(r.status).toBe(422);
    });

    it('createPnr books (with the chosen bags), and a replay with the same key returns the same booking', async () => {
      const clientRef = `${p.supplier}-ref-1`;
      const body = {
        offer_id: s.offerId,
        currency,
        passengers: [passenger()],
        contact,
        payment_mode: 'PNR_FIRST',
        client_ref: clientRef,
      };
      const key = `${p.supplier}-create-1`;
      const r = await as('POST', '/api/v1/bookings/createPnr', { key, body });
      check('createPnr', r);
      expect(r.body.status).toBe('confirmed');
      expect(r.body.pnr).toMatch(/^[A-Z0-9]{6}$/);
      expect(r.body.offer_id).toBe(s.offerId);
      const pr = r.body.pricing;
      expect(pr.base_minor + pr.taxes_minor + pr.markup_minor + pr.bags_minor).toBe(pr.total_minor);
      // The bags are priced into the booking from the start, whenever the supplier takes them.
      expect(pr.bags_minor).toBe(s.bagged.bags_minor);
      expect(pr.bags_minor).toBeGreaterThan(0);
      expect(pr.total_minor).toBe(s.bagged.total_minor);
      s.bookingId = r.body.booking_id;
      s.pnr = r.body.pnr;
      s.total = pr.total_minor;
      const again = await as('POST', '/api/v1/bookings/createPnr', { key, body });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(r.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const n = await w()
        .database.db.withTables<{ flight_bookings: { id: number; client_ref: string } }>()
        .selectFrom('flight_bookings')
        .select('id')
        .where('client_ref', '=', clientRef)
        .execute();
      expect(n).toHaveLength(1);
    });

    it('reads the booking by id and by PNR; the supplier order carries the bags (or will, once paid)', async () => {
      check('getBooking', await as('GET', B()));
      const byPnr = await as('GET', `/api/v1/bookings/${s.pnr}`);
      expect(byPnr.body.booking_id).toBe(s.bookingId);
      const o = await as('GET', `${B()}/order`);
      check('getBookingOrder', o);
      const pricing = (await booking()).pricing;
      const later = p.bagsOnOrder === 'once_paid';
      expect(o.body.total.amount_minor).toBe(
        pricing.total_minor - pricing.markup_minor - (later ? pricing.bags_minor : 0),
      );
      expect(p.bagsInOrder(o.body.raw)).toBe(later ? 0 : 1);
      const bags = await as('GET', `${B()}/baggage`);
      check('getBaggage', bags);
      expect(bags.body.purchased_bags).toEqual([
        expect.objectContaining({
          bought_with: 'booking',
          ancillary_id: null,
          status: later ? 'pending' : 'held',
          quantity: 1,
          price: { currency, amount_minor: s.bagged.bags_minor },
        }),
      ]);
      check('getBookingOrderByReference', await as('GET', `${B()}/order/by-reference?reference=${s.pnr}`));
      refused(
        'getBookingOrderByReference',
        await as('GET', `${B()}/order/by-reference?reference=ZZZZZZ`),
        'reference_mismatch',
      );
      check('getBookingFareRules', await as('GET', `${B()}/rules`));
    });

    it('commission, FOID and notes, as far as the supplier takes them', async () => {
      refused(
        'updateBookingCommission',
        await as('PATCH', `${B()}/commission`, { body: { amount: '10.00', percentage: 5 } }),
        'amount_or_percentage_required',
      );
      const commission = await as('PATCH', `${B()}/commission`, { body: { percentage: 5 } });
      if (caps().commission) {
        check('updateBookingCommission', commission);
        expect(commission.body.success).toBe(true);
      } else refused('updateBookingCommission', commission, 'commission_unsupported');
      const foid = await as('PATCH', `${B()}/foid`, {
        body: { number: 'A1234567', identification_type: 'passport', traveler_ids: ['1'] },
      });
      if (caps().foid) {
        check('updateBookingFoid', foid);
        expect(foid.body.success).toBe(true);
      } else refused('updateBookingFoid', foid, 'foid_unsupported');
      const notes = await as('POST', `${B()}/notes`, { body: { notes: ['hello', ' '] } });
      if (caps().notes) {
        check('addBookingNotes', notes);
        expect([notes.body.success, notes.body.notes_added]).toEqual([true, 1]);
      } else refused('addBookingNotes', notes, 'not_supported_by_provider', 501);
      refused(
        'addBookingNotes',
        await as('POST', `${B()}/notes`, { body: { notes: ['  ', ''] } }),
        'no_usable_notes',
      );
      refused(
        'addBookingNotes',
        await as('POST', '/api/v1/bookings/999999/notes', { body: { notes: ['x'] } }),
        'booking_not_found',
      );
    });

    it('ticketing before payment is refused: 400 payment_required', async () => {
      refused(
        'issueTickets',
        await as('POST', `${B()}/ticket`, { key: `${p.supplier}-ticket-early`, body: {} }),
        'payment_required',
      );
    });

    it('authorize with a declined token: 400 payment_declined, recorded', async () => {
      const r = await as('POST', `${B()}/authorize`, {
        key: `${p.supplier}-auth-decline`,
        body: { token: 'tok_sandbox_decline', currency, amount_minor: s.total },
      });
      refused('authorizePayment', r, 'payment_declined');
      expect((await booking()).status).toBe('payment_failed');
    });

    it('authorize, capture; every refused payment move answers 400 with its code', async () => {
      refused(
        'authorizePayment',
        await as('POST', `${B()}/authorize`, {
          key: `${p.supplier}-auth-wrong`,
          body: { token: 'tok_sandbox_ok', currency, amount_minor: s.total + 1 },
        }),
        'amount_mismatch',
      );
      const a = await as('POST', `${B()}/authorize`, {
        key: `${p.supplier}-auth-1`,
        body: { token: 'tok_sandbox_ok', currency, amount_minor: s.total },
      });
      check('authorizePayment', a);
      expect(a.body.state).toBe('AUTHORIZED');
      expect(a.body.amount_minor).toBe(s.total);
      expect((await booking()).status).toBe('payment_pending');
      refused(
        'authorizePayment',
        await as('POST', `${B()}/authorize`, {
          key: `${p.supplier}-auth-2`,
          body: { token: 'tok_sandbox_ok', currency, amount_minor: s.total },
        }),
        'invalid_payment_state',
      );
      refused(
        'refundPayment',
        await as('POST', `${B()}/payment/refund`, { key: `${p.supplier}-refund-early` }),
        'not_captured',
      );
      const c = await as('POST', `${B()}/payment/capture`, { key: `${p.supplier}-capture-1` });
      check('capturePayment', c);
      expect(c.body.state).toBe('CAPTURED');
      expect(c.body.captured_minor).toBe(s.total);
      expect((await booking()).status).toBe('paid');
      refused(
        'capturePayment',
        await as('POST', `${B()}/payment/capture`, { key: `${p.supplier}-capture-2` }),
        'invalid_payment_state',
      );
      refused(
        'voidPayment',
        await as('POST', `${B()}/payment/void`, { key: `${p.supplier}-void-1` }),
        'already_captured',
      );
    });

    it('tickets (the captured payment is left alone) and replays the same key', async () => {
      const key = `${p.supplier}-ticket-1`;
      const r = await as('POST', `${B()}/ticket`, { key, body: {} });
      check('issueTickets', r);
      expect(r.body.issued).toBe(true);
      expect(r.body.status).toBe('ticketed');
      expect(r.body.payment.state).toBe('CAPTURED');
      expect(r.body.payment.transactions.filter((t: { type: string }) => t.type === 'capture')).toHaveLength(
        1,
      );
      const again = await as('POST', `${B()}/ticket`, { key, body: {} });
      expect(again.body).toEqual(r.body);
      refused(
        'issueTickets',
        await as('POST', `${B()}/ticket`, { key: `${p.supplier}-ticket-2`, body: {} }),
        'already_ticketed',
      );
    });

    it('after ticketing the bags booked with the PNR are on the supplier order, paid within the total', async () => {
      const o = await as('GET', `${B()}/order`);
      check('getBookingOrder', o);
      expect(p.bagsInOrder(o.body.raw)).toBe(1);
      const pricing = (await booking()).pricing;
      expect(o.body.total.amount_minor).toBe(pricing.total_minor - pricing.markup_minor);
      const bags = await as('GET', `${B()}/baggage`);
      check('getBaggage', bags);
      expect(bags.body.purchased_bags).toEqual([
        expect.objectContaining({ bought_with: 'booking', status: 'issued', quantity: 1 }),
      ]);
    });

    it('document: one coupon per flight; ticket status and servicing as the supplier exposes them', async () => {
      const d = await as('GET', `${B()}/ticket/document`);
      check('getTicketDocument', d);
      expect(d.body.tickets[0].coupons).toHaveLength((await booking()).flights.length);
      expect(d.body.tickets[0].coupons.every((c: { status: string }) => c.status === 'OPEN')).toBe(true);
      const st = await as('GET', `${B()}/ticket/status`);
      if (caps().ticketStatus) {
        check('getTicketStatus', st);
        expect(st.body.issued).toBe(true);
      } else refused('getTicketStatus', st, 'not_supported_by_provider', 501);
      const sv = await as('GET', `${B()}/servicing`);
      if (caps().servicing) check('listServicingRequests', sv);
      else refused('listServicingRequests', sv, 'not_supported_by_provider', 501);
    });

    it('seats: map, a single seat, a batch with partial success, paid seats priced', async () => {
      const m = await as('GET', `${B()}/seats`);
      check('getSeatMap', m);
      const map = m.body.seat_maps[0] as SeatMapView;
      expect(map).toBeDefined();
      const refuse = p.refusedSeat(map) as string;
      expect(refuse, 'a seat the sandbox airline refuses').toBeDefined();
      // Free seats, away from the row the airline refuses.
      const refusedRow = Number.parseInt(refuse, 10);
      const free = map.rows
        .filter((r) => r.row !== refusedRow)
        .flatMap((r) => r.seats)
        .filter((x) => x.available);
      const one = await as(
        'POST',
        `${B()}/seats?segment_id=${map.segment_id}&seat_number=${free[0]?.seat_number}&passenger_id=1`,
      );
      check('selectSeat', one);
      expect(one.body.accepted).toBe(true);
      const seats = [
        { segment_id: map.segment_id, seat_number: free[1]?.seat_number, passenger_id: '1' },
        { segment_id: map.segment_id, seat_number: refuse, passenger_id: '1' },
      ];
      const batch = await as('POST', `${B()}/seats/batch`, { body: { seats } });
      check('selectSeatsBatch', batch);
      expect([batch.body.requested, batch.body.stored]).toEqual([2, 1]);
      expect(batch.body.results.find((x: { seat_number: string }) => x.seat_number === refuse)).toMatchObject(
        { accepted: false, status: 'refused' },
      );
      const pending = [one.body, ...batch.body.results].some(
        (x: { status: string }) => x.status === 'pending',
      );
      const issue = await as('POST', `${B()}/seats/issue`);
      if (pending) {
        check('issueSeats', issue);
        expect(issue.body.priced.length).toBeGreaterThan(0);
      } else refused('issueSeats', issue, 'no_pending_seats');
      refused(
        'selectSeat',
        await as('POST', `${B()}/seats?segment_id=s99&seat_number=1A&passenger_id=1`),
        'segment_not_found',
        404,
      );
      check('getBaggage', await as('GET', `${B()}/baggage`));
    });

    it('ancillaries: catalogue, purchase (TSM per service), EMD issuance', async () => {
      const cat = await as('GET', `${B()}/ancillaries/catalogue?service_group=BG`);
      check('getAncillaryCatalogue', cat);
      const item = cat.body.items[0];
      expect(item).toBeDefined();
      const buy = await as('POST', `${B()}/ancillaries/purchase`, {
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
      const emd = await as('POST', `${B()}/ancillaries/emd`, { body: {} });
      check('issueAncillaryEmds', emd);
      expect(emd.body.emds[0].emd_number).toBeTruthy();
      expect(emd.body.ancillaries[0].status).toBe('issued');
      refused(
        'issueAncillaryEmds',
        await as('POST', `${B()}/ancillaries/emd`, { body: {} }),
        'no_pending_ancillaries',
      );
      // The baggage view lists both bags: the one booked with the PNR and the one bought as an ancillary.
      const bags = await as('GET', `${B()}/baggage`);
      check('getBaggage', bags);
      const bought = bags.body.purchased_bags as { bought_with: string; ancillary_id: number | null }[];
      expect(bought.map((x) => x.bought_with)).toEqual(['booking', 'ancillary']);
      expect(bought[1]?.ancillary_id).toBe(emd.body.ancillaries[0].ancillary_id);
    });

    it('a partial refund through payment/refund; more than is refundable is refused', async () => {
      const p1 = await as('POST', `${B()}/payment/refund?amount_minor=100`, {
        key: `${p.supplier}-refund-1`,
      });
      check('refundPayment', p1);
      expect([p1.body.state, p1.body.refunded_minor]).toEqual(['CAPTURED', 100]);
      refused(
        'refundPayment',
        await as('POST', `${B()}/payment/refund?amount_minor=999999999`, { key: `${p.supplier}-refund-x` }),
        'amount_exceeds_refundable',
      );
      expect((await booking()).status).toBe('ticketed');
    });

    it('void: the quote changes nothing; the confirm voids, the booking follows the ticket and the card gets the rest back', async () => {
      const q = await as('POST', `${B()}/ticket/void`);
      check('performTicketAction', q);
      expect([q.body.confirmed, q.body.permitted, q.body.payment]).toEqual([false, true, null]);
      expect((await booking()).status).toBe('ticketed');
      const re = await as('POST', `${B()}/ticket/reissue?confirm=true`);
      check('performTicketAction', re);
      expect(re.body.determination).toBe('reissue_quote_only');
      const c = await as('POST', `${B()}/ticket/void?confirm=true`);
      check('performTicketAction', c);
      expect([c.body.confirmed, c.body.permitted]).toEqual([true, true]);
      // The same operation gave back what was still captured (the total less the 100 refunded before).
      expect(c.body.payment).toEqual({
        action: 'refund',
        amount_minor: s.total - 100,
        currency,
        status: 'succeeded',
      });
      expect(c.body.booking_status).toBe('refunded');
      expect((await booking()).status).toBe('refunded');
      const d = await as('GET', `${B()}/ticket/document`);
      expect(d.body.tickets[0].coupons.every((x: { status: string }) => x.status === 'VOID')).toBe(true);
      const h = await as('GET', `${B()}/payment/history`);
      check('getPaymentHistory', h);
      expect(
        h.body.transactions.map(
          (t: { type: string; status: string; amount_minor: number }) =>
            `${t.type}:${t.status}:${t.type === 'refund' ? t.amount_minor : ''}`,
        ),
      ).toEqual([
        'authorization:failed:',
        'authorization:succeeded:',
        'capture:succeeded:',
        'refund:succeeded:100',
        `refund:succeeded:${s.total - 100}`,
      ]);
      expect([h.body.payments.at(-1).state, h.body.payments.at(-1).refunded_minor]).toEqual([
        'REFUNDED',
        s.total,
      ]);
      // The card emulator returned the money: its refunds of the booking's PaymentIntent add up to the total.
      const st = w().mocks.states.stripe;
      if (!st) throw new Error('no stripe emulator');
      const pis = new Set(
        [...st.paymentIntents.values()]
          .filter((x) => x.metadata.booking_id === String(s.bookingId))
          .map((x) => x.id),
      );
      const refundsOfBooking = () => [...st.refunds.values()].filter((r) => pis.has(r.payment_intent));
      const back = refundsOfBooking()
        .filter((r) => r.status === 'succeeded')
        .reduce((n, r) => n + Number(r.amount), 0);
      expect(back).toBe(s.total);
      // A second confirm is refused (no ticket left) and moves no money.
      refused('performTicketAction', await as('POST', `${B()}/ticket/void?confirm=true`), 'not_ticketed');
      expect(refundsOfBooking()).toHaveLength(2);
    });

    it('a refunded booking refuses every further move with 400 and its code', async () => {
      const k = (n: string) => ({ key: `${p.supplier}-late-${n}` });
      refused(
        'issueTickets',
        await as('POST', `${B()}/ticket`, { ...k('ticket'), body: {} }),
        'invalid_booking_state',
      );
      refused(
        'authorizePayment',
        await as('POST', `${B()}/authorize`, {
          ...k('auth'),
          body: { token: 'tok_sandbox_ok', currency, amount_minor: s.total },
        }),
        'invalid_booking_state',
      );
      refused('cancelBooking', await as('POST', `${B()}/cancel`), 'invalid_booking_state');
      refused('performTicketAction', await as('POST', `${B()}/ticket/refund?confirm=true`), 'not_ticketed');
      refused(
        'capturePayment',
        await as('POST', `${B()}/payment/capture`, k('capture')),
        'invalid_payment_state',
      );
      refused('voidPayment', await as('POST', `${B()}/payment/void`, k('void')), 'invalid_payment_state');
      refused(
        'refundPayment',
        await as('POST', `${B()}/payment/refund`, k('refund')),
        'invalid_payment_state',
      );
      expect((await booking()).status).toBe('refunded');
    });

    it('admin: list, detail with payments, tickets and audit; override with a reason and a mail', async () => {
      const admin = await w().user({ role: 'super_admin' });
      const list = await w().req('GET', `/api/v1/admin/bookings?pnr=${s.pnr}`, { token: admin.token });
      check('adminListBookings', list);
      expect(list.body.items.map((b: { booking_id: number }) => b.booking_id)).toEqual([s.bookingId]);
      const d = await w().req('GET', `/api/v1/admin/bookings/${s.bookingId}`, { token: admin.token });
      check('adminGetBooking', d);
      expect(d.body.tickets.length).toBeGreaterThan(0);
      const o = await w().req('POST', `/api/v1/admin/bookings/${s.bookingId}/override-status`, {
        token: admin.token,
        body: { new_status: 'expired', reason: 'test override', notify_customer: true },
      });
      check('adminOverrideBookingStatus', o);
      expect(o.body.status).toBe('expired');
      expect(w().mailer.sent.at(-1)?.to).toBe(contact.email);
      const audit = (await w().req('GET', `/api/v1/admin/bookings/${s.bookingId}`, { token: admin.token }))
        .body.audit_trail;
      expect(
        audit.some(
          (e: { event: string; details: { reason?: string } }) =>
            e.event === 'booking.status_overridden' && e.details.reason === 'test override',
        ),
      ).toBe(true);
      refused(
        'adminReconcileBooking',
        await w().req('POST', `/api/v1/admin/bookings/${s.bookingId}/reconcile`, {
          token: admin.token,
          body: {},
        }),
        'not_reconcilable',
      );
    });
  });
}
