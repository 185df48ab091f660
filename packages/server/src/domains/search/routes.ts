/**
 * Flight, hotel and transport search over HTTP: start (202), offer stream, grouped stream, batch, and
 * (hotel, transport) the results page. Thin: the engine and readers in `search/` do the work. 429s come
 * from the kernel's rate-limit middleware (these operations are `rateLimited` in the contract).
 *
 * METHOD /path → operationId:
 *   POST /api/v1/flight/getFare → searchFlights
 *   GET  /api/v1/flight/getFare/batch/{search_id} → getFlightBatchResults
 *   GET  /api/v1/flight/getFare/stream-by-gds/{search_id} → streamFlightOffersByGds
 *   GET  /api/v1/flight/getFare/stream/{search_id} → streamFlightOffers
 *   POST /api/v1/hotel/search → searchHotels
 *   GET  /api/v1/hotel/search/batch/{search_id} → getHotelBatchResults
 *   GET  /api/v1/hotel/search/results/{search_id} → getHotelSearchResults
 *   GET  /api/v1/hotel/search/stream-by-provider/{search_id} → streamHotelOffersByProvider
 *   GET  /api/v1/hotel/search/stream/{search_id} → streamHotelOffers
 *   POST /api/v1/transport/search → searchTransport
 *   GET  /api/v1/transport/search/batch/{search_id} → getTransportBatchResults
 *   GET  /api/v1/transport/search/results/{search_id} → getTransportSearchResults
 *   GET  /api/v1/transport/search/stream-by-provider/{search_id} → streamTransportOffersByProvider
 *   GET  /api/v1/transport/search/stream/{search_id} → streamTransportOffers
 */

import { destinations } from '../../internal/places/places.ts';
import { unauthorized } from '../../kernel/errors.ts';
import type {
  HandlerResult,
  OperationContext,
  RequestContext,
  Routes,
  SseResult,
} from '../../kernel/types.ts';
import { batchResult, searchOffers, waitForSearch } from '../../search/batch-reader.ts';
import {
  eventStream,
  groupStream,
  lastEventId,
  type StreamNames,
  streamableSession,
} from '../../search/readers.ts';
import { resultsPage } from '../../search/results-page.ts';
import type { SearchService } from '../../search/service.ts';
import { type OwnUserCode, readableSession } from '../../search/session-store.ts';
import type { SearchStatus, Vertical } from '../../search/tables.ts';
import { offerRoutes } from './offer-routes.ts';
import { ownCodes, validateFlightSearch, validateHotelSearch, validateTransportSearch } from './validate.ts';

const OFFER_STREAM: Record<Vertical, StreamNames> = {
  flight: { offer: 'offer', supplier_done: 'supplier_done', done: 'done' },
  hotel: { offer: 'hotel_offer', status_update: 'status_update', done: 'done' },
  transport: { offer: 'transport_offer', done: 'done' },
};
const GROUP_EVENT: Record<Vertical, { event: string; key: 'gds' | 'provider' }> = {
  flight: { event: 'gds_results', key: 'gds' },
  hotel: { event: 'provider_results', key: 'provider' },
  transport: { event: 'provider_results', key: 'provider' },
};
const BASE: Record<Vertical, string> = {
  flight: '/api/v1/flight/getFare',
  hotel: '/api/v1/hotel/search',
  transport: '/api/v1/transport/search',
};

/** The place a (validated) hotel destination is read as, as the 202 reports it. */
function resolvedDestination(value: string) {
  const p = destinations().resolve(value);
  if ('unknown' in p) return undefined;
  return {
    kind: p.kind,
    name: p.name,
    country: p.country || null,
    region: p.region,
    latitude: p.latitude,
    longitude: p.longitude,
    code: p.code,
    alternatives: p.alternatives,
  };
}

function caller(ctx: RequestContext) {
  if (!ctx.auth) throw unauthorized('not_authenticated', 'Authentication required.');
  return ctx.auth;
}

export function searchRoutes(s: SearchService): Routes {
  const session = (ctx: RequestContext, vertical: Vertical) =>
    readableSession(s.db, String(ctx.params.search_id), caller(ctx), vertical, s.clock.now());

  const start = async (
    ctx: OperationContext<'searchFlights' | 'searchHotels' | 'searchTransport'>,
    vertical: Vertical,
  ) => {
    // The validators below check what the schema cannot (dates, leg order, codes) on any of the three bodies.
    let body: Record<string, unknown> = ctx.body;
    const auth = caller(ctx);
    const now = s.clock.now();
    // The user code is checked by the statement that records the session (one round trip before the 202).
    let userCode: OwnUserCode | undefined;
    if (vertical === 'flight') {
      validateFlightSearch(body, now);
      userCode = ownCodes(ctx, body.companyCode, body.userCode);
    } else if (vertical === 'hotel') {
      validateHotelSearch(body, now);
      userCode = ownCodes(ctx, body.company_code, body.user_code);
    } else {
      // Pickup times in the suppliers' local form (a zoned time converted at the pickup point's zone).
      body = validateTransportSearch(body, now);
    }
    return s.engine.start(vertical, body, { userId: auth.userId, companyId: auth.companyId }, userCode);
  };

  /** A stream's session: its identity is read once per search and process, not once per reader. */
  const streamed = (ctx: RequestContext, vertical: Vertical) =>
    streamableSession(s.readers, String(ctx.params.search_id), caller(ctx), vertical);

  const stream =
    (vertical: Vertical) =>
    async (ctx: RequestContext): Promise<SseResult> => {
      const ses = await streamed(ctx, vertical);
      const after = lastEventId(ctx.headers['last-event-id']);
      // The client-gone signal is made only if the stream is iterated (the node path never needs it).
      const signal = () => ctx.signal;
      return { status: 200, sse: eventStream(s.readers, ses, after, OFFER_STREAM[vertical], signal) };
    };

  const grouped =
    (vertical: Vertical) =>
    async (ctx: RequestContext): Promise<SseResult> => {
      const ses = await streamed(ctx, vertical);
      const after = lastEventId(ctx.headers['last-event-id']);
      const g = GROUP_EVENT[vertical];
      return { status: 200, sse: groupStream(s.readers, ses, after, g.event, g.key, ctx.signal) };
    };

  const batch =
    (vertical: Vertical) =>
    async (ctx: RequestContext): Promise<HandlerResult> => {
      const ses = await session(ctx, vertical);
      const seconds = typeof ctx.query.timeout === 'number' ? ctx.query.timeout : 30;
      const stop = new AbortController();
      const onGone = () => stop.abort();
      ctx.signal.addEventListener('abort', onGone, { once: true });
      try {
        const {
          session: done,
          cut,
          offers,
        } = await waitForSearch(s.readers, ses.id, s.batchDeadline(seconds, stop.signal), ctx.signal);
        const body = await batchResult(s.db, done, cut, GROUP_EVENT[vertical].key, offers);
        return { status: cut ? 408 : 200, body };
      } finally {
        stop.abort();
        ctx.signal.removeEventListener('abort', onGone);
      }
    };

  const results =
    (vertical: Vertical) =>
    async (ctx: RequestContext): Promise<HandlerResult> => {
      const ses = await session(ctx, vertical);
      const q = ctx.query;
      const num = (v: unknown) =>
        typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : undefined;
      const page = num(q.page) ?? 1;
      const pageSize = num(q.page_size) ?? 20;
      const { items, total } = resultsPage(await searchOffers(s.db, ses.id), {
        page,
        page_size: pageSize,
        ...(num(q.min_price) !== undefined ? { min_price: num(q.min_price) as number } : {}),
        ...(num(q.max_price) !== undefined ? { max_price: num(q.max_price) as number } : {}),
        ...(num(q.min_stars) !== undefined ? { min_stars: num(q.min_stars) as number } : {}),
        ...(typeof q.transfer_type === 'string' ? { transfer_type: q.transfer_type } : {}),
        ...(typeof q.vehicle_category === 'string' ? { vehicle_category: q.vehicle_category } : {}),
        ...(typeof q.sort_by === 'string' ? { sort_by: q.sort_by } : {}),
      });
      return {
        status: 200,
        body: {
          search_id: ses.id,
          status: ses.status,
          items,
          total,
          page,
          page_size: pageSize,
          completed_provider_count: ses.completed_suppliers,
          total_provider_count: ses.total_suppliers,
        },
      };
    };

  const initiation = (vertical: Vertical, id: string, status: SearchStatus, expires: Date) => {
    const base = BASE[vertical];
    return {
      search_id: id,
      status,
      stream_url: `${base}/stream/${id}`,
      stream_by_provider_url: `${base}/stream-by-provider/${id}`,
      batch_url: `${base}/batch/${id}`,
      results_url: `${base}/results/${id}`,
      expires_at: expires.toISOString(),
    };
  };

  return {
    searchFlights: async (ctx) => {
      const r = await start(ctx, 'flight');
      return {
        status: 202,
        body: { searchId: r.id, status: r.status, streamUrl: `${BASE.flight}/stream/${r.id}` },
      };
    },
    streamFlightOffers: stream('flight'),
    streamFlightOffersByGds: grouped('flight'),
    getFlightBatchResults: batch('flight'),

    searchHotels: async (ctx) => {
      const r = await start(ctx, 'hotel');
      const destination = resolvedDestination(String(ctx.body.destination));
      return { status: 202, body: { ...initiation('hotel', r.id, r.status, r.expires_at), destination } };
    },
    streamHotelOffers: stream('hotel'),
    streamHotelOffersByProvider: grouped('hotel'),
    getHotelBatchResults: batch('hotel'),
    getHotelSearchResults: results('hotel'),

    searchTransport: async (ctx) => {
      const r = await start(ctx, 'transport');
      return { status: 202, body: initiation('transport', r.id, r.status, r.expires_at) };
    },
    streamTransportOffers: stream('transport'),
    streamTransportOffersByProvider: grouped('transport'),
    getTransportBatchResults: batch('transport'),
    getTransportSearchResults: results('transport'),
    ...offerRoutes(s),
  };
}
