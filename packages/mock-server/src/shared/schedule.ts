/**
 * Airline schedule changes, shared by the flight emulators (Duffel, Amadeus, Mystifly): what the
 * SCHEDULECHANGE trigger does, and how a local time moves.
 */

/** The SCHEDULECHANGE trigger: the airline moves the outbound this many minutes later. */
export const TRIGGERED_SHIFT_MINUTES = 95;

/** `2026-12-20T09:35:00` (local, no offset) moved by `minutes`, in the same local form. */
export function shiftLocal(local: string, minutes: number): string {
  const t = Date.parse(`${local.slice(0, 19)}Z`) + minutes * 60_000;
  return new Date(t).toISOString().slice(0, 19);
}
