/**
 * POST /transport/book: the same protocol as hotel booking (the shared reservation booker,
 * ../book.ts): re-quote, write the booking `pending` ahead of the provider call
 * under a client reference derived from the Idempotency-Key, call the provider, settle through the state
 * machine in `ctx.transaction` (which stores the key's response); ambiguous: 502 + booking_id. A retry
 * whose earlier attempt died finds the booking by that reference before re-quoting.
 */
import type { components } from '@travel/contract';
import { badRequest } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import { findShownOffer, recheckTransfer } from '../../../search/shown-offer.ts';
import type { CodeMap } from '../../../suppliers/http-errors.ts';
import type { SupplierTransferBooking } from '../../../suppliers/ports/transfer.ts';
import { type BookAnswer, bookingRefusals, bookReservation, type ReservationKind } from '../book.ts';
import type { ReservationDomainDeps } from '../deps.ts';
import { TRANSPORT_KIND } from '../kind.ts';
import type { ReservationEvent } from '../state-machine.ts';
import { callFor } from '../supplier-call.ts';
import { json } from '../tables.ts';
import { quote, transferSupplier } from './quote.ts';
import { transportBookingView } from './view.ts';

const REQUOTE_CODES: CodeMap = {
  not_found: [404, 'quote_not_found'],
  invalid_request: [400, 'invalid_quote'],
  sold_out: [400, 'sold_out'],
  offer_expired: [400, 'offer_expired'],
  price_changed: [400, 'price_changed'],
  rejected: [400, 'supplier_rejected'],
};

const EVENT_OF: Record<SupplierTransferBooking['status'], ReservationEvent | null> = {
  confirmed: 'supplier_confirmed',
  rejected: 'supplier_rejected',
  cancelled: 'supplier_cancelled',
  pending: null,
};

/** The booker's view of transport bookings. */
export const transportReservations = (
  deps: ReservationDomainDeps,
): ReservationKind<SupplierTransferBooking, components['schemas']['TransportBooking']> => ({
  kind: TRANSPORT_KIND,
  hook: 'transportBook',
  prefix: 'TT',
  eventOf: (s) => EVENT_OF[s],
  refusals: bookingRefusals('invalid_quote'),
  settledColumns: (b) => ({ confirmation_number: b.confirmation_number }),
  view: transportBookingView,
  finder: (provider) => deps.suppliers.transfer(provider),
});

export async function bookTransport(
  deps: ReservationDomainDeps,
  ctx: OperationContext<'bookTransport'>,
): Promise<BookAnswer<components['schemas']['TransportBooking']>> {
  const body = ctx.body;
  const supplier = transferSupplier(deps, body.provider, 'invalid_quote');
  return bookReservation(deps, ctx, transportReservations(deps), async () => {
    const q = await quote(supplier, body.quote_id, callFor(ctx), REQUOTE_CODES, ctx.log);
    if (!q.available) throw badRequest('sold_out', 'The transfer is no longer available.');
    // Charged in the currency the search showed, at the rate locked with its offer.
    const seen = await findShownOffer(deps.db, body.provider, 'quote_id', body.quote_id, ctx.auth?.userId);
    const rechecked = recheckTransfer(seen, q.offer, q.price_changed);
    if (rechecked.price_changed) {
      throw badRequest(
        'price_changed',
        'The price changed since the quote; quote again and book the new one.',
        {
          new_total_minor: rechecked.offer.price.total_minor,
        },
      );
    }
    const offer = rechecked.offer;
    if (body.passengers.length > offer.vehicle.max_passengers) {
      throw badRequest(
        'invalid_passenger',
        `The vehicle takes at most ${offer.vehicle.max_passengers} passengers.`,
      );
    }
    if (!body.passengers[0]) throw badRequest('invalid_passenger', 'A lead passenger is required.');
    return {
      values: {
        provider: body.provider,
        quote_id: offer.quote_id,
        confirmation_number: null,
        transfer_type: offer.transfer_type,
        vehicle: json(offer.vehicle),
        pickup: json(offer.pickup),
        dropoff: json(offer.dropoff),
        passengers: json(body.passengers),
        contact: json(body.contact),
        flight_number: body.flight_number ?? null,
        hotel_name: body.hotel_name ?? null,
        special_requests: body.special_requests ?? null,
        currency: offer.price.currency,
        total_minor: offer.price.total_minor,
        supplier_currency: offer.supplier_price.currency,
        supplier_total_minor: offer.supplier_price.amount_minor,
        fx_rate: offer.fx_rate,
      },
      book: (clientReference) =>
        supplier.book(
          {
            quote_id: offer.quote_id,
            passengers: body.passengers,
            contact: body.contact,
            ...(body.flight_number ? { flight_number: body.flight_number } : {}),
            ...(body.hotel_name ? { hotel_name: body.hotel_name } : {}),
            ...(body.special_requests ? { special_requests: body.special_requests } : {}),
            client_reference: clientReference,
          },
          { ...callFor(ctx), idempotencyKey: clientReference },
        ),
    };
  });
}
