import { bool, flightBookingIdParam, jsonResponse, pathParam, queryParam, ref, str } from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, moneyInProgress, notFound, notSupported, ok } from './shared.ts';

const defs: OpDef[] = [
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/ticket',
    operationId: 'issueTickets',
    summary: 'Issue the tickets',
    description:
      'Issues the e-tickets; with capture=true (default) the authorized payment is captured. Some suppliers issue asynchronously: issued=false, then poll ticket/status.',
    auth: 'user',
    idem: true,
    parameters: [flightBookingIdParam()],
    body: ref('TicketRequest'),
    bodyRequired: false,
    responses: {
      ...ok('TicketIssueResult', 'Tickets issued (or issuance in process).'),
      202: jsonResponse(
        'Outcome pending: the supplier (or the payment provider, for the capture) may have acted but did not confirm. `outcome: "pending"` and a plain `message`; a reconciliation job reads the supplier by the order reference and the booking becomes ticketed once tickets are found. A supplier answer proving the tickets exist ("ALREADY TICKETED", a 5xx after the payment was taken) is settled as ticketed at once (200). Do not retry with a new Idempotency-Key.',
        ref('PendingTicketIssue'),
      ),
    },
    errors: {
      ...badRequest(
        'invalid_booking_state',
        'payment_required',
        'invalid_payment_state',
        'ticketing_failed',
        'already_ticketed',
        'capture_failed',
      ),
      ...notFound('booking_not_found'),
      ...moneyInProgress(),
    },
  },
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/ticket/status',
    operationId: 'getTicketStatus',
    summary: 'Asynchronous ticketing status',
    description:
      'issued and the raw provider status (e.g. "1" Placed, "6" Ticketed). 501 when the provider has no such state.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    responses: ok('TicketStatus', 'Ticketing status.'),
    errors: { ...notFound('booking_not_found'), ...notSupported() },
  },
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/ticket/document',
    operationId: 'getTicketDocument',
    summary: 'E-ticket documents',
    description:
      'Low-cost content has the usual shape with empty fields (no IATA number, no fare calculation).',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    responses: ok('TicketDocumentResponse', 'The e-tickets.'),
    errors: { ...notFound('booking_not_found', 'ticket_not_found'), ...notSupported() },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/ticket/{action}',
    operationId: 'performTicketAction',
    summary: 'Quote or request a ticket void, refund or reissue',
    description:
      'confirm=false (default) only quotes and changes nothing. confirm=true raises the real void or refund; reissue is quote-only (confirm=true answers permitted=false, determination reissue_quote_only). Provider determinations (window expired, non-refundable) are results (200), not failures. On a confirmed, permitted action the booking follows the ticket document.',
    auth: 'user',
    parameters: [
      flightBookingIdParam(),
      pathParam('action', ref('TicketAction'), 'void, refund or reissue.'),
      queryParam('confirm', bool({ default: false }), {
        description: 'false: quote only; true: raise the request.',
      }),
      queryParam('note', str({ maxLength: 500 })),
    ],
    responses: ok('TicketActionResult', 'Quote returned or request raised.'),
    errors: {
      ...badRequest('not_ticketed', 'ticket_action_failed'),
      ...notFound('booking_not_found'),
      ...notSupported(),
      ...moneyInProgress(),
    },
  },
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/servicing',
    operationId: 'listServicingRequests',
    summary: 'Post-ticketing (servicing) requests',
    description: 'Empty items (message "No records found.") means no request was ever raised.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    responses: ok('ServicingList', 'Requests with their state.'),
    errors: { ...notFound('booking_not_found'), ...notSupported() },
  },
];

export const ticketingOps = surface('ticketing', defs);
