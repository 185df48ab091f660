/**
 * Payment of a flight booking (authorize, capture, void, refund, history), one file per operation
 * (authorize.ts, capture-void-refund.ts, history.ts) reached through `PaymentService`.
 *
 * METHOD /path → operationId:
 *   POST /api/v1/bookings/{booking_id}/authorize → authorizePayment
 *   POST /api/v1/bookings/{booking_id}/payment/capture → capturePayment
 *   GET  /api/v1/bookings/{booking_id}/payment/history → getPaymentHistory
 *   POST /api/v1/bookings/{booking_id}/payment/refund → refundPayment
 *   POST /api/v1/bookings/{booking_id}/payment/void → voidPayment
 */
import type {
  BodyFor,
  Handler,
  OperationContext,
  OperationId,
  RequestContext,
  Routes,
} from '../../../kernel/types.ts';
import type { BookingRow } from '../store.ts';
import type { AfterAuthorize } from './authorize.ts';
import type { PaymentService } from './payment-service.ts';

const ok =
  <Op extends OperationId>(fn: (ctx: OperationContext<Op>) => Promise<BodyFor<Op>>): Handler<Op> =>
  async (ctx) => ({ status: 200, body: await fn(ctx) });

/** Payment operations; `afterAuthorized` lets PAYMENT_FIRST bookings place their order once authorized. */
export function paymentRoutes(
  payments: PaymentService,
  afterAuthorized: (ctx: RequestContext, b: BookingRow) => Promise<AfterAuthorize | undefined>,
): Routes {
  return {
    authorizePayment: (c) => payments.authorize(c, (b) => afterAuthorized(c, b)),
    capturePayment: (c) => payments.capture(c),
    voidPayment: (c) => payments.void(c),
    refundPayment: (c) => payments.refund(c),
    getPaymentHistory: ok((c) => payments.history(c)),
  };
}
