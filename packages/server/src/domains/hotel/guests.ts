/** Guest rules the supplier would otherwise refuse late: each room has an adult, children have ages. */
import { badRequest } from '../../kernel/errors.ts';
import type { HotelGuestInput } from '../../suppliers/ports.ts';

export function validateGuests(guests: HotelGuestInput[], rooms: number): void {
  const bad = (detail: string) => badRequest('invalid_guest', detail);
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
}
