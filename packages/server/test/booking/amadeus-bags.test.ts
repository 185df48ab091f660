/**
 * Bags chosen for a booking reach the Amadeus order, whether or not the offer was re-priced with them:
 * the adapter puts them on the offer and has the GDS price it, since an order books what its offer
 * carries. (The journey books an offer re-priced with its bags; here the adapter gets them separately,
 * and a PAYMENT_FIRST booking places its order, bags included, only once the payment is authorized.)
 */
import { describe, expect, it } from 'vitest';
import type {
  BagSelection,
  FlightSupplier,
  PassengerInput,
  SupplierFlightOffer,
} from '../../src/suppliers/ports/flight.ts';
import { check, useWorld } from './checks.ts';
import { contact, passenger, SANDBOX_ROUTES, sandboxQuery } from './harness.ts';

const ctx = useWorld();
const adapter = () => ctx.w.suppliers.flight('amadeus') as FlightSupplier;

const traveler: PassengerInput = {
  passenger_id: '1',
  type: 'ADT',
  first_name: 'Ayesha',
  last_name: 'Rahman',
  gender: 'F',
  date_of_birth: '1990-04-02',
};
let seq = 0;

async function offerTo(destination: string): Promise<SupplierFlightOffer> {
  const [offer] = await adapter().search(
    sandboxQuery('amadeus', {
      legs: [{ origin: 'LHR', destination, departureDate: '2026-12-20' }],
      maxResults: 5,
    }),
  );
  if (!offer) throw new Error('no offer');
  return offer;
}

const book = (offer: SupplierFlightOffer, bags: BagSelection[]) =>
  adapter().createOrder({
    offer,
    passengers: [traveler],
    contact,
    hold: true,
    bags,
    client_reference: `bags-${++seq}`,
  });

/** Chargeable bags per segment of the booked offer, in segment order. */
function bagsBooked(raw: unknown): number[] {
  const offer = (raw as { flightOffers: { travelerPricings: Record<string, unknown>[] }[] }).flightOffers[0];
  const fds = (offer?.travelerPricings[0]?.fareDetailsBySegment ?? []) as {
    additionalServices?: { chargeableCheckedBags?: { quantity: number } };
  }[];
  return fds.map((fd) => fd.additionalServices?.chargeableCheckedBags?.quantity ?? 0);
}

describe('Amadeus createOrder with selected bags', () => {
  it('an offer as searched: the order carries the bags and its total charges them', async () => {
    const offer = await offerTo('DXB');
    const option = (await adapter().price(offer, { bags: true })).bag_options?.find(
      (o) => o.quantity_max === 2,
    );
    expect(option).toBeDefined();
    const order = await book(offer, [{ bag_option_id: option?.bag_option_id, quantity: 1 }]);
    expect(order.total.amount_minor).toBe(offer.price.total_minor + (option?.price.amount_minor ?? 0));
    expect(bagsBooked(order.raw).every((n) => n === 2)).toBe(true);
  });

  it('an offer re-priced with the same bags is booked as priced, without counting them twice', async () => {
    const offer = await offerTo('DXB');
    const option = (await adapter().price(offer, { bags: true })).bag_options?.[0];
    const selections = [{ bag_option_id: option?.bag_option_id, quantity: 1 }];
    const repriced = await adapter().repriceWithBags(offer, selections);
    expect(repriced.price_changed).toBe(false);
    expect(repriced.offer.price.total_minor).toBe(
      offer.price.total_minor + (option?.price.amount_minor ?? 0),
    );
    const order = await book(repriced.offer, selections);
    expect(order.total.amount_minor).toBe(repriced.offer.price.total_minor);
    expect(bagsBooked(order.raw).every((n) => n === 1)).toBe(true);
  });

  it('without bags the offer is booked as it is', async () => {
    const offer = await offerTo('DXB');
    const order = await book(offer, []);
    expect(order.total.amount_minor).toBe(offer.price.total_minor);
    expect(bagsBooked(order.raw).every((n) => n === 0)).toBe(true);
  });

  it('a fare that moved since the search is price_changed, not booked at the new price', async () => {
    // Route XPC: the GDS prices 10% over the search price.
    const offer = await offerTo('XPC');
    const option = (await adapter().price(offer, { bags: true })).bag_options?.[0];
    await expect(book(offer, [{ bag_option_id: option?.bag_option_id, quantity: 1 }])).rejects.toMatchObject({
      kind: 'price_changed',
    });
  });

  it('an unknown bag option or segment is invalid_request', async () => {
    const offer = await offerTo('DXB');
    await expect(book(offer, [{ bag_option_id: 'nope', quantity: 1 }])).rejects.toMatchObject({
      kind: 'invalid_request',
    });
    await expect(book(offer, [{ segment_id: 's9', quantity: 1 }])).rejects.toMatchObject({
      kind: 'invalid_request',
    });
  });
});

describe('a PAYMENT_FIRST booking of a bag offer on Amadeus', () => {
  it('places the order with its bags when the payment is authorized', async () => {
    const { currency } = SANDBOX_ROUTES.amadeus;
    const companyId = await ctx.w.company();
    const agent = await ctx.w.user({ companyId });
    const as = (path: string, body: unknown, key?: string) =>
      ctx.w.req('POST', path, { token: agent.token, body, key });
    const [seeded] = await ctx.w.seedOffers('amadeus', { userId: agent.id, companyId });
    const cat = await as('/api/v1/bookings/bags/catalogue', { offer_id: seeded?.offer_id, currency });
    const bag = cat.body.bag_options[0];
    const priced = await as('/api/v1/bookings/bags/reprice', {
      offer_id: seeded?.offer_id,
      currency,
      selections: [{ bag_option_id: bag.bag_option_id, quantity: 1 }],
    });
    check('repriceWithBags', priced);
    const created = await as(
      '/api/v1/bookings/createPnr',
      {
        offer_id: priced.body.offer.offer_id,
        currency,
        passengers: [passenger()],
        contact,
        payment_mode: 'PAYMENT_FIRST',
      },
      'pf-bags-1',
    );
    check('createPnr', created);
    expect(created.body).toMatchObject({ status: 'payment_pending', supplier_order_ref: null });
    expect(created.body.pricing.bags_minor).toBe(bag.price.amount_minor);
    const total = created.body.pricing.total_minor;
    expect(total).toBe(priced.body.offer.price.total_minor);
    const auth = await as(
      `/api/v1/bookings/${created.body.booking_id}/authorize`,
      { token: 'tok_sandbox_ok', currency, amount_minor: total },
      'pf-bags-auth',
    );
    check('authorizePayment', auth);
    const order = await ctx.w.req('GET', `/api/v1/bookings/${created.body.booking_id}/order`, {
      token: agent.token,
    });
    check('getBookingOrder', order);
    expect(order.body.total.amount_minor).toBe(total);
    expect(bagsBooked(order.body.raw).every((n) => n === 1)).toBe(true);
  });
});
