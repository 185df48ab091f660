/** Hotel and transport surfaces: they share one shape (search, three read modes, check, book, bookings). */
import {
  idParam,
  int,
  type Json,
  jsonResponse,
  keysetPageParams,
  lastEventIdParam,
  num,
  pageParams,
  queryParam,
  ref,
  searchIdParam,
  str,
} from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import {
  badRequest,
  bookingPending,
  cancellationPending,
  duplicateSupplierReference,
  notFound,
  ok,
  SSE_DESCRIPTION,
  searchGone,
  sseResponse,
  supplierUnavailable,
} from './shared.ts';

interface Kind {
  /** path segment: hotel | transport */
  seg: 'hotel' | 'transport';
  /** operationId noun: Hotel | Transport */
  noun: 'Hotel' | 'Transport';
  /** The operationIds, spelled out so that a grep for one finds its definition. */
  ops: {
    stream: string;
    streamByProvider: string;
    batch: string;
    results: string;
    list: string;
    get: string;
    cancel: string;
  };
  offerEvent: string;
  resultsFilters: Json[];
}

const batchTimeout = () =>
  queryParam('timeout', int({ minimum: 5, maximum: 120, default: 30 }), {
    description: 'Seconds to wait for every provider.',
  });

const priceFilters = () => [
  queryParam('min_price', num({ minimum: 0 }), {
    description: 'Minimum total price in major units of the search currency (e.g. 120.50).',
  }),
  queryParam('max_price', num({ minimum: 0 }), { description: 'Maximum total price in major units.' }),
];

function searchDefs(k: Kind): OpDef[] {
  const base = `/api/v1/${k.seg}/search`;
  return [
    {
      method: 'get',
      path: `${base}/stream/{search_id}`,
      operationId: k.ops.stream,
      summary: `Stream ${k.seg} offers one at a time`,
      description: `Events: \`${k.offerEvent}\` (one offer), \`heartbeat\`${k.seg === 'hotel' ? ', `status_update` (completed or failed)' : ''}, and the terminal \`done\` (our documented addition). ${SSE_DESCRIPTION}`,
      auth: 'user',
      sse: true,
      rateLimited: true,
      parameters: [searchIdParam(), lastEventIdParam()],
      responses: { 200: sseResponse(`${k.noun}StreamEvent`, 'Event stream (`text/event-stream`).') },
      errors: searchGone(),
    },
    {
      method: 'get',
      path: `${base}/stream-by-provider/{search_id}`,
      operationId: k.ops.streamByProvider,
      summary: `Stream ${k.seg} results one provider at a time`,
      description: `Events: \`provider_results\` (the complete offer array of one provider), \`heartbeat\`, and the terminal \`done\` (our documented addition). ${SSE_DESCRIPTION}`,
      auth: 'user',
      sse: true,
      rateLimited: true,
      parameters: [searchIdParam(), lastEventIdParam()],
      responses: { 200: sseResponse(`${k.noun}ProviderStreamEvent`, 'Event stream (`text/event-stream`).') },
      errors: searchGone(),
    },
    {
      method: 'get',
      path: `${base}/batch/{search_id}`,
      operationId: k.ops.batch,
      summary: `Wait for all ${k.seg} results`,
      description:
        'Waits until every provider has finished or the timeout elapses. 200 when all finished (timed_out=false); 408 with the same body holding the partial results (timed_out=true) when the timeout cut the wait.',
      auth: 'user',
      parameters: [searchIdParam(), batchTimeout()],
      responses: ok(`${k.noun}BatchResult`, 'Every provider finished.'),
      errors: {
        ...searchGone(),
        408: jsonResponse(
          'The timeout was reached: partial results (timed_out=true).',
          ref(`${k.noun}BatchResult`),
        ),
      },
    },
    {
      method: 'get',
      path: `${base}/results/{search_id}`,
      operationId: k.ops.results,
      summary: `Current ${k.seg} results (poll)`,
      description:
        'The results so far and the search status, filtered, sorted and paginated. Poll until status is final.',
      auth: 'user',
      parameters: [searchIdParam(), ...pageParams(), ...priceFilters(), ...k.resultsFilters],
      responses: ok(`${k.noun}ResultsPage`, 'Current results and status.'),
      errors: searchGone(),
    },
  ];
}

function bookingDefs(k: Kind, bookingSchema: string, bookingStatus: string): OpDef[] {
  const base = `/api/v1/${k.seg}/bookings`;
  const notFoundCode = `${k.seg}_booking_not_found`;
  return [
    {
      method: 'get',
      path: base,
      operationId: k.ops.list,
      summary: `The caller’s ${k.seg} bookings`,
      description: 'Newest first.',
      auth: 'user',
      parameters: keysetPageParams('booking_id'),
      responses: ok(`${bookingSchema}Page`, 'A page of bookings.'),
    },
    {
      method: 'get',
      path: `${base}/{booking_id}`,
      operationId: k.ops.get,
      summary: `A ${k.seg} booking`,
      auth: 'user',
      parameters: [idParam('booking_id', `${k.seg} booking`)],
      responses: ok(bookingSchema, 'The booking.'),
      errors: notFound(notFoundCode),
    },
    {
      method: 'post',
      path: `${base}/{booking_id}/cancel`,
      operationId: k.ops.cancel,
      summary: `Cancel a ${k.seg} booking`,
      description: `Calls the provider’s cancellation and updates the status (${bookingStatus} cancelled). The response carries the cancellation fee where applicable. The intent is recorded before the provider is called: a lost provider answer is 502 \`cancellation_pending\` (settled by asking the provider; a repeated cancel asks again, never cancels twice).`,
      auth: 'user',
      parameters: [idParam('booking_id', `${k.seg} booking`)],
      responses: ok(`${bookingSchema}Cancellation`, 'Cancelled.'),
      errors: {
        ...badRequest('cancellation_failed', 'invalid_booking_state', 'not_cancellable'),
        ...notFound(notFoundCode),
        ...supplierUnavailable(),
        ...cancellationPending(),
      },
    },
  ];
}

const hotel: Kind = {
  seg: 'hotel',
  noun: 'Hotel',
  ops: {
    stream: 'streamHotelOffers',
    streamByProvider: 'streamHotelOffersByProvider',
    batch: 'getHotelBatchResults',
    results: 'getHotelSearchResults',
    list: 'listHotelBookings',
    get: 'getHotelBooking',
    cancel: 'cancelHotelBooking',
  },
  offerEvent: 'hotel_offer',
  resultsFilters: [
    queryParam('min_stars', int({ minimum: 1, maximum: 5 })),
    queryParam('sort_by', ref('HotelSortBy', { default: 'price_asc' })),
  ],
};

const transport: Kind = {
  seg: 'transport',
  noun: 'Transport',
  ops: {
    stream: 'streamTransportOffers',
    streamByProvider: 'streamTransportOffersByProvider',
    batch: 'getTransportBatchResults',
    results: 'getTransportSearchResults',
    list: 'listTransportBookings',
    get: 'getTransportBooking',
    cancel: 'cancelTransportBooking',
  },
  offerEvent: 'transport_offer',
  resultsFilters: [
    queryParam('transfer_type', ref('TransferType')),
    queryParam('vehicle_category', str({ maxLength: 50 }), { description: 'e.g. sedan, minivan, bus.' }),
    queryParam('sort_by', ref('TransportSortBy', { default: 'price_asc' })),
  ],
};

const bookErrors = (extra: string[]) => ({
  ...badRequest('supplier_rejected', 'price_changed', 'offer_expired', 'sold_out', ...extra),
  ...bookingPending(),
  ...supplierUnavailable(),
  ...duplicateSupplierReference(),
});

const hotelDefs: OpDef[] = [
  {
    method: 'post',
    path: '/api/v1/hotel/search',
    operationId: 'searchHotels',
    summary: 'Start a hotel search',
    description:
      'Starts an asynchronous search across the hotel providers. Consume it through stream_url (offer by offer), stream_by_provider_url, batch_url or results_url. company_code and user_code must be the caller’s own: another company is 403 `tenant_mismatch` (as on every operation), another user’s user_code 403 `company_mismatch`.',
    auth: 'user',
    rateLimited: true,
    body: ref('HotelSearchRequest'),
    responses: { 202: jsonResponse('Search started.', ref('SearchInitiation')) },
    errors: badRequest('invalid_search', 'invalid_date', 'no_supplier_available'),
    // unknown_location: a destination the reference data does not know (loc ["body","destination"]).
    extraCodes: { 403: ['tenant_mismatch', 'company_mismatch'], 422: ['unknown_location'] },
  },
  ...searchDefs(hotel),
  {
    method: 'post',
    path: '/api/v1/hotel/check-rate',
    operationId: 'checkHotelRate',
    summary: 'Check a rate’s availability and current price',
    description: 'Call before booking (required for rate_type RECHECK).',
    auth: 'user',
    body: ref('HotelCheckRateRequest'),
    responses: ok('HotelRateCheck', 'Availability and current price.'),
    errors: {
      ...badRequest('invalid_rate_key', 'unsupported_provider'),
      ...notFound('rate_not_found'),
      ...supplierUnavailable(),
    },
  },
  {
    method: 'post',
    path: '/api/v1/hotel/book',
    operationId: 'bookHotel',
    summary: 'Book a hotel rate',
    description:
      'Re-validates the rate, then books. 502 means the provider neither confirmed nor rejected: the booking exists with status pending; poll it, do not retry.',
    auth: 'user',
    idem: true,
    body: ref('HotelBookRequest'),
    responses: ok('HotelBooking', 'Booked (status confirmed or on_request).'),
    errors: bookErrors(['invalid_rate_key', 'invalid_guest']),
  },
  ...bookingDefs(hotel, 'HotelBooking', 'confirmed/on_request/pending →'),
  {
    method: 'get',
    path: '/api/v1/hotel/bookings/{booking_id}/cancellation-quote',
    operationId: 'quoteHotelCancellation',
    summary: 'Quote cancelling a hotel booking',
    addition: true,
    description:
      'Addition: asks the provider what cancelling now would cost, without cancelling (Hotelbeds’ cancellation SIMULATION; Duffel Stays from the booked rate’s refund timeline): the fee and the refund in the booking’s currency, at the booking’s rate. Nothing changes. The same callers as `cancelHotelBooking`.',
    auth: 'user',
    parameters: [idParam('booking_id', 'hotel booking')],
    responses: ok('HotelCancellationQuote', 'What cancelling now would cost.'),
    errors: {
      ...badRequest('cancellation_failed', 'invalid_booking_state', 'not_cancellable'),
      ...notFound('hotel_booking_not_found'),
      ...supplierUnavailable(),
    },
  },
];

const transportDefs: OpDef[] = [
  {
    method: 'post',
    path: '/api/v1/transport/search',
    operationId: 'searchTransport',
    summary: 'Start a ground-transfer search',
    description:
      'Starts an asynchronous search across the transfer providers. Consume it through stream_url (offer by offer), stream_by_provider_url, batch_url or results_url.',
    auth: 'user',
    rateLimited: true,
    body: ref('TransportSearchRequest'),
    responses: { 202: jsonResponse('Search started.', ref('SearchInitiation')) },
    errors: badRequest('invalid_search', 'invalid_date', 'no_supplier_available'),
    // unknown_location: an IATA code the reference data does not know, or coordinates out of range, with
    // loc ["body","pickup_location"|"dropoff_location"]; a zoned pickup time with no known time zone is
    // a 422 validation_error on pickup_datetime.
    extraCodes: { 422: ['unknown_location'] },
  },
  ...searchDefs(transport),
  {
    method: 'post',
    path: '/api/v1/transport/quote',
    operationId: 'quoteTransport',
    summary: 'Check a quote’s availability and price',
    auth: 'user',
    body: ref('TransportQuoteRequest'),
    responses: ok('TransportQuote', 'Availability and current price.'),
    errors: {
      ...badRequest('invalid_quote', 'unsupported_provider'),
      ...notFound('quote_not_found'),
      ...supplierUnavailable(),
    },
  },
  {
    method: 'post',
    path: '/api/v1/transport/book',
    operationId: 'bookTransport',
    summary: 'Book a transfer',
    description:
      'quote_id comes from search results. 502 means the provider neither confirmed nor rejected: the booking exists with status pending; poll it, do not retry.',
    auth: 'user',
    idem: true,
    body: ref('TransportBookRequest'),
    responses: ok('TransportBooking', 'Booked.'),
    errors: { ...bookErrors(['invalid_quote', 'invalid_passenger']), ...notFound('quote_not_found') },
  },
  ...bookingDefs(transport, 'TransportBooking', 'confirmed/on_request/pending →'),
];

export const hotelOps = surface('hotel', hotelDefs);
export const transportOps = surface('transport', transportDefs);
