/** Ground transfers: search (stream, by provider, batch, filtered results), quote, idempotent booking. */
import type { SettleRules } from '../core/pending.ts';
import { unwrap } from '../core/result.ts';
import type { StreamOptions } from '../core/stream.ts';
import type { components } from '../generated/schema.ts';
import { type BookingCallOptions, bookWithOutcome } from './booking-outcome.ts';
import { type ClientContext, type RequestOptions, signalOf } from './context.ts';
import { listPages } from './lists.ts';
import { type BatchResult, collectOffers, openSearchStream, readBatch } from './search-handle.ts';
import type { BodyOf, QueryOf, ResponseOf } from './types.ts';

/** A transfer booking as `GET /api/v1/transport/bookings/{booking_id}` returns it. */
export type TransferBooking = ResponseOf<'/api/v1/transport/bookings/{booking_id}', 'get'>;
type TransferBatch = ResponseOf<'/api/v1/transport/search/batch/{search_id}', 'get'>;

/** Transfer booking statuses that mean "not settled yet" / "did not happen". */
export const TRANSFER_BOOKING_RULES: SettleRules = {
  // on_request: the provider confirms later, so it is not settled yet either.
  pending: ['pending', 'on_request'],
  failed: ['failed', 'rejected', 'cancelled'],
};

/** An event of the offer-by-offer stream. */
export type TransportStreamEvent = components['schemas']['TransportStreamEvent'];
/** An event of the provider-by-provider stream. */
export type TransportProviderStreamEvent = components['schemas']['TransportProviderStreamEvent'];
/** One offer. */
export type TransferOffer = components['schemas']['TransferOffer'];

/** A started transfer search. */
export interface TransferSearch {
  searchId: string;
  /** The initiation response; undefined for a handle made by `resume()`. */
  started: ResponseOf<'/api/v1/transport/search', 'post'> | undefined;
  /** `transport_offer` events one at a time, then `done`. */
  stream(options?: StreamOptions): AsyncGenerator<TransportStreamEvent, void, undefined>;
  /** `provider_results` events, one complete set per provider. */
  byProvider(options?: StreamOptions): AsyncGenerator<TransportProviderStreamEvent, void, undefined>;
  batch(options?: { timeout?: number } & RequestOptions): Promise<BatchResult<TransferBatch>>;
  results(
    query?: QueryOf<'/api/v1/transport/search/results/{search_id}', 'get'>,
    options?: RequestOptions,
  ): Promise<ResponseOf<'/api/v1/transport/search/results/{search_id}', 'get'>>;
  offers(options?: StreamOptions): Promise<TransferOffer[]>;
}

/**
 * The `transfers` namespace.
 *
 * @example
 * const search = await travel.transfers.search({ pickup_location: 'DXB', dropoff_location: 'Burj Al Arab',
 *   pickup_datetime: '2026-12-20T10:00:00Z' });
 * const offers = await search.offers();
 */
export function transfersResource(ctx: ClientContext) {
  const get = (bookingId: number, options?: RequestOptions) =>
    unwrap(
      ctx.raw.GET('/api/v1/transport/bookings/{booking_id}', {
        params: { path: { booking_id: bookingId } },
        ...signalOf(options),
      }),
    );
  const handle = (searchId: string, started: TransferSearch['started']): TransferSearch => {
    const id = encodeURIComponent(searchId);
    const stream = (options?: StreamOptions) =>
      openSearchStream<TransportStreamEvent>(ctx, `/api/v1/transport/search/stream/${id}`, options);
    return {
      searchId,
      started,
      stream,
      byProvider: (options) =>
        openSearchStream<TransportProviderStreamEvent>(
          ctx,
          `/api/v1/transport/search/stream-by-provider/${id}`,
          options,
        ),
      batch: (options) =>
        readBatch(
          ctx.raw.GET('/api/v1/transport/search/batch/{search_id}', {
            params: {
              path: { search_id: searchId },
              query: options?.timeout ? { timeout: options.timeout } : {},
            },
            ...signalOf(options),
          }),
        ),
      results: (query = {}, options) =>
        unwrap(
          ctx.raw.GET('/api/v1/transport/search/results/{search_id}', {
            params: { path: { search_id: searchId }, query },
            ...signalOf(options),
          }),
        ),
      offers: (options) => collectOffers<TransferOffer>(stream(options), 'transport_offer'),
    };
  };
  return {
    async search(
      body: BodyOf<'/api/v1/transport/search', 'post'>,
      options?: RequestOptions,
    ): Promise<TransferSearch> {
      const started = await unwrap(ctx.raw.POST('/api/v1/transport/search', { body, ...signalOf(options) }));
      return handle(started.search_id, started);
    },
    resume: (searchId: string) => handle(searchId, undefined),
    /** Availability and price of a quote from the search results. */
    quote: (body: BodyOf<'/api/v1/transport/quote', 'post'>, options?: RequestOptions) =>
      unwrap(ctx.raw.POST('/api/v1/transport/quote', { body, ...signalOf(options) })),
    /** Idempotent; a 502 pending confirmation is polled to `confirmed` / `failed` / `pending`. */
    book: (body: BodyOf<'/api/v1/transport/book', 'post'>, options?: BookingCallOptions) =>
      bookWithOutcome<TransferBooking>(
        ctx,
        (key) =>
          ctx.raw.POST('/api/v1/transport/book', {
            body,
            params: { header: { 'Idempotency-Key': key } },
            ...signalOf(options),
          }),
        (id, signal) => get(id, signal ? { signal } : undefined),
        TRANSFER_BOOKING_RULES,
        options,
      ),
    /** Every transfer booking of the caller, page by page. */
    list: (query: QueryOf<'/api/v1/transport/bookings', 'get'> = {}, options?: RequestOptions) =>
      listPages(
        (page) =>
          unwrap(
            ctx.raw.GET('/api/v1/transport/bookings', {
              params: { query: { ...query, page } },
              ...signalOf(options),
            }),
          ),
        query.page ?? 1,
      ),
    get,
    cancel: (bookingId: number, options?: RequestOptions) =>
      unwrap(
        ctx.raw.POST('/api/v1/transport/bookings/{booking_id}/cancel', {
          params: { path: { booking_id: bookingId } },
          body: {},
          ...signalOf(options),
        }),
      ),
  };
}
