/**
 * Schedule changes (issue 30): the airline moves a booked flight (a new time, a new flight number). A job
 * re-reads each live booking's supplier order and records what changed as a `ScheduleChange` on the
 * booking (event `schedule_change.detected`); the agency lists them and accepts one, as Duffel's
 * airline-initiated changes are accepted.
 */
import {
  arr,
  dateTime,
  flightBookingIdParam,
  id64,
  nullable,
  objReq,
  pathParam,
  ref,
  type Schema,
  str,
  strEnum,
} from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, notFound, ok } from './shared.ts';

export const scheduleChangeSchemas: Record<string, Schema> = {
  ScheduleChange: objReq(
    {
      id: str({ description: 'Our id of the change (`sc_…`).', examples: ['sc_3kTqJ9fQe1x0'] }),
      booking_id: id64(),
      status: strEnum(['pending', 'accepted', 'superseded'], {
        description:
          '`pending`: detected, the booking still shows the flights as booked; `accepted`: the booking’s `flights` are the new ones; `superseded`: the airline changed the schedule again (a newer change replaces it) or went back to the booked one. At most one change of a booking is pending.',
      }),
      supplier: str(),
      supplier_change_id: nullable(
        str({
          description:
            'The supplier’s own id of the change where it has one (Duffel `aic_…`); null where the supplier only shows the new itinerary (Amadeus, Mystifly).',
        }),
      ),
      old_segments: arr(ref('FlightSegment'), { description: 'The booking’s segments before the change.' }),
      new_segments: arr(ref('FlightSegment'), {
        description: 'The segments as the airline flies them now (same `segment_id`s).',
      }),
      detected_at: dateTime(),
      accepted_at: nullable(dateTime()),
      accepted_by_user_id: nullable(str()),
    },
    [
      'id',
      'booking_id',
      'status',
      'supplier',
      'supplier_change_id',
      'old_segments',
      'new_segments',
      'detected_at',
      'accepted_at',
      'accepted_by_user_id',
    ],
  ),
  ScheduleChangeList: objReq({ data: arr(ref('ScheduleChange'), { description: 'Newest first.' }) }, [
    'data',
  ]),
};

const changeIdParam = () =>
  pathParam('change_id', str({ pattern: '^sc_[A-Za-z0-9_-]{1,64}$' }), 'The schedule change’s id (`sc_…`).');

const defs: OpDef[] = [
  {
    method: 'get',
    path: '/api/v1/bookings/{booking_id}/schedule-changes',
    operationId: 'listBookingScheduleChanges',
    summary: 'Schedule changes of a flight booking',
    description:
      'Every change the airline made to the booking’s flights since it was booked, newest first, with the segments before and after. A job re-reads each confirmed, held or ticketed booking’s supplier order every `SCHEDULE_CHANGE_SCAN_MINUTES` (default 30) and records a change here with the event `schedule_change.detected`. The booking’s own `flights` (GET /bookings/{booking_id}) stay as booked until the change is accepted. A sub-resource rather than a field of the booking, so reading a booking costs no extra query.',
    auth: 'user',
    addition: true,
    parameters: [flightBookingIdParam()],
    responses: ok('ScheduleChangeList', 'The booking’s schedule changes.'),
    errors: { ...notFound('booking_not_found') },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/schedule-changes/refresh',
    operationId: 'refreshBookingScheduleChanges',
    summary: 'Re-read the airline’s schedule now',
    description:
      'Reads the booking’s supplier order now, as the order-refresh job does, records a change it finds (with the event `schedule_change.detected`), and answers the booking’s schedule changes as the GET does. For an agent who does not want to wait for the next run (or who heard of a change from the airline). A booking with no live supplier order (not confirmed, held, paid or ticketed) is only listed.',
    auth: 'user',
    addition: true,
    parameters: [flightBookingIdParam()],
    responses: ok('ScheduleChangeList', 'The booking’s schedule changes after the re-read.'),
    errors: { ...badRequest('schedule_change_refresh_failed'), ...notFound('booking_not_found') },
  },
  {
    method: 'post',
    path: '/api/v1/bookings/{booking_id}/schedule-changes/{change_id}/accept',
    operationId: 'acceptBookingScheduleChange',
    summary: 'Accept an airline schedule change',
    description:
      'Accepts the change with the supplier where it takes an answer (Duffel: `POST /air/airline_initiated_changes/{id}/actions/accept`; Amadeus and Mystifly carry the new itinerary in the PNR already), then the booking’s `flights` become the change’s `new_segments` and the event `schedule_change.accepted` is recorded. Idempotent: accepting an accepted change answers 200 with it again, and a retry with the same Idempotency-Key replays the first answer. To refuse the change, cancel the booking (involuntary change: the fare’s refund rules do not apply to the airline’s own change).',
    auth: 'user',
    addition: true,
    parameters: [flightBookingIdParam(), changeIdParam()],
    responses: ok('ScheduleChange', 'Accepted (the booking shows the new segments).'),
    errors: {
      ...badRequest('schedule_change_accept_failed', 'schedule_change_superseded', 'invalid_booking_state'),
      ...notFound('booking_not_found', 'schedule_change_not_found'),
    },
  },
];

export const scheduleChangeOps = surface('bookings', defs);
