import {
  errorResponse,
  int,
  jsonResponse,
  lastEventIdParam,
  num,
  pathParam,
  queryParam,
  ref,
  searchIdParam,
  str,
} from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, notFound, ok, SSE_DESCRIPTION, searchGone, sseResponse } from './shared.ts';

const flightDefs: OpDef[] = [
  {
    method: 'post',
    path: '/api/v1/flight/getFare',
    operationId: 'searchFlights',
    summary: 'Start a flight search',
    description:
      'Starts an asynchronous search across the flight suppliers and returns at once. Read results from the stream (`streamUrl`), the stream grouped by GDS, or the batch endpoint. companyCode and userCode must be the caller’s own: another company is 403 `tenant_mismatch` (as on every operation), another user’s userCode 403 `company_mismatch`.',
    auth: 'user',
    rateLimited: true,
    body: ref('FlightSearchRequest'),
    responses: {
      202: jsonResponse('Search started.', ref('FlightSearchSession')),
    },
    errors: {
      ...badRequest('invalid_search', 'invalid_date', 'invalid_passenger_mix', 'no_supplier_available'),
    },
    // unknown_location: an origin or destination the reference data does not know, with
    // loc ["body","searchAirLegs",i,"origin"|"destination"]; nothing is searched.
    extraCodes: { 403: ['tenant_mismatch', 'company_mismatch'], 422: ['unknown_location'] },
  },
  {
    method: 'get',
    path: '/api/v1/flight/offers/{offer_id}',
    operationId: 'getFlightOffer',
    summary: 'One flight offer as stored',
    description:
      'Addition: the offer as the caller’s search stored it (price and its currency, booking_requirements, expiry), so a client holding only an offer_id can learn what to book it in and what the booking needs. Offers of another user’s or company’s search are 404, as missing ones are; an offer whose search expired is 410 `offer_expired`.',
    auth: 'user',
    addition: true,
    parameters: [
      pathParam('offer_id', str({ minLength: 1, maxLength: 128 }), 'The offer_id from search results.'),
    ],
    responses: ok('FlightOffer', 'The offer.'),
    errors: {
      ...badRequest('invalid_offer_id'),
      ...notFound('offer_not_found'),
      410: errorResponse(410, ['offer_expired']),
    },
  },
  {
    method: 'get',
    path: '/api/v1/flight/getFare/stream/{search_id}',
    operationId: 'streamFlightOffers',
    summary: 'Stream flight offers as they arrive',
    description: `Events: \`offer\` (one FlightOffer), \`supplier_done\` (one supplier finished), \`heartbeat\`, and the terminal \`done\`. ${SSE_DESCRIPTION}`,
    auth: 'user',
    sse: true,
    rateLimited: true,
    parameters: [searchIdParam(), lastEventIdParam()],
    responses: { 200: sseResponse('FlightStreamEvent', 'Event stream (`text/event-stream`).') },
    errors: searchGone(),
  },
  {
    method: 'get',
    path: '/api/v1/flight/getFare/stream-by-gds/{search_id}',
    operationId: 'streamFlightOffersByGds',
    summary: 'Stream flight results grouped by GDS',
    description: `Events: \`gds_results\` (all offers of one GDS as it completes), \`heartbeat\`, and the terminal \`done\`. ${SSE_DESCRIPTION}`,
    auth: 'user',
    sse: true,
    rateLimited: true,
    parameters: [searchIdParam(), lastEventIdParam()],
    responses: { 200: sseResponse('FlightGdsStreamEvent', 'Event stream (`text/event-stream`).') },
    errors: searchGone(),
  },
  {
    method: 'get',
    path: '/api/v1/flight/getFare/batch/{search_id}',
    operationId: 'getFlightBatchResults',
    summary: 'Wait for all flight results',
    description:
      'Waits until every GDS has finished or the timeout elapses. 200 when all finished (timed_out=false); 408 with the same body holding the partial results (timed_out=true) when the timeout cut the wait.',
    auth: 'user',
    parameters: [
      searchIdParam(),
      queryParam('timeout', int({ minimum: 5, maximum: 120, default: 30 }), {
        description: 'Seconds to wait.',
      }),
    ],
    responses: ok('FlightBatchResult', 'Every GDS finished.'),
    errors: {
      ...searchGone(),
      408: {
        ...jsonResponse(
          'The timeout was reached: partial results (timed_out=true).',
          ref('FlightBatchResult'),
        ),
      },
    },
  },
];

const referenceParams = () => [
  queryParam('query', str({ minLength: 2, maxLength: 50 }), {
    required: true,
    description:
      'Name, IATA/ICAO code, city (airports) or typo-tolerant text. Airports also match an IATA city code (NYC: JFK, LGA), a former city name (Bombay, Peking, Saigon, Calcutta) and, for a two-character query, the start of their IATA code (DX: DXB), most important first.',
  }),
  queryParam('limit', int({ minimum: 1, maximum: 50, default: 10 })),
  queryParam('country', str({ maxLength: 100 }), { description: 'Only this country (name or ISO code).' }),
];

const referenceDefs: OpDef[] = [
  {
    method: 'get',
    path: '/api/v1/airlines/search',
    operationId: 'searchAirlines',
    summary: 'Airline suggestions',
    description: 'Ranked airline suggestions matching name, exact IATA/ICAO code, or typo-tolerant text.',
    auth: 'none',
    rateLimited: true,
    parameters: referenceParams(),
    responses: ok('AirlineSearchResponse', 'Suggestions with total count.'),
  },
  {
    method: 'get',
    path: '/api/v1/airports/search',
    operationId: 'searchAirports',
    summary: 'Airport suggestions',
    description:
      'Ranked airport suggestions matching name, exact IATA/ICAO code, IATA city code, city (today’s or a former name), the first two letters of the IATA code, or typo-tolerant text. Among equal matches the main airport of a city code comes first (rome: FCO before CIA), then larger airports. near_lat/near_lon are our documented addition to the spec’s parameters: give both to rank by distance and fill distance_km.',
    auth: 'none',
    rateLimited: true,
    parameters: [
      ...referenceParams(),
      queryParam('near_lat', num({ minimum: -90, maximum: 90 }), {
        description: 'Addition: latitude for a geographic search; requires near_lon.',
      }),
      queryParam('near_lon', num({ minimum: -180, maximum: 180 }), {
        description: 'Addition: longitude for a geographic search; requires near_lat.',
      }),
    ],
    responses: ok('AirportSearchResponse', 'Suggestions with total count.'),
  },
];

export const flightSearchOps = surface('flight-search', flightDefs);
export const referenceOps = surface('reference', referenceDefs);
