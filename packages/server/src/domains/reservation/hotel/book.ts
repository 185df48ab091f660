/**
 * POST /hotel/book. The rate is re-checked, then the shared reservation booker (../book.ts)
 * writes the booking `pending` ahead of the supplier call under a client reference derived from the
 * Idempotency-Key, calls the provider and settles the answer through the state machine in
 * `ctx.transaction`, which also stores the key's response. An ambiguous supplier answer leaves the
 * booking pending, brings its reconciliation forward and answers 502 with the booking_id. A retry whose
 * earlier attempt died finds the booking by that reference before re-checking anything.
 */
import type { components } from '@travel/contract';
import { badRequest } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import { findShownOffer, recheckHotel } from '../../../search/shown-offer.ts';
import type { CodeMap } from '../../../suppliers/http-errors.ts';
import type { SupplierHotelBooking } from '../../../suppliers/ports/hotel.ts';
import { type BookAnswer, bookingRefusals, bookReservation, type ReservationKind } from '../book.ts';
import type { ReservationDomainDeps } from '../deps.ts';
import { HOTEL_KIND } from '../kind.ts';
import type { ReservationEvent } from '../state-machine.ts';
import { callFor } from '../supplier-call.ts';
import { json } from '../tables.ts';
import { checkRate, hotelSupplier } from './check-rate.ts';
import { validateGuests } from './guests.ts';
import { hotelBookingView } from './view.ts';

const RECHECK_CODES: CodeMap = {
  not_found: [400, 'invalid_rate_key'],
  invalid_request: [400, 'invalid_rate_key'],
  sold_out: [400, 'sold_out'],
  offer_expired: [400, 'offer_expired'],
  price_changed: [400, 'price_changed'],
  rejected: [400, 'supplier_rejected'],
};

const EVENT_OF: Record<SupplierHotelBooking['status'], ReservationEvent | null> = {
  confirmed: 'supplier_confirmed',
  on_request: 'supplier_on_request',
  rejected: 'supplier_rejected',
  cancelled: 'supplier_cancelled',
  pending: null,
};

/** The booker's view of hotel bookings. */
export const hotelReservations = (
  deps: ReservationDomainDeps,
): ReservationKind<SupplierHotelBooking, components['schemas']['HotelBooking']> => ({
  kind: HOTEL_KIND,
  hook: 'hotelBook',
  prefix: 'TH',
  eventOf: (s) => EVENT_OF[s],
  refusals: bookingRefusals('invalid_rate_key'),
  settledColumns: (b) => ({ hotel_confirmation: b.hotel_confirmation }),
  view: hotelBookingView,
  finder: (provider) => deps.suppliers.hotel(provider),
});

export async function bookHotel(
  deps: ReservationDomainDeps,
  ctx: OperationContext<'bookHotel'>,
): Promise<BookAnswer<components['schemas']['HotelBooking']>> {
  const body = ctx.body;
  const supplier = hotelSupplier(deps, body.provider, 'invalid_rate_key');
  return bookReservation(deps, ctx, hotelReservations(deps), async () => {
    const check = await checkRate(supplier, body.rate_key, callFor(ctx), RECHECK_CODES, ctx.log);
    if (!check.available) throw badRequest('sold_out', 'The rate is no longer available.');
    // Charged in the currency the search showed, at the rate locked with its offer.
    const seen = await findShownOffer(deps.db, body.provider, 'rate_key', body.rate_key, ctx.auth?.userId);
    const rechecked = recheckHotel(seen, check.offer, check.previous_total_minor, check.price_changed);
    if (rechecked.price_changed) {
      throw badRequest(
        'price_changed',
        'The price changed since the rate was quoted; check the rate again and book the new one.',
        {
          previous_total_minor: rechecked.previous_total_minor,
          new_total_minor: rechecked.offer.price.total_minor,
        },
      );
    }
    const offer = rechecked.offer;
    // Room and type filled in (defaults), so what is stored and booked is complete.
    const guests = validateGuests(body.guests, offer);
    const holder = guests.find((g) => g.type === 'AD') ?? guests[0];
    if (!holder) throw badRequest('invalid_guest', 'At least one guest is required.');
    return {
      values: {
        provider: body.provider,
        rate_key: offer.rate_key,
        hotel_confirmation: null,
        hotel: json(offer.hotel),
        room: json(offer.room),
        check_in: offer.check_in,
        check_out: offer.check_out,
        nights: offer.nights,
        guests: json(guests),
        contact_email: body.contact_email,
        contact_phone: body.contact_phone,
        special_requests: body.special_requests ?? null,
        client_ref: body.client_ref ?? null,
        currency: offer.price.currency,
        total_minor: offer.price.total_minor,
        supplier_currency: offer.supplier_price.currency,
        supplier_total_minor: offer.supplier_price.amount_minor,
        fx_rate: offer.fx_rate,
        cancellation_policies: json(offer.cancellation_policies),
      },
      book: (clientReference) =>
        supplier.book(
          {
            rate_key: offer.rate_key,
            guests,
            holder: { first_name: holder.first_name, last_name: holder.last_name },
            contact_email: body.contact_email,
            contact_phone: body.contact_phone,
            ...(body.special_requests ? { special_requests: body.special_requests } : {}),
            client_reference: clientReference,
          },
          { ...callFor(ctx), idempotencyKey: clientReference },
        ),
    };
  });
}
