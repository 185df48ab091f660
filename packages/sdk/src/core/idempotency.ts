/**
 * Idempotency keys: one per logical call, generated here unless the caller brings one, and reused by the
 * transport on every automatic retry of that call (the key travels in the request, which is cloned per attempt).
 */
import type { RequestOptions } from './request.ts';

/** The header the server reads (IETF Idempotency-Key draft). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/**
 * Operations the contract marks `x-idempotency: "required"`. A test compares this list with openapi.json,
 * so a new money-moving operation cannot slip past the SDK unnoticed.
 */
export const REQUIRED_IDEMPOTENCY_OPERATIONS = [
  'createPnr',
  'authorizePayment',
  'capturePayment',
  'voidPayment',
  'refundPayment',
  'issueTickets',
  'bookHotel',
  'bookTransport',
] as const;

/**
 * Per-call options of the idempotent SDK methods: the usual request options, where `idempotencyKey` is
 * your own key (e.g. derived from an order id, so that a restarted process cannot double-book).
 */
export type IdempotentCallOptions = RequestOptions;

/**
 * The key for one logical call: the caller's, or a fresh random UUID.
 *
 * @example
 * const key = resolveIdempotencyKey({}); // '1b4e28ba-2fa1-11d2-883f-0016d3cca427'
 */
export function resolveIdempotencyKey(options?: IdempotentCallOptions): string {
  return options?.idempotencyKey ?? globalThis.crypto.randomUUID();
}
