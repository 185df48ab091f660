import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amadeusHandlers } from '../../../mock-server/src/suppliers/amadeus/handlers.ts';
import { AmadeusFlightAdapter } from '../../src/suppliers/amadeus/index.ts';
import { AmadeusTransfersAdapter } from '../../src/suppliers/amadeus-transfers/index.ts';
import type { SupplierFlightOffer } from '../../src/suppliers/ports/flight.ts';
import {
  baseFlightQuery,
  clientRef,
  conformancePassenger,
  flightSupplierConformance,
  kindOf,
} from './flight-conformance.ts';
import { transferSupplierConformance } from './transfer-conformance.ts';

/**
 * The Amadeus adapters, through the official `amadeus` client, against the Amadeus emulator in-process
 * (msw/node intercepts the client's node:http requests). Shared port suites first, then every trigger.
 */

const BASE = 'http://amadeus.emulator.test';
let now = Date.parse('2026-11-01T10:00:00Z');
const clock = () => now;
const { handlers, state } = amadeusHandlers({
  baseUrl: BASE,
  seed: 42,
  latencyMs: 0,
  clock,
  credentials: [{ clientId: 'conf-id', clientSecret: 'conf-secret' }],
});
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const cfg = { clientId: 'conf-id', clientSecret: 'conf-secret', baseUrl: BASE, timeoutMs: 1_500, now: clock };
const flights = () => new AmadeusFlightAdapter(cfg);

flightSupplierConformance('amadeus', flights);
transferSupplierConformance('amadeus_transfers', () => new AmadeusTransfersAdapter(cfg));

describe('Amadeus triggers and knobs', () => {
  const contact = { email: 'adam@example.com', phone: '+447700900123' };
  async function offerTo(destination: string): Promise<SupplierFlightOffer> {
    const a = flights();
    const [o] = await a.search({
      ...baseFlightQuery,
      legs: [{ origin: 'LHR', destination, departureDate: '2026-12-20' }],
    });
    return o as SupplierFlightOffer;
  }
  async function bookAs(lastName: string, offer?: SupplierFlightOffer) {
    const a = flights();
    const o = offer ?? (await a.price(await offerTo('DXB'), {})).offer;
    return a.createOrder({
      offer: o,
      passengers: [conformancePassenger(lastName)],
      contact,
      hold: true,
      client_reference: clientRef('trg'),
    });
  }

  it('bad credentials are auth_failed', async () => {
    const a = new AmadeusFlightAdapter({ ...cfg, clientSecret: 'wrong' });
    expect(await kindOf(a.search(baseFlightQuery))).toBe('auth_failed');
  });

  it('an expired token (emulator clock) is refreshed transparently', async () => {
    const a = flights();
    await a.search(baseFlightQuery);
    now += 31 * 60_000;
    expect((await a.search(baseFlightQuery)).length).toBeGreaterThan(0);
  });

  it('route XPC: pricing answers a higher price; booking the unpriced offer is price_changed', async () => {
    const a = flights();
    const offer = await offerTo('XPC');
    const priced = await a.price(offer, {});
    expect(priced.price_changed).toBe(true);
    expect(priced.offer.price.total_minor).toBeGreaterThan(offer.price.total_minor);
    expect(await kindOf(bookAs('Smith', offer))).toBe('price_changed');
    expect((await bookAs('Smith', priced.offer)).order_ref).toBeTruthy();
  });

  it('knob priceDriftPercent changes the price at pricing', async () => {
    const a = flights();
    const offer = await offerTo('DOH');
    state.knobs.priceDriftPercent = 5;
    try {
      expect((await a.price(offer, {})).price_changed).toBe(true);
    } finally {
      state.knobs.priceDriftPercent = 0;
    }
  });

  it('route XSO and last name SOLDOUT are sold_out', async () => {
    expect(await kindOf(flights().price(await offerTo('XSO'), {}))).toBe('sold_out');
    expect(await kindOf(bookAs('SOLDOUT'))).toBe('sold_out');
  });

  it('last name TIMEOUT: the create times out after creating (unknown_outcome, then found)', async () => {
    const a = flights();
    const ref = clientRef('timeout');
    const offer = (await a.price(await offerTo('DXB'), {})).offer;
    const p = a.createOrder({
      offer,
      passengers: [conformancePassenger('TIMEOUT')],
      contact,
      hold: true,
      client_reference: ref,
    });
    expect(await kindOf(p)).toBe('unknown_outcome');
    expect(await a.findOrderByClientReference(ref)).not.toBeNull();
  });

  it('5xx and connection reset knobs: unavailable on reads, unknown_outcome on create', async () => {
    const a = flights();
    state.armFault('5xx', { path: '/v2/shopping/flight-offers' });
    expect(await kindOf(a.search(baseFlightQuery))).toBe('unavailable');
    state.armFault('reset', { path: '/v2/shopping/flight-offers' });
    expect(await kindOf(a.search(baseFlightQuery))).toBe('unavailable');
    const offer = (await a.price(await offerTo('DXB'), {})).offer;
    state.armFault('5xx', { path: '/v1/booking/flight-orders' });
    expect(
      await kindOf(
        a.createOrder({
          offer,
          passengers: [conformancePassenger('Smith')],
          contact,
          hold: true,
          client_reference: clientRef('x'),
        }),
      ),
    ).toBe('unknown_outcome');
  });

  it('fare rules, bags and upsell brands', async () => {
    const a = flights();
    const offer = await offerTo('DXB');
    const priced = await a.price(offer, { bags: true, fareRules: true });
    expect(priced.fare_rules?.length).toBeGreaterThan(0);
    expect(priced.bag_options?.length).toBeGreaterThan(0);
    expect((await a.fareRules(offer)).length).toBeGreaterThan(0);
    const withBags = await a.repriceWithBags(priced.offer, [{ quantity: 1 }]);
    expect(withBags.offer.price.total_minor).toBeGreaterThan(priced.offer.price.total_minor);
    const brands = await a.upsell(offer);
    expect(brands.map((b) => b.fare_brand)).toEqual(['LIGHT', 'CLASSIC', 'FLEX']);
  });

  it('void inside the window is permitted and confirmed; VOIDEXP and an advanced clock expire it', async () => {
    const a = flights();
    const o = await bookAs('Void');
    await a.issueTicket(o.order_ref, o.total);
    const done = await a.ticketAction(o.order_ref, 'void', true, undefined);
    expect(done).toMatchObject({ permitted: true, confirmed: true, coupon_status: 'VOID' });
    const x = await bookAs('VOIDEXP');
    await a.issueTicket(x.order_ref, x.total);
    expect((await a.ticketAction(x.order_ref, 'void', false, undefined)).determination).toBe(
      'void_window_expired',
    );
    const y = await bookAs('Later');
    await a.issueTicket(y.order_ref, y.total);
    now += 25 * 3_600_000;
    expect((await a.ticketAction(y.order_ref, 'void', false, undefined)).determination).toBe(
      'void_window_expired',
    );
  });

  it('NONREF is non_refundable; a refundable fare refunds with a fee', async () => {
    const a = flights();
    const o = await bookAs('NONREF');
    await a.issueTicket(o.order_ref, o.total);
    expect((await a.ticketAction(o.order_ref, 'refund', false, undefined)).determination).toBe(
      'non_refundable',
    );
    const flex = (await a.upsell(await offerTo('DXB'))).find(
      (b) => b.fare_brand === 'FLEX',
    ) as SupplierFlightOffer;
    const r = await bookAs('Refund', flex);
    await a.issueTicket(r.order_ref, r.total);
    const refund = await a.ticketAction(r.order_ref, 'refund', true, 'customer request');
    expect(refund).toMatchObject({ permitted: true, confirmed: true, coupon_status: 'REFUNDED' });
    expect((refund.refund?.amount_minor ?? 0) + (refund.fee?.amount_minor ?? 0)).toBe(r.total.amount_minor);
  });

  it('a seat in row 13 is refused in a batch while the others are accepted', async () => {
    const a = flights();
    const o = await bookAs('Seats');
    const [map] = await a.seatMap(o.order_ref);
    const free = map?.rows.flatMap((r) => r.seats).find((x) => x.available);
    const res = await a.requestSeats(o.order_ref, [
      { segment_id: map?.segment_id ?? 's1', seat_number: free?.seat_number ?? '', passenger_id: '1' },
      { segment_id: map?.segment_id ?? 's1', seat_number: '13C', passenger_id: '1' },
    ]);
    expect(res.map((r) => r.accepted)).toEqual([true, false]);
    expect(res[1]?.status).toBe('refused');
  });

  it('NOANCIL: ancillaries not enabled is unsupported; SSR works', async () => {
    const a = flights();
    const o = await bookAs('NOANCIL');
    expect(await kindOf(a.ancillaryCatalogue(o.order_ref, ''))).toBe('unsupported');
    expect((await a.addSsr(o.order_ref, { code: 'WCHR', free_text: 'WHEELCHAIR' })).status).toBe('HK');
  });

  it('a ticketed order cannot be cancelled without voiding first', async () => {
    const a = flights();
    const o = await bookAs('Ticketed');
    await a.issueTicket(o.order_ref, o.total);
    expect((await a.getOrder(o.order_ref)).status).toBe('ticketed');
    expect(await kindOf(a.cancelOrder(o.order_ref))).toBe('rejected');
  });
});
