import { bool, flightBookingIdParam, jsonResponse, queryParam, ref, str, strEnum } from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, moneyInProgress, notFound, ok } from './shared.ts';

const bookingNotFound = () => notFound('booking_not_found');

/** 202: the supplier may have acted but its answer was lost; a reconciliation job reads the order back. */
const servicePending = () => ({
  202: jsonResponse(
    'Outcome pending: the supplier may have acted but did not confirm (timeout, reset, 5xx after the request reached it). `outcome: "pending"` and a plain `message`; a reconciliation job reads the order\'s seats and service elements back from the supplier and records what it finds within seconds (read the booking\'s seats, baggage or ancillaries). A retry with the same Idempotency-Key answers the settled result once it is known. Nothing is bought twice; do not retry with a new Idempotency-Key.',
    ref('PendingServiceChange'),
  ),
});

const defs: OpDef[] = [
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/seats',
    operationId: 'getSeatMap',
    summary: 'Seat map of every segment',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    responses: ok('SeatMapResponse', 'Seat maps.'),
    errors: { ...badRequest('seats_unsupported'), ...bookingNotFound() },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/seats',
    operationId: 'selectSeat',
    summary: 'Request one seat',
    description:
      'Only requests the seat. A chargeable seat stays pending until seats/issue prices it and issues an EMD.',
    auth: 'user',
    parameters: [
      flightBookingIdParam(),
      queryParam('segment_id', str({ minLength: 1, maxLength: 20 }), { required: true }),
      queryParam('seat_number', str({ pattern: '^[0-9]{1,3}[A-K]$' }), {
        required: true,
        description: 'Row and letter, e.g. 14C.',
      }),
      queryParam('passenger_id', str({ minLength: 1, maxLength: 20 }), { required: true }),
    ],
    responses: ok('SeatSelectionResult', 'The selection.'),
    errors: {
      ...badRequest('seat_unavailable', 'seat_reservation_failed', 'seats_unsupported', 'invalid_passenger'),
      ...notFound('booking_not_found', 'segment_not_found'),
    },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/seats/batch',
    operationId: 'selectSeatsBatch',
    summary: 'Request several seats',
    description:
      'Partial success is expected (a carrier may refuse individual seats): the response reports what was requested and what was stored; it does not fail as a whole.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    body: ref('SeatBatchRequest'),
    responses: ok('SeatBatchResult', 'Batch processed.'),
    errors: {
      ...badRequest('seat_reservation_failed', 'seats_unsupported', 'invalid_passenger'),
      ...notFound('booking_not_found', 'segment_not_found'),
    },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/seats/issue',
    operationId: 'issueSeats',
    summary: 'Price and issue paid seats',
    description:
      'Prices the pending chargeable seats and issues EMDs; with issue_emd_documents=false it prices and creates service documents without issuing.',
    auth: 'user',
    parameters: [flightBookingIdParam(), queryParam('issue_emd_documents', bool({ default: true }))],
    responses: { ...ok('SeatIssueResult', 'Seats priced (and issued).'), ...servicePending() },
    errors: {
      ...badRequest('paid_seats_unavailable', 'seat_pricing_failed', 'no_pending_seats'),
      ...bookingNotFound(),
      ...moneyInProgress(),
    },
  },
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/baggage',
    operationId: 'getBaggage',
    summary: 'Baggage allowances and bag ancillaries',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    responses: ok('BaggageInfo', 'Allowances and ancillary information.'),
    errors: bookingNotFound(),
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/ancillaries',
    operationId: 'addSpecialServiceRequest',
    summary: 'Add a special service request (SSR)',
    description: 'Records a request to the carrier (e.g. extra bag, meal, wheelchair), not a paid ancillary.',
    auth: 'user',
    parameters: [
      flightBookingIdParam(),
      queryParam('ssr_code', str({ pattern: '^[A-Z]{4}$' }), {
        required: true,
        description: 'e.g. XBAG, VGML, WCHR.',
      }),
      queryParam('free_text', str({ maxLength: 70, default: '' })),
      queryParam('segment_id', str({ maxLength: 20 }), {
        description: 'Flight id, route code (LHRDXB) or 1-based number.',
      }),
      queryParam('passenger_id', str({ maxLength: 20 }), { description: '1-based traveler index.' }),
    ],
    responses: ok('SsrResult', 'SSR added.'),
    errors: {
      ...badRequest('invalid_ssr', 'ssr_not_available'),
      ...notFound('booking_not_found', 'segment_not_found'),
    },
  },
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/ancillaries/catalogue',
    operationId: 'getAncillaryCatalogue',
    summary: 'Paid ancillaries that can be bought',
    auth: 'user',
    parameters: [
      flightBookingIdParam(),
      queryParam('service_group', strEnum(['', 'BG', 'ST', 'ML'], { default: '' }), {
        description: 'BG baggage, ST seat, ML meal; empty for everything.',
      }),
    ],
    responses: ok('AncillaryCatalogue', 'Items with code, rfic, rfisc, booking_method, provider.'),
    errors: { ...badRequest('ancillaries_unsupported', 'catalogue_failed'), ...bookingNotFound() },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/ancillaries/purchase',
    operationId: 'purchaseAncillaries',
    summary: 'Hold paid ancillaries (creates one TSM per service)',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    body: ref('AncillaryPurchaseRequest'),
    responses: { ...ok('AncillaryPurchaseResult', 'Held; tsm_references to issue.'), ...servicePending() },
    errors: {
      ...badRequest('ancillaries_unsupported', 'purchase_failed', 'invalid_product'),
      ...bookingNotFound(),
      ...moneyInProgress(),
    },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/ancillaries/emd',
    operationId: 'issueAncillaryEmds',
    summary: 'Issue EMDs for held ancillaries',
    description:
      'Omitting tsm_references issues every TSM on the booking. EMD numbers are read back after issuance.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    body: ref('EmdIssueRequest'),
    bodyRequired: false,
    responses: { ...ok('EmdIssueResult', 'EMDs issued.'), ...servicePending() },
    errors: {
      ...badRequest('emd_issue_failed', 'no_pending_ancillaries', 'ancillaries_unsupported'),
      ...notFound('booking_not_found', 'ancillary_not_found'),
      ...moneyInProgress(),
    },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/ancillaries/cancel',
    operationId: 'cancelAncillaries',
    summary: 'Cancel ancillaries',
    description:
      'Per item: an issued EMD is voided; a not-yet-issued service is removed. Omitting ancillary_ids cancels every ancillary not already cancelled or refunded.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    body: ref('AncillaryCancelRequest'),
    bodyRequired: false,
    responses: ok('AncillaryCancelResult', 'Per-item outcome.'),
    errors: {
      ...badRequest('ancillary_cancel_failed', 'unsupported_provider'),
      ...notFound('booking_not_found', 'ancillary_not_found'),
    },
  },
];

export const ancillariesOps = surface('ancillaries', defs);
