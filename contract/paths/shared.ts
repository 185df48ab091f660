/** Response helpers shared by the surfaces. */
import { errorResponse, type Json, jsonResponse, ref } from '../lib.ts';

export const SSE_DESCRIPTION =
  'Server-Sent Events (`text/event-stream`). Every data event carries an `id:`; on reconnect send the last id received as the `Last-Event-ID` header and the stream resumes after it, with nothing lost and nothing repeated. `heartbeat` events (no id) keep the connection alive. The stream ends with a terminal `done` event naming the final status; a close before it is a dropped connection.';

/** 200 `text/event-stream` whose messages follow the given event union schema. */
export const sseResponse = (eventSchema: string, description: string): Json => ({
  description,
  content: { 'text/event-stream': { schema: ref(eventSchema) } },
});

export const ok = (schema: string, description: string): Record<string, Json> => ({
  200: jsonResponse(description, ref(schema)),
});

export const created = (schema: string, description: string): Record<string, Json> => ({
  201: jsonResponse(description, ref(schema)),
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

/** 502 booking pending (createPnr, hotel book, transport book). */
export const bookingPending = (): Record<string, Json> => ({
  502: errorResponse(502, ['booking_pending'], {
    description:
      'Booking pending confirmation: the supplier neither confirmed nor rejected. The body carries booking_id; reconciliation is queued. Poll the booking; do not retry.',
    schema: ref('PendingBookingError'),
  }),
});
