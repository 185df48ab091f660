/**
 * Transfer search input as users send it, made into what the transfer suppliers take. Both suppliers
 * work in the local time of the pickup point (`YYYY-MM-DDTHH:MM:SS`, no zone), while a careful
 * integrator sends RFC 3339 (`Z` or an offset), as the spec's convention 3 says. So:
 * - a time with a zone is converted to the local time of the pickup point (the return leg: of the
 *   drop-off point, where it starts), the zone being the airport's (a code), the nearest airport's
 *   (coordinates), or the other point's when this one is free text;
 * - a local time is taken as it is (seconds added, fractions dropped);
 * - a time with a zone and no known zone at either point is 422 (send the local time);
 * - pickup points are checked: an unknown code or coordinates off the globe are 422 `unknown_location`.
 */
import { badRequest, ValidationError, type ValidationIssue } from '../../kernel/errors.ts';
import { locations, type Place } from './locations.ts';

const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})?$/;

interface ParsedTime {
  /** `YYYY-MM-DDTHH:MM:SS` as written (the wall clock of the offset when one is given). */
  wall: string;
  /** The instant, when the time carries a zone. */
  instant: number | null;
}

function parseTime(value: string): ParsedTime | null {
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [, date, hh, mm, ss = '00', zone] = m;
  const wall = `${date}T${hh}:${mm}:${ss}`;
  if (Number.isNaN(Date.parse(`${wall}Z`)) || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59)
    return null;
  if (!zone) return { wall, instant: null };
  const instant = Date.parse(`${wall}${zone.toUpperCase()}`);
  return Number.isNaN(instant) ? null : { wall, instant };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time of an instant in an IANA zone, `YYYY-MM-DDTHH:MM:SS`. */
export function wallTimeIn(instant: number, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** The instant a wall-clock time in an IANA zone stands for (the earlier one in a repeated hour). */
export function instantOf(wall: string, timeZone: string): number {
  const asUtc = Date.parse(`${wall}Z`);
  let guess = asUtc;
  for (let i = 0; i < 2; i++) guess = asUtc - (Date.parse(`${wallTimeIn(guess, timeZone)}Z`) - guess);
  return guess;
}

/** Checks the points and returns the body with its times in the suppliers' local form. */
export function transportSearchInput(body: Record<string, unknown>, now: Date): Record<string, unknown> {
  const where = (field: 'pickup_location' | 'dropoff_location'): { p?: Place; issue?: ValidationIssue } => {
    const p = locations().place(String(body[field] ?? ''));
    if ('unknown' in p) return { issue: { loc: ['body', field], msg: p.unknown, type: 'unknown_location' } };
    return { p };
  };
  const pickup = where('pickup_location');
  const dropoff = where('dropoff_location');
  const unknown = [pickup.issue, dropoff.issue].filter((x): x is ValidationIssue => x !== undefined);
  if (unknown.length > 0) throw new ValidationError(unknown, 'unknown_location');
  const zoneAt = (first: Place | undefined, second: Place | undefined) =>
    first?.timezone ?? second?.timezone ?? null;

  const local = (field: 'pickup_datetime' | 'return_datetime', zone: string | null) => {
    const t = parseTime(String(body[field]));
    if (!t) throw badRequest('invalid_date', `${field} is not a date-time.`);
    if (t.instant === null) return { wall: t.wall, instant: zone ? instantOf(t.wall, zone) : null };
    if (!zone)
      throw new ValidationError([
        {
          loc: ['body', field],
          msg: 'Neither point has a known time zone (an airport code or "lat,lon"): send the local time without an offset, e.g. 2026-12-20T14:30:00.',
          type: 'value_error',
        },
      ]);
    return { wall: wallTimeIn(t.instant, zone), instant: t.instant };
  };

  const out: Record<string, unknown> = { ...body };
  const go = local('pickup_datetime', zoneAt(pickup.p, dropoff.p));
  // Without a zone, compare on the calendar day, which no time zone moves by more than one.
  const past =
    go.instant !== null
      ? go.instant < now.getTime()
      : go.wall.slice(0, 10) < new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  if (past) throw badRequest('invalid_date', 'pickup_datetime is in the past.');
  out.pickup_datetime = go.wall;
  if (typeof body.return_datetime === 'string' && body.return_datetime !== '') {
    const back = local('return_datetime', zoneAt(dropoff.p, pickup.p));
    const after =
      go.instant !== null && back.instant !== null ? back.instant > go.instant : back.wall > go.wall;
    if (!after) throw badRequest('invalid_date', 'return_datetime must be after pickup_datetime.');
    out.return_datetime = back.wall;
  }
  if (
    String(body.pickup_location).trim().toLowerCase() === String(body.dropoff_location).trim().toLowerCase()
  )
    throw badRequest('invalid_search', 'pickup_location and dropoff_location are the same.');
  return out;
}
