import type { components } from '@travel/contract';
import type { OperationContext } from '../../../kernel/types.ts';
import type { SupplierFlightOffer } from '../../../suppliers/ports/flight.ts';
import { type BookedBag, bookedBags, passengerIds, unitPrice } from '../bags.ts';
import type { BookingDeps } from '../deps.ts';
import { type BookingRow, loadBooking } from '../store.ts';
import { alias } from './outcomes.ts';
import { ancillaryView, listAncillaries } from './store.ts';

export async function baggage(d: BookingDeps, ctx: OperationContext<'getBaggage'>) {
  const b = await loadBooking(d.db, ctx, ctx.params.booking_id);
  const offer = b.offer as unknown as SupplierFlightOffer;
  const allowances = b.passengers.flatMap((p) =>
    b.flights.map((f) => ({
      passenger_id: String(p.passenger_id),
      segment_id: String(f.segment_id),
      cabin_bags: offer.baggage?.cabin_bags ?? 0,
      checked_bags: 'type' in p && p.type === 'INF' ? 0 : (offer.baggage?.checked_bags ?? 0),
      checked_bag_weight_kg: offer.baggage?.checked_bag_weight_kg ?? null,
    })),
  );
  const ancillaries = (await listAncillaries(d.db, b.id)).filter(
    (a) => a.code.startsWith('XBAG') || a.kind === 'bag' || a.rfic === 'C',
  );
  // Bags booked with the PNR first (a bag offer), then those bought as ancillaries after booking.
  const booked = bookedBags(b);
  const purchased = [
    ...booked.map((bag) => bookedBagView(b, bag, booked)),
    ...ancillaries.map((a) => ({
      ...ancillaryView(a),
      bought_with: 'ancillary' as const,
      bag_option_id: null,
      quantity: 1,
    })),
  ];
  let bagOptions: components['schemas']['BagOption'][] = [];
  const supplier = d.suppliers.flight(b.supplier);
  if (supplier && !['ticketed', 'cancelled', 'refunded', 'expired'].includes(b.status)) {
    // Bags that can still be bought come from the offer; an expired offer simply has none left.
    bagOptions = await supplier
      .price({ ...offer, supplier_ref: b.supplier_ref }, { bags: true }, { signal: ctx.signal })
      .then((p) => p.bag_options ?? [])
      .catch(() => []);
  }
  return {
    booking_id: b.id,
    allowances,
    purchased_bags: purchased,
    bag_options: bagOptions,
  };
}

/** A bag booked with the PNR, in the shape of a purchased bag (openapi `PurchasedBag`). */
function bookedBagView(b: BookingRow, bag: BookedBag, all: BookedBag[]) {
  const covers = bag.segment_id ? [bag.segment_id] : (bag.option?.segment_ids ?? []);
  return {
    bought_with: 'booking' as const,
    ancillary_id: null,
    bag_option_id: bag.bag_option_id,
    code: alias(bag.bag_option_id),
    rfic: 'C',
    rfisc: '',
    booking_method: 'bag_offer',
    provider: String(b.offer.validating_carrier ?? b.supplier),
    tsm_reference: null,
    emd_number: null,
    status: bag.status,
    quantity: bag.quantity,
    passenger_ids: passengerIds(b, bag),
    // An option that names no segments covers every one.
    segment_ids: covers.length > 0 ? covers : b.flights.map((f) => String(f.segment_id)),
    price: { currency: b.pricing.currency, amount_minor: unitPrice(b, bag, all) * bag.quantity },
    created_at: b.created_at.toISOString(),
  };
}
