/** The human view of a booking's airline schedule changes: each moved flight, old -> new. */
import type { ScheduleChange } from '@travel/sdk';

type Segment = ScheduleChange['new_segments'][number];

const hm = (local: string) => local.slice(0, 16).replace('T', ' ');
const flight = (s: Segment) => `${s.marketing_carrier}${s.flight_number}`;
const key = (s: Segment) => `${flight(s)}|${s.departure_at.slice(0, 16)}|${s.arrival_at.slice(0, 16)}`;

/** The segments the airline changed: `[as booked, as flown now]` (as booked is missing for an added one). */
function moved(c: ScheduleChange): [Segment | undefined, Segment][] {
  return c.new_segments
    .map((now, i): [Segment | undefined, Segment] => [c.old_segments[i], now])
    .filter(([was, now]) => !was || key(was) !== key(now));
}

function movedLines(c: ScheduleChange): string[] {
  return moved(c).map(([was, now]) => {
    if (!was)
      return `    new  ${flight(now)}  ${now.origin} ${hm(now.departure_at)} -> ${now.destination} ${hm(now.arrival_at)}`;
    const name = flight(was) === flight(now) ? flight(now) : `${flight(was)} -> ${flight(now)}`;
    return `    ${name}  ${now.origin}-${now.destination}  departs ${hm(was.departure_at)} -> ${hm(now.departure_at)}  arrives ${hm(was.arrival_at)} -> ${hm(now.arrival_at)}`;
  });
}

/** The pending change first (what needs an answer), then the accepted ones; superseded ones are left out. */
export function scheduleChangeLines(
  changes: readonly ScheduleChange[],
  bookingRef: string | number,
): string[] {
  const lines: string[] = [];
  for (const c of changes.filter((x) => x.status === 'pending'))
    lines.push(
      `SCHEDULE CHANGE pending (${c.id}): the airline moved these flights (above: as booked)`,
      ...movedLines(c),
      `    accept: travel booking accept-change ${bookingRef} ${c.id}   (or cancel the booking)`,
    );
  for (const c of changes.filter((x) => x.status === 'accepted'))
    lines.push(
      `schedule change accepted ${hm(c.accepted_at ?? c.detected_at)} UTC (${c.id}):`,
      ...movedLines(c),
    );
  return lines;
}

/** For the e-ticket receipt: each accepted change in plain words (the itinerary shows the new times). */
export function acceptedChangeNotes(changes: readonly ScheduleChange[]): string[] {
  return changes
    .filter((c) => c.status === 'accepted')
    .map(
      (c) =>
        `Schedule changed by the airline (accepted ${hm(c.accepted_at ?? c.detected_at)} UTC); the itinerary shows the new times. As booked: ${moved(
          c,
        )
          .map(([was, now]) =>
            was ? `${flight(was)} ${was.origin} departing ${hm(was.departure_at)}` : `no ${flight(now)}`,
          )
          .join(', ')}.`,
    );
}
