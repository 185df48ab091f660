/**
 * The event feed (issue 30, contracts.md §8, a documented addition): every state change of a company's
 * bookings, payments and tickets as an event, listed with a cursor and streamed over SSE with
 * `Last-Event-ID` resume. The same event objects are what webhooks deliver.
 */

import { EVENT_TYPES } from '../enums.ts';
import {
  arr,
  bool,
  constant,
  dateTime,
  freeObject,
  int,
  type Json,
  lastEventIdParam,
  nullable,
  objReq,
  queryParam,
  ref,
  type Schema,
  str,
  strEnum,
} from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, SSE_DESCRIPTION, sseResponse } from './shared.ts';

const RESOURCE_TYPES = ['booking', 'payment', 'hotel_booking', 'transport_booking'] as const;

export const feedSchemas: Record<string, Schema> = {
  EventType: strEnum(EVENT_TYPES, {
    description:
      'What happened. `booking.*`, `hotel_booking.*`, `transport_booking.*` and `ticket.*` carry the booking; `payment.*` the payment. `schedule_change.detected` and `schedule_change.accepted` carry the booking with one more field, `schedule_change` (a ScheduleChange).',
  }),
  Event: objReq(
    {
      id: str({
        description:
          'Stable event id (`evt_…`): the same in the feed, the stream and every webhook delivery.',
      }),
      object: constant('event'),
      type: ref('EventType'),
      created_at: dateTime(),
      company_id: nullable(int({ format: 'int32', minimum: 1 })),
      resource: objReq(
        {
          type: strEnum(RESOURCE_TYPES),
          id: str({ description: 'The resource id (a booking or payment id, as a string).' }),
          version: int({
            minimum: 1,
            description:
              'The resource’s version: 1 for its first event, one more for each later one. Deliveries are not ordered: drop an event whose version is not above the last one you applied.',
          }),
        },
        ['type', 'id', 'version'],
      ),
      data: freeObject(
        'The resource as the API returns it (FlightBooking, Payment, HotelBooking, TransportBooking) after the change.',
      ),
      request_id: nullable(str({ description: 'The request that caused the change (its X-Request-Id).' })),
      job_id: nullable(
        str({ description: 'The background job that caused it (reconciliation, settlement).' }),
      ),
    },
    ['id', 'object', 'type', 'created_at', 'company_id', 'resource', 'data', 'request_id', 'job_id'],
  ),
  EventList: objReq(
    {
      data: arr(ref('Event')),
      has_more: bool({ description: 'More events follow: pass the last id as `starting_after`.' }),
    },
    ['data', 'has_more'],
    { description: 'Events in feed order (oldest first).' },
  ),
  EventStreamEvent: objReq(
    {
      event: strEnum(['event', 'heartbeat', 'shutdown']),
      id: str({ description: 'The event id (on `event` messages): send it back as `Last-Event-ID`.' }),
      data: freeObject('`event`: an Event; `heartbeat`: `{ts}`; `shutdown`: `{reason, reconnect}`.'),
    },
    ['event', 'data'],
    {
      description:
        'One SSE message of the event stream: `event: event` with `id:` and an `Event` as data, `heartbeat` (no id) every 15 s, `shutdown` when the server stops (reconnect with `Last-Event-ID`). The feed has no end.',
    },
  ),
  // What a generated SSE client yields for each message (the stream response's schema, as for every stream).
  EventStreamEventData: {
    description:
      'The `data` of a message of the event stream (what a generated SSE client yields): an `Event` on `event` messages, `{ts}` on `heartbeat`, `{reason, reconnect}` on `shutdown`.',
    anyOf: [
      ref('Event'),
      freeObject('A `heartbeat` (`{ts}`) or `shutdown` (`{reason, reconnect}`) message.'),
    ],
  },
};

const filters = (): Json[] => [
  queryParam('type', str({ maxLength: 1000 }), {
    description:
      'Only these event types: one type or a comma-separated list (`booking.created,payment.captured`).',
  }),
  queryParam('resource_type', strEnum(RESOURCE_TYPES), {
    description: 'Only events of this kind of resource.',
  }),
  queryParam('resource_id', str({ maxLength: 64 }), {
    description: 'Only events of this resource (with `resource_type`).',
  }),
];

const defs: OpDef[] = [
  {
    method: 'get',
    path: '/api/v1/events',
    operationId: 'listEvents',
    summary: 'List the company’s events',
    description:
      'Every state change of the caller’s company’s bookings, payments and tickets, oldest first. For company staff and admins and their API keys; anyone else 403 `tenant_mismatch`. Page with `starting_after` (the last event id you have) and `limit`. An event is listed once the transaction that wrote it, and every one that started before it, has finished, so a cursor never skips an event that commits late.',
    auth: 'user',
    tenant: true,
    apiKey: true,
    addition: true,
    parameters: [
      queryParam('starting_after', str({ maxLength: 64 }), {
        description: 'An event id: list the events after it.',
      }),
      queryParam('limit', int({ minimum: 1, maximum: 100, default: 20 })),
      ...filters(),
    ],
    responses: {
      200: {
        description: 'A page of events.',
        content: { 'application/json': { schema: ref('EventList') } },
      },
    },
    errors: badRequest('event_not_found', 'invalid_event_type'),
  },
  {
    method: 'get',
    path: '/api/v1/events/stream',
    operationId: 'streamEvents',
    summary: 'Stream the company’s events',
    description: `The feed of \`GET /api/v1/events\` as it happens. Without \`Last-Event-ID\` it starts with the next event; with it, it first replays every event after that one. ${SSE_DESCRIPTION.replace(' The stream ends with a terminal `done` event naming the final status; a close before it is a dropped connection.', ' The feed never ends by itself.')}`,
    auth: 'user',
    tenant: true,
    apiKey: true,
    addition: true,
    sse: true,
    parameters: [lastEventIdParam(), ...filters()],
    responses: { 200: sseResponse('EventStreamEvent', 'Event stream (`text/event-stream`).') },
    errors: badRequest('event_not_found', 'invalid_event_type'),
  },
];

export const eventOps = surface('company', defs);
