/**
 * One implementation of the two reservation verticals, hotel and transport: search (stream, by provider,
 * batch, filtered results), a price check, idempotent booking, list, get and cancel. The contract builds
 * both verticals from one template (`contract/paths/hotel.ts`, `seg: 'hotel' | 'transport'`), so the
 * paths differ only in their segment; `hotels.ts` and `transfers.ts` name what else differs.
 */

import type { components, paths } from '@travel/contract';
import type { PageIterator } from '../core/pagination.ts';
import type { SettleRules } from '../core/pending.ts';
import { type FetchResult, unwrap } from '../core/result.ts';
import type { StreamOptions } from '../core/stream.ts';
import { type BookingCallOptions, type BookingResult, bookWithOutcome } from './booking-outcome.ts';
import { type ClientContext, type RequestOptions, signalOf } from './context.ts';
import { listPages } from './lists.ts';
import { type BatchResult, collectOffers, openSearchStream, readBatch } from './search-handle.ts';
import type { BodyOf, ItemOf, QueryOf, ResponseOf } from './types.ts';

/** The path segment of a reservation vertical. */
export type ReservationSegment = 'hotel' | 'transport';

type Schemas = components['schemas'];
/** The schema types the contract names differently per vertical. */
interface SegmentSchemas {
  hotel: {
    offer: Schemas['HotelOffer'];
    event: Schemas['HotelStreamEvent'];
    byProvider: Schemas['HotelProviderStreamEvent'];
  };
  transport: {
    offer: Schemas['TransferOffer'];
    event: Schemas['TransportStreamEvent'];
    byProvider: Schemas['TransportProviderStreamEvent'];
  };
}

/** `/api/v1/<seg><rest>`, checked against the contract's paths. */
type PathOf<S extends ReservationSegment, Rest extends string> = Extract<`/api/v1/${S}${Rest}`, keyof paths>;

/** A reservation as `GET /api/v1/<seg>/bookings/{booking_id}` returns it. */
export type ReservationBooking<S extends ReservationSegment> = ResponseOf<
  PathOf<S, '/bookings/{booking_id}'>,
  'get'
> & { status?: unknown };
type Batch<S extends ReservationSegment> = ResponseOf<PathOf<S, '/search/batch/{search_id}'>, 'get'>;
type ResultsPath<S extends ReservationSegment> = PathOf<S, '/search/results/{search_id}'>;

/** Hotel and transfer booking statuses that mean "not settled yet" / "did not happen". */
export const RESERVATION_BOOKING_RULES: SettleRules = {
  // on_request: the provider confirms later, so it is not settled yet either.
  pending: ['pending', 'on_request'],
  failed: ['failed', 'rejected', 'cancelled'],
};

/** A started hotel or transfer search. */
export interface ReservationSearch<S extends ReservationSegment> {
  searchId: string;
  /** The initiation response; undefined for a handle made by `resume()`. */
  started: ResponseOf<PathOf<S, '/search'>, 'post'> | undefined;
  /** Offer events (`hotel_offer` / `transport_offer`) one at a time, then `done`. */
  stream(options?: StreamOptions): AsyncGenerator<SegmentSchemas[S]['event'], void, undefined>;
  /** `provider_results` events, one complete set per provider. */
  byProvider(options?: StreamOptions): AsyncGenerator<SegmentSchemas[S]['byProvider'], void, undefined>;
  batch(options?: { timeout?: number } & RequestOptions): Promise<BatchResult<Batch<S>>>;
  results(
    query?: QueryOf<ResultsPath<S>, 'get'>,
    options?: RequestOptions,
  ): Promise<ResponseOf<ResultsPath<S>, 'get'>>;
  offers(options?: StreamOptions): Promise<SegmentSchemas[S]['offer'][]>;
}

/** The operations both verticals share; each adds its price check under its own name. */
export interface ReservationResource<S extends ReservationSegment> {
  search(body: BodyOf<PathOf<S, '/search'>, 'post'>, options?: RequestOptions): Promise<ReservationSearch<S>>;
  /** A handle for a search started earlier (by id). */
  resume(searchId: string): ReservationSearch<S>;
  /** Idempotent; a 502 pending confirmation is polled to `confirmed` / `failed` / `pending`. */
  book(
    body: BodyOf<PathOf<S, '/book'>, 'post'>,
    options?: BookingCallOptions,
  ): Promise<BookingResult<ReservationBooking<S>>>;
  /** Every booking of the caller in this vertical, page by page. */
  list(
    query?: QueryOf<PathOf<S, '/bookings'>, 'get'>,
    options?: RequestOptions,
  ): PageIterator<ItemOf<ResponseOf<PathOf<S, '/bookings'>, 'get'>>>;
  get(bookingId: number, options?: RequestOptions): Promise<ReservationBooking<S>>;
  cancel(
    bookingId: number,
    options?: RequestOptions,
  ): Promise<ResponseOf<PathOf<S, '/bookings/{booking_id}/cancel'>, 'post'>>;
}

/** openapi-fetch seen through a path that is only known per vertical; the interfaces above carry the types. */
type Call = (path: string, init: object) => Promise<FetchResult<never>>;

/**
 * The shared namespace of one reservation vertical, with its price-check call (`POST /api/v1/<seg>/<check>`).
 *
 * @example
 * const base = reservationResource(ctx, 'hotel');
 * const search = await base.search({ destination: 'DXB', check_in: '2026-12-20', check_out: '2026-12-23' });
 */
export function reservationResource<S extends ReservationSegment>(
  ctx: ClientContext,
  seg: S,
): ReservationResource<S> {
  const raw = ctx.raw as unknown as { GET: Call; POST: Call };
  const base = `/api/v1/${seg}`;
  const offerEvent = `${seg}_offer`;
  const get = (bookingId: number, options?: RequestOptions): Promise<ReservationBooking<S>> =>
    unwrap(
      raw.GET(`${base}/bookings/{booking_id}`, {
        params: { path: { booking_id: bookingId } },
        ...signalOf(options),
      }),
    );
  const handle = (searchId: string, started: ReservationSearch<S>['started']): ReservationSearch<S> => {
    const id = encodeURIComponent(searchId);
    const stream = (options?: StreamOptions) =>
      openSearchStream<SegmentSchemas[S]['event']>(ctx, `${base}/search/stream/${id}`, options);
    return {
      searchId,
      started,
      stream,
      byProvider: (options) =>
        openSearchStream<SegmentSchemas[S]['byProvider']>(
          ctx,
          `${base}/search/stream-by-provider/${id}`,
          options,
        ),
      batch: (options) =>
        readBatch<Batch<S>>(
          raw.GET(`${base}/search/batch/{search_id}`, {
            params: {
              path: { search_id: searchId },
              query: options?.timeout ? { timeout: options.timeout } : {},
            },
            ...signalOf(options),
          }),
        ),
      results: (query, options) =>
        unwrap(
          raw.GET(`${base}/search/results/{search_id}`, {
            params: { path: { search_id: searchId }, query: query ?? {} },
            ...signalOf(options),
          }),
        ),
      offers: (options) => collectOffers<SegmentSchemas[S]['offer']>(stream(options), offerEvent),
    };
  };
  return {
    async search(body, options) {
      const started = await unwrap<NonNullable<ReservationSearch<S>['started']> & { search_id: string }>(
        raw.POST(`${base}/search`, { body, ...signalOf(options) }),
      );
      return handle(started.search_id, started);
    },
    resume: (searchId) => handle(searchId, undefined),
    book: (body, options) =>
      bookWithOutcome<ReservationBooking<S>>(
        ctx,
        (key) =>
          raw.POST(`${base}/book`, {
            body,
            params: { header: { 'Idempotency-Key': key } },
            ...signalOf(options),
          }),
        (id, signal) => get(id, signal ? { signal } : undefined),
        RESERVATION_BOOKING_RULES,
        options,
      ),
    list: (query, options) => {
      // Both verticals' list queries carry `page` (the contract's one template); S leaves that unresolved here.
      const first = (query as { page?: number } | undefined)?.page ?? 1;
      return listPages(
        (page) =>
          unwrap<ResponseOf<PathOf<S, '/bookings'>, 'get'>>(
            raw.GET(`${base}/bookings`, { params: { query: { ...query, page } }, ...signalOf(options) }),
          ),
        first,
      );
    },
    get,
    cancel: (bookingId, options) =>
      unwrap(
        raw.POST(`${base}/bookings/{booking_id}/cancel`, {
          params: { path: { booking_id: bookingId } },
          body: {},
          ...signalOf(options),
        }),
      ),
  };
}

/**
 * The price-check call of a vertical: `POST /api/v1/hotel/check-rate` or `POST /api/v1/transport/quote`.
 *
 * @example
 * const checkRate = priceCheck(ctx, '/api/v1/hotel/check-rate');
 * const rate = await checkRate({ search_id, offer_id });
 */
export function priceCheck<P extends PathOf<ReservationSegment, '/check-rate' | '/quote'>>(
  ctx: ClientContext,
  path: P,
) {
  const raw = ctx.raw as unknown as { POST: Call };
  return (body: BodyOf<P, 'post'>, options?: RequestOptions): Promise<ResponseOf<P, 'post'>> =>
    unwrap(raw.POST(path, { body, ...signalOf(options) }));
}
