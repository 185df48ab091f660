/**
 * Guests as users send them, made complete, then the rules the supplier would otherwise refuse late.
 * Defaults: `room` is 1 when the rate has one room (with more rooms it must be said: 422); `type` is AD
 * unless an age under 18 says CH. Rules: each room has an adult, children have ages, and the guests are
 * exactly the occupancy the rate was priced for (a rate for two adults cannot be booked for three, nor
 * for one).
 */
import { badRequest, ValidationError, type ValidationIssue } from '../../../kernel/errors.ts';
import type { HotelGuestInput, HotelOffer } from '../../../suppliers/ports.ts';

/** A guest as the contract takes it (`HotelGuest`): only the names are required. */
export type GuestBody = Omit<HotelGuestInput, 'room' | 'type'> &
  Partial<Pick<HotelGuestInput, 'room' | 'type'>>;

/** The guests with room and type filled in; a missing room on a multi-room rate is a 422 naming it. */
export function completeGuests(guests: GuestBody[], rate: Pick<HotelOffer, 'rooms'>): HotelGuestInput[] {
  const issues: ValidationIssue[] = [];
  const out = guests.map((g, i): HotelGuestInput => {
    if (g.room === undefined && rate.rooms > 1)
      issues.push({
        loc: ['body', 'guests', i, 'room'],
        msg: `The rate has ${rate.rooms} rooms: say which room (1 to ${rate.rooms}) each guest is in.`,
        type: 'missing',
      });
    const type = g.type ?? (g.age !== undefined && g.age < 18 ? 'CH' : 'AD');
    return { ...g, room: g.room ?? 1, type };
  });
  if (issues.length > 0) throw new ValidationError(issues);
  return out;
}

/** Completes the guests (`completeGuests`) and checks them against the rate; returns what to book. */
export function validateGuests(
  input: GuestBody[],
  rate: Pick<HotelOffer, 'rooms' | 'adults' | 'children'>,
): HotelGuestInput[] {
  const guests = completeGuests(input, rate);
  const bad = (detail: string) => badRequest('invalid_guest', detail);
  const { rooms } = rate;
  for (const [i, g] of guests.entries()) {
    if (g.room > rooms) throw bad(`Guest ${i + 1} is in room ${g.room}, but the rate has ${rooms} room(s).`);
    if (g.type === 'CH' && g.age === undefined) throw bad(`Guest ${i + 1} is a child and needs an age.`);
    if (g.type === 'CH' && g.age !== undefined && g.age > 17)
      throw bad(`Guest ${i + 1} is a child but aged ${g.age}.`);
  }
  for (let room = 1; room <= rooms; room++) {
    if (!guests.some((g) => g.room === room && g.type === 'AD'))
      throw bad(`Room ${room} needs at least one adult guest.`);
  }
  const adults = guests.filter((g) => g.type === 'AD').length;
  const children = guests.length - adults;
  if (adults !== rate.adults || children !== rate.children)
    throw bad(
      `The rate is priced for ${rate.adults} adult(s) and ${rate.children} child(ren); ` +
        `the booking names ${adults} adult(s) and ${children} child(ren). Search again with this occupancy.`,
    );
  return guests;
}
