/**
 * Turns openapi-fetch's `{ data, error, response }` into "return the data or throw the right error", and
 * attaches the request id / idempotency key the transport recorded.
 */
import { createApiError, type TravelApiError } from './errors.ts';
import { responseMeta } from './transport.ts';

/** What idempotent (money- and booking-moving) methods resolve with. */
export interface ApiResult<TData> {
  data: TData;
  /** The key sent on every attempt of this call: store it to retry the call safely yourself later. */
  idempotencyKey: string;
  /** The server's request id of the final attempt. */
  requestId: string | undefined;
}

/** The part of an openapi-fetch result we read. */
export interface FetchResult<TData> {
  data?: TData;
  error?: unknown;
  response: Response;
}

/**
 * The error a failed openapi-fetch result stands for.
 *
 * @example
 * const result = await client.raw.GET('/api/v1/bookings/{booking_id}', { params: { path: { booking_id: '42' } } });
 * if (!result.response.ok) throw toApiError(result);
 */
export function toApiError(result: FetchResult<unknown>): TravelApiError {
  return createApiError({
    status: result.response.status,
    body: result.error,
    headers: result.response.headers,
    idempotencyKey: responseMeta(result.response).idempotencyKey,
  });
}

/**
 * Resolves with the data of a successful call, or throws the mapped `TravelApiError`.
 *
 * @example
 * const booking = await unwrap(client.raw.GET('/api/v1/bookings/{booking_id}', { params: { path: { booking_id: '42' } } }));
 */
export async function unwrap<TData>(pending: Promise<FetchResult<TData>>): Promise<TData> {
  const result = await pending;
  if (!result.response.ok) throw toApiError(result);
  return result.data as TData;
}

/**
 * Like `unwrap`, keeping the idempotency key and request id next to the data.
 *
 * @example
 * const { data, idempotencyKey } = await unwrapWithMeta(client.raw.POST('/api/v1/bookings/{booking_id}/authorize', init));
 */
export async function unwrapWithMeta<TData>(pending: Promise<FetchResult<TData>>): Promise<ApiResult<TData>> {
  const result = await pending;
  if (!result.response.ok) throw toApiError(result);
  const meta = responseMeta(result.response);
  return { data: result.data as TData, idempotencyKey: meta.idempotencyKey ?? '', requestId: meta.requestId };
}
