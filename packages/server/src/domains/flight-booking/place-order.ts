/**
 * The supplier order of a flight booking (createPnr, or authorize for PAYMENT_FIRST): held where the
 * supplier can, its bags later when the supplier sells none on a held order; a refusal is a 400, an
 * unknown outcome is returned for reconciliation to settle.
 */

import { badRequest, HttpError } from '../../kernel/errors.ts';
import type { BodyOf } from '../../kernel/types.ts';
import { logSupplierError } from '../../suppliers/http-errors.ts';
import { SupplierError } from '../../suppliers/ports/errors.ts';
import type {
  BagSelection,
  PassengerInput,
  SupplierFlightOffer,
  SupplierFlightOrder,
} from '../../suppliers/ports/flight.ts';
import type { BookingDeps } from './deps.ts';
import type { BookingRow } from './store.ts';
import { flightSupplierOf } from './suppliers.ts';

/** The contract's `CreateBookingRequest`. */
type CreateBody = BodyOf<'createPnr'>;

/** `bagsLater`: the order was held without its bags, which the supplier takes once it is paid (bags.ts). */
export type Outcome =
  | { kind: 'order'; order: SupplierFlightOrder; bagsLater: boolean }
  | { kind: 'unknown'; error: string; bagsLater: boolean };

/** Supplier order for a booking. Rejections throw 400 supplier_rejected; an unknown outcome is returned. */
export async function placeOrder(
  d: BookingDeps,
  b: Pick<BookingRow, 'supplier' | 'payment_mode' | 'client_reference' | 'order_remarks'>,
  offer: SupplierFlightOffer,
  input: { passengers: PassengerInput[]; contact: CreateBody['contact']; bags: BagSelection[] },
  signal?: AbortSignal,
): Promise<Outcome> {
  const supplier = flightSupplierOf(d.suppliers, b.supplier);
  // Held where the supplier can (the PNR waits for our payment); low-cost content is instant-only.
  const hold = supplier.capabilities.holdOrders && !offer.lcc;
  const create = (bags: BagSelection[]) =>
    supplier.createOrder(
      {
        offer,
        passengers: input.passengers,
        contact: input.contact,
        hold,
        remarks: b.order_remarks,
        client_reference: b.client_reference,
        ...(bags.length > 0 ? { bags } : {}),
      },
      { signal },
    );
  let bagsLater = false;
  try {
    let order: SupplierFlightOrder;
    try {
      order = await create(input.bags);
    } catch (err) {
      const refusedBags = err instanceof SupplierError && err.kind === 'unsupported';
      if (!(refusedBags && hold && input.bags.length > 0)) throw err;
      // The supplier sells no services on a held order (Duffel): hold it without the bags, which the
      // booking keeps (priced in from the start) and ticketing adds right after paying the hold.
      bagsLater = true;
      order = await create([]);
    }
    if (order.status === 'pending')
      return { kind: 'unknown', error: 'the supplier reported the order as pending', bagsLater };
    if (order.status === 'rejected')
      throw badRequest('supplier_rejected', 'The supplier rejected the reservation.');
    return { kind: 'order', order, bagsLater };
  } catch (err) {
    if (!(err instanceof SupplierError)) throw err;
    switch (err.kind) {
      case 'unknown_outcome':
      case 'timeout':
        return { kind: 'unknown', error: err.message, bagsLater };
      case 'rejected':
      case 'sold_out':
      case 'invalid_request':
      // The supplier cannot book this as asked: a refusal, not an outage.
      case 'unsupported':
        // Our words; the supplier's own (which may echo its internals) goes to the log only.
        logSupplierError(d.logger, err, 'supplier_rejected');
        throw badRequest('supplier_rejected', 'The supplier rejected the reservation.');
      case 'offer_expired':
        throw badRequest('offer_expired', 'The offer has expired; search again.');
      case 'price_changed':
        throw badRequest('price_changed', 'The price changed at the supplier; revalidate the offer.', {
          old_total_minor: err.details.old_total_minor ?? null,
          new_total_minor: err.details.new_total_minor ?? null,
        });
      default:
        // Nothing happened at the supplier: no booking, and the idempotency key is released.
        throw new HttpError(500, 'booking_failed', 'The booking could not be created; retry later.');
    }
  }
}
