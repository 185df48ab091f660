import type { Order } from '@duffel/api/types';
import { SupplierError } from '../ports/errors.ts';
import type { ContactInput, PassengerInput } from '../ports/flight.ts';
import type { DuffelOfferRef } from './mapper.ts';

/**
 * Our passengers onto the offer's passenger ids. Duffel numbers passengers per offer request; we pair
 * them by type in order (adults, children, infants), and seat each infant on an adult's lap.
 */
export function orderPassengers(ref: DuffelOfferRef, passengers: PassengerInput[], contact: ContactInput) {
  const pools = new Map(
    ['ADT', 'CHD', 'INF'].map((t) => [t, ref.passengers.filter((p) => p.type === t).map((p) => p.id)]),
  );
  const adults: { id: string; body: Record<string, unknown> }[] = [];
  const out = passengers.map((p) => {
    const id = pools.get(p.type)?.shift();
    if (!id)
      throw new SupplierError(
        'duffel',
        'invalid_request',
        `No ${p.type} passenger on the offer for ${p.passenger_id}`,
      );
    // Duffel knows only m/f; 'O' has no equivalent, so it goes as the title-neutral default.
    const gender = p.gender === 'F' ? 'f' : 'm';
    const body: Record<string, unknown> = {
      id,
      title: (p.title ?? (gender === 'f' ? 'ms' : 'mr')).toLowerCase().replace(/\.$/, ''),
      gender,
      given_name: p.first_name,
      family_name: p.last_name,
      born_on: p.date_of_birth,
      email: p.email ?? contact.email,
      phone_number: p.phone ?? contact.phone,
    };
    if (p.document?.type === 'passport') {
      body.identity_documents = [
        {
          type: 'passport',
          unique_identifier: p.document.number,
          issuing_country_code: p.document.issuing_country,
          expires_on: p.document.expiry,
        },
      ];
    }
    if (p.type === 'ADT') adults.push({ id, body });
    return { type: p.type, body };
  });
  let lap = 0;
  for (const p of out) {
    if (p.type !== 'INF') continue;
    const adult = adults[lap++];
    if (adult) adult.body.infant_passenger_id = p.body.id;
  }
  return out.map((p) => p.body);
}

/** Our passenger ids are "1", "2", … (order of booking) unless they are Duffel's own `pas_…` ids. */
export function duffelPassengerId(order: Order, passengerId: string): string | undefined {
  if (order.passengers.some((p) => p.id === passengerId)) return passengerId;
  const n = Number(passengerId);
  return Number.isInteger(n) ? order.passengers[n - 1]?.id : undefined;
}

/** The reverse of `duffelPassengerId`: what Duffel reports per `pas_…` id, named as the port names it. */
export function ourPassengerId(order: Order, duffelId: string): string {
  const i = order.passengers.findIndex((p) => p.id === duffelId);
  return i < 0 ? duffelId : String(i + 1);
}
