/**
 * Bags booked with the PNR (the selections of a bag offer, see pricing.ts `repriceBags`). The booking
 * remembers each with the option it was priced from and where it stands at the supplier; its price is in
 * `pricing.bags_minor` from the start, so the payment authorized covers it whenever the supplier takes it.
 * Stored in the booking's `offer` document (`booked_bags`), beside the selections its order was placed with.
 */

import type { Logger } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { SupplierError } from '../../suppliers/ports/errors.ts';
import type { BagOption, BagSelection, FlightSupplier } from '../../suppliers/ports/flight.ts';
import type { BookingRow } from './store.ts';
import { updateBooking } from './store.ts';
import { json } from './tables.ts';

/**
 * held: on the supplier order the PNR created, not yet ticketed. pending: not on the order yet, because
 * the supplier sells no services on an unpaid hold (Duffel); added right after the hold is paid, at
 * ticketing. issued: on the paid, ticketed order. failed: the supplier would not add it once paid.
 */
export type BookedBagStatus = 'held' | 'pending' | 'issued' | 'failed';

export interface BookedBag extends BagSelection {
  bag_option_id: string;
  /** The option as the bag re-price priced it (null for a bag offer stored before options were kept). */
  option: BagOption | null;
  status: BookedBagStatus;
  /** Why a bag failed. */
  reason?: string;
}

/** What a bag offer keeps beside its selections (search `OfferBags`): the options chosen, as priced. */
export interface PricedBags {
  selections: BagSelection[];
  amount_minor: number;
  options?: BagOption[];
}

export function bookBags(bags: PricedBags | null | undefined): BookedBag[] {
  return (bags?.selections ?? []).map((sel) => ({
    ...sel,
    bag_option_id: sel.bag_option_id ?? '',
    option: bags?.options?.find((o) => o.bag_option_id === sel.bag_option_id) ?? null,
    status: 'held' as const,
  }));
}

export function bookedBags(b: Pick<BookingRow, 'offer'>): BookedBag[] {
  return (b.offer.booked_bags as BookedBag[] | undefined) ?? [];
}

/** The booking with its bags replaced by `bags`. */
export function saveBookedBags(db: Db, b: BookingRow, bags: BookedBag[], now: Date, patch = {}) {
  return updateBooking(db, b.id, now, { ...patch, offer: json({ ...b.offer, booked_bags: bags }) });
}

/** The supplier held the order without its bags: they wait for the order to be paid. */
export function bagsOncePaid(bags: BookedBag[]): BookedBag[] {
  return bags.map((x) => (x.status === 'held' ? { ...x, status: 'pending' } : x));
}

/** Unit price of a bag as booked; without the option, the bag charge spread over the bags. */
export function unitPrice(b: Pick<BookingRow, 'pricing'>, bag: BookedBag, all: BookedBag[]): number {
  if (bag.option) return bag.option.price.amount_minor;
  const count = all.reduce((n, x) => n + x.quantity, 0);
  return count > 0 ? Math.round(b.pricing.bags_minor / count) : 0;
}

/**
 * Adds the bags that waited for the order to be paid, as services of the paid order: each at the price it
 * was booked for (a supplier now asking more, or no longer selling it, fails that bag; nothing is bought
 * beyond what the customer paid for). Never throws: the tickets stand whatever happens to the bags.
 */
export async function addBagsOncePaid(
  supplier: FlightSupplier,
  b: BookingRow,
  orderRef: string,
  signal?: AbortSignal,
  log?: Logger,
): Promise<{ bags: BookedBag[]; added_minor: number } | null> {
  const bags = bookedBags(b);
  const pending = bags.filter((x) => x.status === 'pending');
  if (pending.length === 0) return null;
  const outcome = new Map<BookedBag, { status: BookedBagStatus; reason?: string }>();
  let added = 0;
  try {
    const sold = await supplier.ancillaryCatalogue(orderRef, 'BG', { signal });
    const products = [];
    const buying: BookedBag[] = [];
    for (const bag of pending) {
      const item = sold.find((i) => i.code === bag.bag_option_id);
      const unit = unitPrice(b, bag, bags);
      if (!item) outcome.set(bag, { status: 'failed', reason: 'the supplier no longer sells this bag' });
      else if (item.price.amount_minor > unit)
        outcome.set(bag, {
          status: 'failed',
          reason: `the supplier now asks ${item.price.amount_minor} for a bag booked at ${unit}`,
        });
      else {
        buying.push(bag);
        const passengers = bag.traveler_id ? [bag.traveler_id] : passengerIds(b, bag);
        for (let i = 0; i < bag.quantity; i++)
          products.push({
            customer_ref_ids: passengers,
            code: item.code,
            rfic: item.rfic,
            rfisc: item.rfisc,
            booking_method: item.booking_method,
            provider: item.provider,
            segment_ref_ids: item.segment_ids.join(' '),
          });
      }
    }
    if (products.length > 0) {
      const bought = await supplier.purchaseAncillaries(orderRef, products, { signal });
      added = bought.reduce((n, x) => n + x.price.amount_minor, 0);
      for (const bag of buying) outcome.set(bag, { status: 'issued' });
    }
  } catch (err) {
    // Our words for the booking and its audit row; the supplier's own text stays in the log.
    const reason =
      err instanceof SupplierError
        ? `the supplier refused the bags (${err.kind}${err.supplierCode ? ` ${err.supplierCode}` : ''})`
        : 'the supplier refused the bags';
    log?.warn({ err, booking_id: b.id }, 'supplier refused the bags after ticketing');
    for (const bag of pending) if (!outcome.has(bag)) outcome.set(bag, { status: 'failed', reason });
  }
  return {
    bags: bags.map((x) => {
      const o = outcome.get(x);
      return o ? { ...x, ...o } : x;
    }),
    added_minor: added,
  };
}

/** Bags on the order are issued with its tickets. */
export function bagsIssued(bags: BookedBag[]): BookedBag[] {
  return bags.map((x) => (x.status === 'held' ? { ...x, status: 'issued' } : x));
}

/** The passengers a bag is for: its traveler, else those of the option's passenger type (all if none). */
export function passengerIds(b: Pick<BookingRow, 'passengers'>, bag: BookedBag): string[] {
  if (bag.traveler_id) return [bag.traveler_id];
  const type = bag.option?.passenger_type ?? null;
  return b.passengers
    .filter((p) => type === null || ('type' in p && p.type === type))
    .map((p) => String(p.passenger_id));
}
