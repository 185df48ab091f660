import { flightBookingIdParam, int, queryParam, ref, str } from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, moneyInProgress, notFound, ok, paymentPending } from './shared.ts';

const paymentNotFound = () => notFound('booking_not_found', 'payment_not_found');
const reason = () =>
  queryParam('reason', str({ maxLength: 500 }), { description: 'Optional reason, recorded.' });

const defs: OpDef[] = [
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/authorize',
    operationId: 'authorizePayment',
    summary: 'Authorize a payment for the booking',
    description:
      'Authorizes (holds) the amount with the payment provider; capture happens later (capture or ticket). One live payment per booking: concurrent calls are serialized, the loser gets 409 operation_in_progress or 400 invalid_payment_state. Sandbox tokens: tok_sandbox_ok succeeds, tok_sandbox_decline is declined (400 payment_declined); tok_sandbox_error_after_create, tok_sandbox_connection_reset and tok_sandbox_timeout authorize but lose the answer (202 pending, settled by reconciliation).',
    auth: 'user',
    idem: true,
    parameters: [flightBookingIdParam()],
    body: ref('AuthorizeRequest'),
    responses: { ...ok('Payment', 'Authorized (state AUTHORIZED).'), ...paymentPending() },
    errors: {
      ...badRequest(
        'payment_declined',
        'invalid_payment_state',
        'invalid_booking_state',
        'currency_mismatch',
        'amount_mismatch',
      ),
      ...notFound('booking_not_found'),
      ...moneyInProgress(),
    },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/payment/capture',
    operationId: 'capturePayment',
    summary: 'Capture the authorized payment',
    description:
      'The payment must be AUTHORIZED. amount_minor defaults to the full authorization. Result state CAPTURED.',
    auth: 'user',
    idem: true,
    parameters: [
      flightBookingIdParam(),
      queryParam('amount_minor', int({ minimum: 1 }), { description: 'Default: the full authorization.' }),
    ],
    responses: { ...ok('Payment', 'Captured.'), ...paymentPending() },
    errors: {
      ...badRequest('invalid_payment_state', 'amount_exceeds_capturable', 'capture_failed'),
      ...paymentNotFound(),
      ...moneyInProgress(),
    },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/payment/void',
    operationId: 'voidPayment',
    summary: 'Void (release) the authorization',
    description: 'The payment must be AUTHORIZED and not captured. Result state VOIDED.',
    auth: 'user',
    idem: true,
    parameters: [flightBookingIdParam(), reason()],
    responses: { ...ok('Payment', 'Voided.'), ...paymentPending() },
    errors: {
      ...badRequest('invalid_payment_state', 'already_captured', 'void_failed'),
      ...paymentNotFound(),
      ...moneyInProgress(),
    },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/payment/refund',
    operationId: 'refundPayment',
    summary: 'Refund a captured payment',
    description:
      'The payment must be CAPTURED or SETTLED. amount_minor defaults to the full refundable amount. A full refund moves the state to REFUNDED; a partial one keeps it and increases refunded_minor.',
    auth: 'user',
    idem: true,
    parameters: [
      flightBookingIdParam(),
      queryParam('amount_minor', int({ minimum: 1 }), {
        description: 'Default: the full refundable amount.',
      }),
      reason(),
    ],
    responses: { ...ok('Payment', 'Refunded.'), ...paymentPending() },
    errors: {
      ...badRequest('invalid_payment_state', 'not_captured', 'amount_exceeds_refundable', 'refund_failed'),
      ...paymentNotFound(),
      ...moneyInProgress(),
    },
  },
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/payment/history',
    operationId: 'getPaymentHistory',
    summary: 'Payment transactions of the booking',
    description: 'Every authorization, capture, void and refund.',
    auth: 'user',
    parameters: [flightBookingIdParam()],
    responses: ok('PaymentHistory', 'The payments and their transactions.'),
    errors: notFound('booking_not_found'),
  },
];

export const paymentsOps = surface('payments', defs);
