/**
 * Guest rules the supplier would otherwise refuse late: each room has an adult, children have ages, and
 * the guests are exactly the occupancy the rate was priced for (a rate for two adults cannot be booked
 * for three, nor for one).
 */
import { badRequest } from '../../kernel/errors.ts';
import type { HotelGuestInput, HotelOffer } from '../../suppliers/ports.ts';

export function validateGuests(
  guests: HotelGuestInput[],
  rate: Pick<HotelOffer, 'rooms' | 'adults' | 'children'>,
): void {
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
}
