/** Hotels: search (stream, by provider, batch, filtered results), rate check, idempotent booking. */
import type { SettleRules } from '../core/pending.ts';
import { unwrap } from '../core/result.ts';
import type { StreamOptions } from '../core/stream.ts';
import type { components } from '../generated/schema.ts';
import { type BookingCallOptions, bookWithOutcome } from './booking-outcome.ts';
import { type ClientContext, type RequestOptions, signalOf } from './context.ts';
import { listPages } from './lists.ts';
import { type BatchResult, collectOffers, openSearchStream, readBatch } from './search-handle.ts';
import type { BodyOf, QueryOf, ResponseOf } from './types.ts';

/** A hotel booking as `GET /api/v1/hotel/bookings/{booking_id}` returns it. */
export type HotelBooking = ResponseOf<'/api/v1/hotel/bookings/{booking_id}', 'get'>;
type HotelBatch = ResponseOf<'/api/v1/hotel/search/batch/{search_id}', 'get'>;

/** Hotel booking statuses that mean "not settled yet" / "did not happen". */
export const HOTEL_BOOKING_RULES: SettleRules = {
  // on_request: the provider confirms later, so it is not settled yet either.
  pending: ['pending', 'on_request'],
  failed: ['failed', 'rejected', 'cancelled'],
};

/** An event of the offer-by-offer stream. */
export type HotelStreamEvent = components['schemas']['HotelStreamEvent'];
/** An event of the provider-by-provider stream. */
export type HotelProviderStreamEvent = components['schemas']['HotelProviderStreamEvent'];
/** One offer. */
export type HotelOffer = components['schemas']['HotelOffer'];

/** A started hotel search. */
export interface HotelSearch {
  searchId: string;
  /** The initiation response; undefined for a handle made by `resume()`. */
  started: ResponseOf<'/api/v1/hotel/search', 'post'> | undefined;
  /** `hotel_offer` events one at a time, then `done`. */
  stream(options?: StreamOptions): AsyncGenerator<HotelStreamEvent, void, undefined>;
  /** `provider_results` events, one complete set per provider. */
  byProvider(options?: StreamOptions): AsyncGenerator<HotelProviderStreamEvent, void, undefined>;
  batch(options?: { timeout?: number } & RequestOptions): Promise<BatchResult<HotelBatch>>;
  results(
    query?: QueryOf<'/api/v1/hotel/search/results/{search_id}', 'get'>,
    options?: RequestOptions,
  ): Promise<ResponseOf<'/api/v1/hotel/search/results/{search_id}', 'get'>>;
  offers(options?: StreamOptions): Promise<HotelOffer[]>;
}

/**
 * The `hotels` namespace.
 *
 * @example
 * const search = await travel.hotels.search({ destination: 'DXB', check_in: '2026-12-20', check_out: '2026-12-23',
 *   company_code: 'ACME', user_code: 'U1' });
 * const offers = await search.offers();
 */
export function hotelsResource(ctx: ClientContext) {
  const get = (bookingId: number, options?: RequestOptions) =>
    unwrap(
      ctx.raw.GET('/api/v1/hotel/bookings/{booking_id}', {
        params: { path: { booking_id: bookingId } },
        ...signalOf(options),
      }),
    );
  const handle = (searchId: string, started: HotelSearch['started']): HotelSearch => {
    const id = encodeURIComponent(searchId);
    const stream = (options?: StreamOptions) =>
      openSearchStream<HotelStreamEvent>(ctx, `/api/v1/hotel/search/stream/${id}`, options);
    return {
      searchId,
      started,
      stream,
      byProvider: (options) =>
        openSearchStream<HotelProviderStreamEvent>(
          ctx,
          `/api/v1/hotel/search/stream-by-provider/${id}`,
          options,
        ),
      batch: (options) =>
        readBatch(
          ctx.raw.GET('/api/v1/hotel/search/batch/{search_id}', {
            params: {
              path: { search_id: searchId },
              query: options?.timeout ? { timeout: options.timeout } : {},
            },
            ...signalOf(options),
          }),
        ),
      results: (query = {}, options) =>
        unwrap(
          ctx.raw.GET('/api/v1/hotel/search/results/{search_id}', {
            params: { path: { search_id: searchId }, query },
            ...signalOf(options),
          }),
        ),
      offers: (options) => collectOffers<HotelOffer>(stream(options), 'hotel_offer'),
    };
  };
  return {
    async search(
      body: BodyOf<'/api/v1/hotel/search', 'post'>,
      options?: RequestOptions,
    ): Promise<HotelSearch> {
      const started = await unwrap(ctx.raw.POST('/api/v1/hotel/search', { body, ...signalOf(options) }));
      return handle(started.search_id, started);
    },
    resume: (searchId: string) => handle(searchId, undefined),
    /** Must precede `book`: availability and the current price of the rate. */
    checkRate: (body: BodyOf<'/api/v1/hotel/check-rate', 'post'>, options?: RequestOptions) =>
      unwrap(ctx.raw.POST('/api/v1/hotel/check-rate', { body, ...signalOf(options) })),
    /** Idempotent; a 502 pending confirmation is polled to `confirmed` / `failed` / `pending`. */
    book: (body: BodyOf<'/api/v1/hotel/book', 'post'>, options?: BookingCallOptions) =>
      bookWithOutcome<HotelBooking>(
        ctx,
        (key) =>
          ctx.raw.POST('/api/v1/hotel/book', {
            body,
            params: { header: { 'Idempotency-Key': key } },
            ...signalOf(options),
          }),
        (id, signal) => get(id, signal ? { signal } : undefined),
        HOTEL_BOOKING_RULES,
        options,
      ),
    /** Every hotel booking of the caller, page by page. */
    list: (query: QueryOf<'/api/v1/hotel/bookings', 'get'> = {}, options?: RequestOptions) =>
      listPages(
        (page) =>
          unwrap(
            ctx.raw.GET('/api/v1/hotel/bookings', {
              params: { query: { ...query, page } },
              ...signalOf(options),
            }),
          ),
        query.page ?? 1,
      ),
    get,
    cancel: (bookingId: number, options?: RequestOptions) =>
      unwrap(
        ctx.raw.POST('/api/v1/hotel/bookings/{booking_id}/cancel', {
          params: { path: { booking_id: bookingId } },
          body: {},
          ...signalOf(options),
        }),
      ),
  };
}
