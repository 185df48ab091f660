/** Response helpers shared by the surfaces. */
import { errorResponse, type Json, jsonResponse, ref } from '../lib.ts';

export const SSE_DESCRIPTION =
  'Server-Sent Events (`text/event-stream`). Every data event carries an `id:`; on reconnect send the last id received as the `Last-Event-ID` header and the stream resumes after it, with nothing lost and nothing repeated. `heartbeat` events (no id) keep the connection alive. The stream ends with a terminal `done` event naming the final status; a close before it is a dropped connection.';

/**
 * 200 `text/event-stream` whose messages follow the given event union schema. The media type's schema is
 * each event's `data` (`<eventSchema>Data`), as generated SSE clients read it; the description names the
 * whole message's schema.
 */
export const sseResponse = (eventSchema: string, description: string): Json => ({
  description: `${description} Each SSE message (\`event:\`, \`id:\`, \`data:\`) is a \`${eventSchema}\`; the schema below is its \`data\` (what a generated SSE client yields).`,
  content: { 'text/event-stream': { schema: ref(`${eventSchema}Data`) } },
});

export const ok = (schema: string, description: string): Record<string, Json> => ({
  200: jsonResponse(description, ref(schema)),
});

export const notFound = (...codes: string[]): Record<string, Json> => ({ 404: errorResponse(404, codes) });
export const badRequest = (...codes: string[]): Record<string, Json> => ({ 400: errorResponse(400, codes) });
export const notSupported = (): Record<string, Json> => ({
  501: errorResponse(501, ['not_supported_by_provider']),
});
export const searchGone = (): Record<string, Json> => ({
  404: errorResponse(404, ['search_not_found']),
  410: errorResponse(410, ['search_expired']),
});

/** 503 `supplier_unavailable` (with Retry-After): the supplier could not be reached and nothing was done. */
export const supplierUnavailable = (): Record<string, Json> => ({
  503: errorResponse(503, ['supplier_unavailable']),
});

/**
 * 409 `operation_in_progress`: another operation that moves money or changes the payment or ticket state
 * of the same booking is in flight (one at a time per booking; issue 13). Retry once it has settled.
 */
export const moneyInProgress = (): Record<string, Json> => ({
  409: errorResponse(409, ['operation_in_progress'], {
    description:
      'Conflict: `idempotency_in_progress` (the same Idempotency-Key is still running) or `operation_in_progress` (another money or ticketing operation on this booking is in flight; retry once it has settled).',
  }),
});

/** 202: the payment provider may have acted but its answer was lost; settled by reconciliation. */
export const paymentPending = (): Record<string, Json> => ({
  202: jsonResponse(
    'Outcome pending: the payment provider may have acted but did not confirm (timeout, reset, 5xx after create). The body is the payment as recorded, with `outcome: "pending"` and a plain `message`; a reconciliation job asks the provider by reference and settles it within seconds to minutes (read payment/history). Nothing is charged twice; do not retry with a new Idempotency-Key.',
    ref('PendingPayment'),
  ),
});

/** 502 cancellation pending (hotel, transport and flight booking cancel): the provider's answer was lost. */
export const cancellationPending = (): Record<string, Json> => ({
  502: errorResponse(502, ['cancellation_pending'], {
    description:
      'Cancellation pending: the provider (hotel, transport or flight supplier) may have cancelled but its answer was lost (timeout, reset, 5xx). The body carries booking_id and the status as it stands; a reconciliation job asks the provider and settles it within seconds to minutes, and the answer stored under the Idempotency-Key becomes the settled one. Poll the booking or retry with the same key: a repeated cancel asks the provider again, never cancels twice, and cancels anew once the call window (BOOKING_CALL_WINDOW_SECONDS) shows the earlier call never reached the provider.',
    schema: ref('PendingCancellationError'),
  }),
});

/** 502 booking pending (createPnr, hotel book, transport book). */
export const bookingPending = (): Record<string, Json> => ({
  502: errorResponse(502, ['booking_pending'], {
    description:
      'Booking pending confirmation: the supplier neither confirmed nor rejected. The body carries booking_id; reconciliation is queued. Poll the booking; do not retry.',
    schema: ref('PendingBookingError'),
  }),
});

/**
 * 409 `duplicate_supplier_reference`: the supplier answered with a reference (PNR) that another live
 * booking already holds; the database refuses a second one (migration 0110) and nothing is recorded.
 */
export const duplicateSupplierReference = (): Record<string, Json> => ({
  409: errorResponse(409, ['duplicate_supplier_reference'], {
    description:
      '`duplicate_supplier_reference`: the supplier answered with a booking reference (PNR) another live booking already holds; nothing was recorded and an operator checks the order with the supplier (not retryable). `idempotency_in_progress`: a request with the same Idempotency-Key is still running.',
  }),
});
