/**
 * What counts as a schedule change: a segment's carrier, flight number, route or local times differ from
 * what the booking holds (cabin, booking class and aircraft do not). The new segments keep the booking's
 * own segment ids, cabin and booking class, so tickets, seats and bags stay attached.
 */
import { createHash } from 'node:crypto';
import type { FlightSegment } from '../../../suppliers/ports/flight.ts';

const KEYS = [
  'marketing_carrier',
  'flight_number',
  'origin',
  'destination',
  'departure_at',
  'arrival_at',
] as const;

const keyOf = (s: Pick<FlightSegment, (typeof KEYS)[number]>): string =>
  KEYS.map((k) => String(s[k] ?? '').slice(0, k.endsWith('_at') ? 16 : undefined)).join('|');

export function sameSchedule(a: readonly FlightSegment[], b: readonly FlightSegment[]): boolean {
  return a.length === b.length && a.every((s, i) => keyOf(s) === keyOf(b[i] as FlightSegment));
}

/** The airline's segments in the booking's terms (its segment ids, cabin and booking class). */
export function mergeSegments(
  booked: readonly FlightSegment[],
  now: readonly FlightSegment[],
): FlightSegment[] {
  if (booked.length !== now.length) return now.map((s) => ({ ...s }));
  return now.map((s, i) => {
    const b = booked[i] as FlightSegment;
    return {
      ...b,
      marketing_carrier: s.marketing_carrier,
      operating_carrier: s.operating_carrier || b.operating_carrier,
      flight_number: s.flight_number,
      origin: s.origin,
      destination: s.destination,
      departure_at: s.departure_at,
      arrival_at: s.arrival_at,
      duration_minutes: s.duration_minutes,
      aircraft: s.aircraft ?? b.aircraft,
    };
  });
}

/** Names an itinerary: the same change found twice is one row. */
export function fingerprint(segments: readonly FlightSegment[]): string {
  return createHash('sha256').update(segments.map(keyOf).join('\n')).digest('hex').slice(0, 32);
}
