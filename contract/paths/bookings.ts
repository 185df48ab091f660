import { bool, errorResponse, flightBookingIdParam, queryParam, ref, str } from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import {
  badRequest,
  bookingPending,
  cancellationPending,
  duplicateSupplierReference,
  moneyInProgress,
  notFound,
  notSupported,
  ok,
} from './shared.ts';

const bookingNotFound = () => notFound('booking_not_found');
/** 400s of operations on an offer: `currency_mismatch` carries `offer_currency` (OfferError). */
const offer400 = (...codes: string[]) => ({ 400: errorResponse(400, codes, { schema: ref('OfferError') }) });
const offerErrors = (...extra400: string[]) => ({
  ...offer400('invalid_offer_id', 'offer_expired', 'supplier_error', 'currency_mismatch', ...extra400),
  ...notFound('offer_not_found'),
});

const defs: OpDef[] = [
  // --- pricing, offers and fare rules ----------------------------------------------------------------
  {
    method: 'post',
    path: '/api/v1/bookings/revalidation',
    operationId: 'revalidateOffer',
    summary: 'Revalidate an offer’s availability and price',
    description:
      'The offer is resolved server-side from offer_id. verbose=true adds fare_rules and bag_options.',
    auth: 'user',
    parameters: [queryParam('verbose', bool({ default: false }))],
    body: ref('RevalidationRequest'),
    responses: ok('RevalidationResult', 'Normalized revalidation result.'),
    errors: offerErrors(),
  },
  {
    method: 'post',
    path: '/api/v1/bookings/upsell',
    operationId: 'getUpsellOffers',
    summary: 'Branded-fare alternatives for an offer',
    description: 'Only suppliers that support upselling are routed; others answer 400 upsell_unsupported.',
    auth: 'user',
    body: ref('RevalidationRequest'),
    responses: ok('UpsellResult', 'Branded-fare alternatives.'),
    errors: offerErrors('upsell_unsupported', 'upsell_failed'),
  },
  {
    method: 'post',
    path: '/api/v1/bookings/bags/catalogue',
    operationId: 'getBagCatalogue',
    summary: 'Priced offer plus chargeable-bag catalogue',
    auth: 'user',
    body: ref('RevalidationRequest'),
    responses: ok('BagCatalogue', 'Priced offer and chargeable bags.'),
    errors: offerErrors('bags_unsupported', 'bags_pricing_failed'),
  },
  {
    method: 'post',
    path: '/api/v1/bookings/bags/reprice',
    operationId: 'repriceWithBags',
    summary: 'Re-price an offer with selected bags',
    description: 'The returned offer’s total includes the bag charge (bags_minor).',
    auth: 'user',
    body: ref('BagRepriceRequest'),
    responses: ok('BagRepriceResult', 'Re-priced offer.'),
    errors: offerErrors('bags_unsupported', 'reprice_failed', 'invalid_bag_selection'),
  },
  {
    method: 'post',
    path: '/api/v1/bookings/fareRules',
    operationId: 'getFareRules',
    summary: 'Fare rules of an offer',
    auth: 'user',
    body: ref('FareRulesRequest'),
    responses: ok('FareRulesResult', 'Fare rules.'),
    errors: offerErrors(),
  },
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/rules',
    operationId: 'getBookingFareRules',
    summary: 'Fare rules of a booking',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    responses: ok('FareRulesResult', 'Fare rules.'),
    errors: bookingNotFound(),
  },
  // --- booking ----------------------------------------------------------------------------------------
  {
    method: 'post',
    path: '/api/v1/bookings/createPnr',
    operationId: 'createPnr',
    summary: 'Create a flight booking (PNR)',
    description:
      'Books the offer. A repeat with the same Idempotency-Key returns the first result. 502 means booking pending confirmation: the supplier neither confirmed nor rejected; the body carries booking_id (status pending_pnr); reconciliation is queued. Poll GET /api/v1/bookings/{booking_id}; do NOT retry (a retry may create a duplicate reservation).',
    auth: 'user',
    idem: true,
    body: ref('CreateBookingRequest'),
    responses: ok('FlightBooking', 'Booking created.'),
    errors: {
      ...offer400(
        'supplier_rejected',
        'offer_expired',
        'price_changed',
        'invalid_passenger',
        'invalid_offer_id',
        'currency_mismatch',
        'payment_declined',
      ),
      ...notFound('offer_not_found', 'traveler_not_found'),
      // The spec's "500: internal error or booking creation failed": the second has its own code.
      500: errorResponse(500, ['booking_failed'], {
        description:
          'Nothing was booked and nothing committed, so the Idempotency-Key is released: `booking_failed` when the supplier could not take the booking (unreachable before acting, or refusing our credentials); `internal_error` for any other failure. A retry runs anew; unlike a 502, no booking exists.',
      }),
      ...bookingPending(),
      ...duplicateSupplierReference(),
    },
    // 422 passenger_details_required: a field the offer's booking_requirements ask for is missing
    // (checked before the supplier is called and before anything is written), one issue per field.
    extraCodes: { 401: ['invalid_api_key'], 422: ['passenger_details_required'] },
  },
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}',
    operationId: 'getBooking',
    summary: 'A flight booking',
    description: 'The complete booking: passengers, flights, pricing and status.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    responses: ok('FlightBooking', 'The booking.'),
    errors: bookingNotFound(),
  },

  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/cancel',
    operationId: 'cancelBooking',
    summary: 'Cancel a flight booking',
    description:
      'Cancels with the supplier. The response carries the refund amount where applicable, fees and the new status.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    responses: ok('BookingCancellation', 'Cancelled.'),
    errors: {
      ...badRequest('cancellation_failed', 'invalid_booking_state', 'void_failed', 'refund_failed'),
      ...bookingNotFound(),
      ...moneyInProgress(),
      ...cancellationPending(),
    },
  },
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/order',
    operationId: 'getBookingOrder',
    summary: 'Live supplier order',
    description: 'Reads the order live from the supplier by its provider reference.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    responses: ok('SupplierOrder', 'The live order.'),
    errors: {
      ...badRequest('order_retrieval_failed', 'no_supplier_order'),
      ...notFound('booking_not_found', 'order_not_found'),
    },
  },
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/order/by-reference',
    operationId: 'getBookingOrderByReference',
    summary: 'Live supplier order by record locator',
    description:
      'reference is a confirmation, not a lookup key: when given it must equal the booking’s own PNR (else 400 reference_mismatch).',
    auth: 'user',
    parameters: [
      flightBookingIdParam(),
      queryParam('reference', str({ pattern: '^[A-Z0-9]{6}$' }), {
        description: 'The booking’s PNR, as a confirmation.',
      }),
    ],
    responses: ok('SupplierOrder', 'The live order.'),
    errors: {
      ...badRequest('order_retrieval_failed', 'reference_mismatch', 'no_supplier_order'),
      ...notFound('booking_not_found', 'order_not_found'),
    },
  },
  {
    method: 'patch',
    path: '/api/v1/bookings/{booking_id}/foid',
    operationId: 'updateBookingFoid',
    summary: 'Set the passengers’ form of identification (FOID)',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    body: ref('FoidRequest'),
    responses: ok('BookingUpdateResult', 'Updated.'),
    errors: { ...badRequest('foid_update_failed', 'foid_unsupported'), ...bookingNotFound() },
  },
  {
    method: 'patch',
    path: '/api/v1/bookings/{booking_id}/commission',
    operationId: 'updateBookingCommission',
    summary: 'Set the agency commission',
    description: 'Supply either amount or percentage.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    body: ref('CommissionRequest'),
    responses: ok('BookingUpdateResult', 'Updated.'),
    errors: {
      ...badRequest('commission_update_failed', 'commission_unsupported', 'amount_or_percentage_required'),
      ...bookingNotFound(),
    },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/notes',
    operationId: 'addBookingNotes',
    summary: 'Add notes (remarks) to the booking',
    description:
      'Empty and whitespace-only notes are dropped; if none remain the answer is 400 no_usable_notes. An unknown booking is also 400 (booking_not_found). Attaching to the provider is best-effort: a failure answers 200 with success=false and a reason.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    body: ref('NotesRequest'),
    responses: ok('NotesResult', 'Notes processed (check success).'),
    errors: { ...badRequest('no_usable_notes', 'booking_not_found'), ...notSupported() },
  },
];

export const bookingsOps = surface('bookings', defs);
