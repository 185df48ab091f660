/**
 * Server-Sent Events of the search streams. Each SSE message is described as an object with the SSE
 * fields: `event` (the event type), `id` (on every data event; heartbeats carry none) and `data` (the
 * JSON payload). A stream always ends with a terminal `done` event naming the final status.
 */
import { arr, constant, int, type Json, obj, objReq, ref, type Schema, str, strEnum } from '../lib.ts';

const SUPPLIER_STATUS = ['completed', 'timed_out', 'failed', 'skipped'] as const;
const FINAL_STATUS = ['completed', 'partial', 'failed'] as const;

/** One SSE message: `event: <name>`, `id: <id>` (data events), `data: <json>`. */
function sseEvent(eventName: string, data: Schema, description: string, withId = true): Json {
  return objReq(
    {
      event: constant(eventName),
      id: str({
        description: 'The SSE `id:` field. Send it back as `Last-Event-ID` to resume after this event.',
      }),
      data,
      retry: int({
        minimum: 0,
        description: 'The SSE `retry:` field (reconnection delay hint, ms), when sent.',
      }),
    },
    withId ? ['event', 'id', 'data'] : ['event', 'data'],
    { description },
  );
}

function stream(members: Record<string, string>, description: string): Json {
  return {
    description,
    oneOf: Object.values(members).map((m) => ref(m)),
    discriminator: {
      propertyName: 'event',
      mapping: Object.fromEntries(
        Object.entries(members).map(([ev, m]) => [ev, `#/components/schemas/${m}`]),
      ),
    },
  };
}

const heartbeat = () =>
  sseEvent(
    'heartbeat',
    obj({ ts: str({ format: 'date-time' }) }),
    'Keep-alive, every 15 seconds while nothing else is sent. Carries no id.',
    false,
  );

const done = (what: string) =>
  sseEvent(
    'done',
    obj({
      status: strEnum(FINAL_STATUS, {
        description:
          'completed: every provider finished; partial: some timed out or failed; failed: none answered.',
      }),
      total_offers: int({ minimum: 0 }),
    }),
    `Terminal event: the ${what} is over and the server closes the stream. A close before it is a dropped connection: reconnect with Last-Event-ID.`,
  );

const providerResults = (offer: string, key: 'gds' | 'provider', providerRef: string) =>
  obj({
    [key]: ref(providerRef),
    status: strEnum(SUPPLIER_STATUS),
    offers: arr(ref(offer)),
  });

const envelopes: Record<string, Json> = {
  SupplierSearchStatus: strEnum(SUPPLIER_STATUS, {
    description:
      'How one supplier’s part of a search ended. skipped: disabled, circuit open or not applicable.',
  }),
  HeartbeatEvent: heartbeat(),
  // flight: offer by offer
  FlightOfferEvent: sseEvent('offer', obj({ offer: ref('FlightOffer') }), 'One flight offer.'),
  FlightSupplierDoneEvent: sseEvent(
    'supplier_done',
    obj({
      supplier: ref('FlightSupplier'),
      status: ref('SupplierSearchStatus'),
      offer_count: int({ minimum: 0 }),
    }),
    'One supplier finished.',
  ),
  SearchDoneEvent: done('search'),
  FlightStreamEvent: stream(
    {
      offer: 'FlightOfferEvent',
      supplier_done: 'FlightSupplierDoneEvent',
      heartbeat: 'HeartbeatEvent',
      done: 'SearchDoneEvent',
    },
    'An event of the flight offer stream: offer*, supplier_done per supplier, heartbeat, then done.',
  ),
  // flight: grouped by GDS
  FlightGdsResultsEvent: sseEvent(
    'gds_results',
    providerResults('FlightOffer', 'gds', 'FlightSupplier'),
    'The complete offers of one GDS, sent as it completes.',
  ),
  FlightGdsStreamEvent: stream(
    { gds_results: 'FlightGdsResultsEvent', heartbeat: 'HeartbeatEvent', done: 'SearchDoneEvent' },
    'An event of the flight stream grouped by GDS: gds_results per supplier, heartbeat, then done.',
  ),
  // hotel
  HotelOfferEvent: sseEvent('hotel_offer', obj({ offer: ref('HotelOffer') }), 'One hotel offer.'),
  HotelStatusUpdateEvent: sseEvent(
    'status_update',
    obj({ status: strEnum(['completed', 'failed']) }),
    'The search status changed to completed or failed; `done` follows.',
  ),
  HotelStreamEvent: stream(
    {
      hotel_offer: 'HotelOfferEvent',
      heartbeat: 'HeartbeatEvent',
      status_update: 'HotelStatusUpdateEvent',
      done: 'SearchDoneEvent',
    },
    'An event of the hotel offer stream: hotel_offer*, heartbeat, status_update, then done (our terminal event).',
  ),
  HotelProviderResultsEvent: sseEvent(
    'provider_results',
    providerResults('HotelOffer', 'provider', 'HotelSupplier'),
    'The complete offer array of one provider.',
  ),
  HotelProviderStreamEvent: stream(
    { provider_results: 'HotelProviderResultsEvent', heartbeat: 'HeartbeatEvent', done: 'SearchDoneEvent' },
    'An event of the hotel provider-by-provider stream: provider_results per provider, heartbeat, then done.',
  ),
  // transport
  TransportOfferEvent: sseEvent(
    'transport_offer',
    obj({ offer: ref('TransferOffer') }),
    'One transfer offer.',
  ),
  TransportStreamEvent: stream(
    { transport_offer: 'TransportOfferEvent', heartbeat: 'HeartbeatEvent', done: 'SearchDoneEvent' },
    'An event of the transport offer stream: transport_offer*, heartbeat, then done (our terminal event).',
  ),
  TransportProviderResultsEvent: sseEvent(
    'provider_results',
    providerResults('TransferOffer', 'provider', 'TransferSupplier'),
    'The complete offer array of one provider.',
  ),
  TransportProviderStreamEvent: stream(
    {
      provider_results: 'TransportProviderResultsEvent',
      heartbeat: 'HeartbeatEvent',
      done: 'SearchDoneEvent',
    },
    'An event of the transport provider-by-provider stream: provider_results per provider, heartbeat, then done.',
  ),
};

/**
 * Issue 33: what a generated SSE client yields. Such clients (hey-api and the like) read the
 * `text/event-stream` response's schema as each event's `data`, so each stream's response schema is
 * `<Stream>Data`: the `data` of each of its events, by JSON pointer into the event schemas. The whole
 * SSE message (event name, id, data) stays `<Stream>` (what @travel/sdk yields).
 */
const dataUnions: Record<string, Json> = Object.fromEntries(
  Object.entries(envelopes)
    .filter(([name]) => name.endsWith('StreamEvent'))
    .map(([name, union]) => [
      `${name}Data`,
      {
        description: `The \`data\` of an event of the stream whose SSE messages are \`${name}\`: what a generated SSE client yields for each event.`,
        anyOf: (union.oneOf as { $ref: string }[]).map((m) => ({ $ref: `${m.$ref}/properties/data` })),
      },
    ]),
);

export const schemas: Record<string, Json> = { ...envelopes, ...dataUnions };
