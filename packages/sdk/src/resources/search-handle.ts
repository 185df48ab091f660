/**
 * The pieces a search handle is made of, shared by flights, hotels and transfers: the two SSE streams, a
 * batch read where a timeout is a partial result (not an exception), and `offers()` that collects the
 * offer events until the terminal event.
 */
import type { FetchResult } from '../core/result.ts';
import { toApiError } from '../core/result.ts';
import { type SseEvent, type StreamOptions, streamEvents } from '../core/stream.ts';
import type { ClientContext, RequestOptions } from './context.ts';

/** The terminal event of every search stream (declared in the contract). */
export const TERMINAL_EVENT = 'done';

/** The batch read's query: how long the server may wait for every supplier, in seconds (5-120). */
export interface BatchQuery {
  timeout?: number;
}

// Time on top of the server's wait for the answer to travel back before the attempt gives up.
const BATCH_GRACE_MS = 10_000;

/**
 * The query and the request init of a batch read. The server may legitimately hold the request for
 * `timeout` seconds, so unless the caller set `options.timeout`, the attempt may take that long too (plus a
 * grace), and never less than the client's own per-attempt timeout.
 *
 * @example
 * const { wait, init } = batchCall(ctx, { timeout: 60 }, options); // attempt timeout >= 70 s
 */
export function batchCall(
  ctx: ClientContext,
  query: BatchQuery | undefined,
  options: RequestOptions | undefined,
) {
  const seconds = query?.timeout;
  const wait = seconds ? { timeout: seconds } : {};
  const stretched =
    seconds && options?.timeout === undefined
      ? { ...options, timeout: Math.max(ctx.timeoutMs, seconds * 1000 + BATCH_GRACE_MS) }
      : options;
  return { wait, init: ctx.init(stretched) };
}

/** A batch result with `partial: true` when the server's wait timed out (HTTP 408). */
export type BatchResult<TBatch> = TBatch & { partial: boolean };

/**
 * Opens one of a search's SSE streams.
 *
 * @example
 * for await (const e of openSearchStream(ctx, `/api/v1/hotel/search/stream/${id}`)) console.log(e.event);
 */
export function openSearchStream<TEvent = SseEvent>(
  ctx: ClientContext,
  path: string,
  options?: StreamOptions,
): AsyncGenerator<TEvent, void, undefined> {
  return streamEvents<TEvent>({ ...ctx.stream, terminalEvent: TERMINAL_EVENT }, ctx.baseUrl + path, options);
}

/**
 * Reads a batch endpoint; a 408 carries the results gathered so far and becomes `partial: true`.
 *
 * @example
 * const batch = await readBatch(ctx.raw.GET('/api/v1/flight/getFare/batch/{search_id}', init));
 */
export async function readBatch<TBatch>(pending: Promise<FetchResult<TBatch>>): Promise<BatchResult<TBatch>> {
  const result = await pending;
  if (result.response.ok) return { ...(result.data as TBatch), partial: false };
  if (result.response.status === 408 && result.error && typeof result.error === 'object') {
    return { ...(result.error as TBatch), partial: true };
  }
  throw toApiError(result);
}

/**
 * Collects the `offer` of every `offerEvent` until the stream's terminal event.
 *
 * @example
 * const offers = await collectOffers(handle.stream(), 'hotel_offer');
 */
export async function collectOffers<TOffer = unknown>(
  events: AsyncIterable<{ event: string; data?: unknown }>,
  offerEvent: string,
): Promise<TOffer[]> {
  const offers: TOffer[] = [];
  for await (const event of events) {
    if (event.event !== offerEvent) continue;
    // Offer events carry `{ offer }` (contract: FlightOfferEvent, HotelOfferEvent, TransportOfferEvent).
    const data = event.data as { offer?: TOffer } | null;
    if (data && typeof data === 'object' && 'offer' in data) offers.push(data.offer as TOffer);
  }
  return offers;
}
