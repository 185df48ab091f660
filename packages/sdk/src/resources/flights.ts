/** Flight search: start it, then stream, group by GDS, batch-read, or just collect the offers. */

import type { components } from '@travel/contract';
import { unwrap } from '../core/result.ts';
import type { StreamOptions } from '../core/stream.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import { type BatchQuery, batchCall, collectOffers, openSearchStream, readBatch } from './search-handle.ts';
import type { BodyOf, ResponseOf } from './types.ts';

/** The body of `flights.search()`. */
export type FlightSearchRequest = BodyOf<'/api/v1/flight/getFare', 'post'>;
/** What the search initiation answered (searchId, status, streamUrl). */
export type FlightSearchStarted = ResponseOf<'/api/v1/flight/getFare', 'post'>;
/** The batch body. */
export type FlightBatch = ResponseOf<'/api/v1/flight/getFare/batch/{search_id}', 'get'>;

/** An event of the offer stream: `offer`, `supplier_done`, `heartbeat` (only if asked for), then `done`. */
export type FlightStreamEvent = components['schemas']['FlightStreamEvent'];
/** An event of the by-GDS stream: `gds_results` per supplier, then `done`. */
export type FlightGdsStreamEvent = components['schemas']['FlightGdsStreamEvent'];
/** One flight offer. */
export type FlightOffer = components['schemas']['FlightOffer'];

/** The name of the flight stream's per-offer event. */
export const FLIGHT_OFFER_EVENT = 'offer';

/** A started flight search. */
export interface FlightSearch {
  searchId: string;
  /** The initiation response; undefined for a handle made by `resume()`. */
  started: FlightSearchStarted | undefined;
  /** Offers as they arrive, across reconnects, each exactly once, ending with the `done` event. */
  stream(options?: StreamOptions): AsyncGenerator<FlightStreamEvent, void, undefined>;
  /** One result group per GDS as each completes. */
  byGds(options?: StreamOptions): AsyncGenerator<FlightGdsStreamEvent, void, undefined>;
  /**
   * Waits server-side up to `query.timeout` seconds (5-120); the server's timeout gives `partial: true`, not
   * an error. The attempt's own timeout is stretched to cover that wait unless `options.timeout` says otherwise.
   */
  batch(query?: BatchQuery, options?: RequestOptions): Promise<FlightBatch & { partial: boolean }>;
  /** Streams to the end and returns every offer. */
  offers(options?: StreamOptions): Promise<FlightOffer[]>;
}

function flightSearch(ctx: ClientContext, searchId: string, started?: FlightSearchStarted): FlightSearch {
  const id = encodeURIComponent(searchId);
  const stream = (options?: StreamOptions) =>
    openSearchStream<FlightStreamEvent>(ctx, `/api/v1/flight/getFare/stream/${id}`, options);
  return {
    searchId,
    started,
    stream,
    byGds: (options) =>
      openSearchStream<FlightGdsStreamEvent>(ctx, `/api/v1/flight/getFare/stream-by-gds/${id}`, options),
    batch: (query, options) => {
      const { wait, init } = batchCall(ctx, query, options);
      return readBatch(
        ctx.raw.GET('/api/v1/flight/getFare/batch/{search_id}', {
          params: { path: { search_id: searchId }, query: wait },
          ...init,
        }),
      );
    },
    offers: (options) => collectOffers<FlightOffer>(stream(options), FLIGHT_OFFER_EVENT),
  };
}

/**
 * The `flights` namespace.
 *
 * @example
 * const search = await travel.flights.search({ companyCode: 'ACME', userCode: 'U1',
 *   searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: '2026-12-20' }] });
 * for await (const event of search.stream()) console.log(event.event, event.data);
 */
export function flightsResource(ctx: ClientContext) {
  return {
    /** POST /api/v1/flight/getFare, then a handle on the running search. */
    async search(body: FlightSearchRequest, options?: RequestOptions): Promise<FlightSearch> {
      const started = await unwrap(ctx.raw.POST('/api/v1/flight/getFare', { body, ...ctx.init(options) }));
      return flightSearch(ctx, started.searchId, started);
    },
    /** One offer as the server stored it from a search (what revalidation and booking start from). */
    offer: (offerId: string, options?: RequestOptions) =>
      unwrap(
        ctx.raw.GET('/api/v1/flight/offers/{offer_id}', {
          params: { path: { offer_id: offerId } },
          ...ctx.init(options),
        }),
      ),
    /** A handle on a search started earlier (e.g. by another process). */
    resume(searchId: string): FlightSearch {
      return flightSearch(ctx, searchId);
    },
  };
}
