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
import type { ClientContext, RequestOptions } from './context.ts';
import { listPages } from './lists.ts';
import {
  type BatchQuery,
  type BatchResult,
  batchCall,
  collectOffers,
  openSearchStream,
  readBatch,
} from './search-handle.ts';
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
  /** Waits server-side up to `query.timeout` seconds; see the flight search handle's `batch`. */
  batch(query?: BatchQuery, options?: RequestOptions): Promise<BatchResult<Batch<S>>>;
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
        ...ctx.init(options),
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
      batch: (query, options) => {
        const { wait, init } = batchCall(ctx, query, options);
        return readBatch<Batch<S>>(
          raw.GET(`${base}/search/batch/{search_id}`, {
            params: { path: { search_id: searchId }, query: wait },
            ...init,
          }),
        );
      },
      results: (query, options) =>
        unwrap(
          raw.GET(`${base}/search/results/{search_id}`, {
            params: { path: { search_id: searchId }, query: query ?? {} },
            ...ctx.init(options),
          }),
        ),
      offers: (options) => collectOffers<SegmentSchemas[S]['offer']>(stream(options), offerEvent),
    };
  };
  return {
    async search(body, options) {
      const started = await unwrap<NonNullable<ReservationSearch<S>['started']> & { search_id: string }>(
        raw.POST(`${base}/search`, { body, ...ctx.init(options) }),
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
            ...ctx.init(options),
          }),
        (id, signal) => get(id, signal ? { signal } : undefined),
        RESERVATION_BOOKING_RULES,
        `${seg}_booking`,
        options,
      ),
    list: (query, options) => {
      // Both verticals' list queries carry `page` (the contract's one template); S leaves that unresolved here.
      const first = (query as { page?: number } | undefined)?.page ?? 1;
      return listPages(
        (page) =>
          unwrap<ResponseOf<PathOf<S, '/bookings'>, 'get'>>(
            raw.GET(`${base}/bookings`, { params: { query: { ...query, page } }, ...ctx.init(options) }),
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
          ...ctx.init(options),
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
    unwrap(raw.POST(path, { body, ...ctx.init(options) }));
}

/** Who is asking: each role reads a vertical's bookings under its own prefix. */
type Role = 'admin' | 'company' | 'customer';
/** `/api/v1/<role>/<seg>-bookings<rest>`, checked against the contract's paths. */
type RolePath<R extends Role, S extends ReservationSegment, Rest extends string> = Extract<
  `/api/v1/${R}/${S}-bookings${Rest}`,
  keyof paths
>;

/**
 * A role's read calls on one vertical's bookings (`/api/v1/<role>/<seg>-bookings`): every booking, page by
 * page, and one booking. `adminReservations`, `companyReservations` and `customerReservations` add the
 * role's own calls; hotel and transport share every line.
 */
function roleReservations<R extends Role, S extends ReservationSegment>(ctx: ClientContext, role: R, seg: S) {
  const raw = ctx.raw as unknown as { GET: Call; POST: Call };
  const base = `/api/v1/${role}/${seg}-bookings`;
  type ListPath = RolePath<R, S, ''>;
  return {
    raw,
    base,
    list: (
      query = {} as QueryOf<ListPath, 'get'>,
      options?: RequestOptions,
    ): PageIterator<ItemOf<ResponseOf<ListPath, 'get'>>> =>
      listPages(
        (page) =>
          unwrap<ResponseOf<ListPath, 'get'>>(
            raw.GET(base, { params: { query: { ...query, page } }, ...ctx.init(options) }),
          ),
        (query as { page?: number }).page,
      ),
    get: (
      bookingId: number,
      options?: RequestOptions,
    ): Promise<ResponseOf<RolePath<R, S, '/{booking_id}'>, 'get'>> =>
      unwrap(
        raw.GET(`${base}/{booking_id}`, {
          params: { path: { booking_id: bookingId } },
          ...ctx.init(options),
        }),
      ),
  };
}

/**
 * The admin's calls on one vertical's bookings: list, get, counts by status and a status override.
 *
 * @example
 * const hotels = adminReservations(ctx, 'hotel');
 * for await (const booking of hotels.list({ status: 'on_request' })) console.log(booking.booking_id);
 */
export function adminReservations<S extends ReservationSegment>(ctx: ClientContext, seg: S) {
  const { raw, base, list, get } = roleReservations(ctx, 'admin', seg);
  return {
    list,
    get,
    stats: (options?: RequestOptions): Promise<ResponseOf<RolePath<'admin', S, '/stats/summary'>, 'get'>> =>
      unwrap(raw.GET(`${base}/stats/summary`, { ...ctx.init(options) })),
    overrideStatus: (
      bookingId: number,
      query: QueryOf<RolePath<'admin', S, '/{booking_id}/override-status'>, 'post'>,
      options?: RequestOptions,
    ): Promise<ResponseOf<RolePath<'admin', S, '/{booking_id}/override-status'>, 'post'>> =>
      unwrap(
        raw.POST(`${base}/{booking_id}/override-status`, {
          params: { path: { booking_id: bookingId }, query },
          body: {},
          ...ctx.init(options),
        }),
      ),
  };
}

/**
 * The agency's calls on one vertical's bookings: list, get and the ones needing attention.
 *
 * @example
 * const pending = await companyReservations(ctx, 'transport').pending();
 */
export function companyReservations<S extends ReservationSegment>(ctx: ClientContext, seg: S) {
  const { raw, base, list, get } = roleReservations(ctx, 'company', seg);
  return {
    list,
    pending: (options?: RequestOptions): Promise<ResponseOf<RolePath<'company', S, '/pending'>, 'get'>> =>
      unwrap(raw.GET(`${base}/pending`, { ...ctx.init(options) })),
    get,
  };
}

/**
 * A traveller's calls on their own bookings of one vertical: list, get and cancel.
 *
 * @example
 * await customerReservations(ctx, 'hotel').cancel(42);
 */
export function customerReservations<S extends ReservationSegment>(ctx: ClientContext, seg: S) {
  const { raw, base, list, get } = roleReservations(ctx, 'customer', seg);
  return {
    list,
    get,
    cancel: (
      bookingId: number,
      options?: RequestOptions,
    ): Promise<ResponseOf<RolePath<'customer', S, '/{booking_id}/cancel'>, 'post'>> =>
      unwrap(
        raw.POST(`${base}/{booking_id}/cancel`, {
          params: { path: { booking_id: bookingId } },
          body: {},
          ...ctx.init(options),
        }),
      ),
  };
}
