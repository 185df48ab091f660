/**
 * `booking_requirements` of a flight offer: what createPnr needs for each passenger type, said by the
 * adapter that knows its supplier (Duffel's passenger_identity_documents_required, Mystifly's
 * IsPassportMandatory), so a client learns it from the offer instead of from a failed booking.
 */
import type { BookingRequirements, PassengerRequirements, PassengerType } from './ports/flight.ts';

type Needs = Omit<PassengerRequirements, 'passenger_type'>;

/** Every adapter sends a date of birth and falls back to the booking contact's phone and e-mail. */
export const BASE_NEEDS: Needs = {
  identity_document: false,
  document_types: [],
  date_of_birth: true,
  nationality: false,
  phone: false,
};

/** The same needs for each passenger type the offer prices (types with a count of 0 are left out). */
export function requirementsFor(
  passengers: { adults: number; children: number; infants: number },
  needs: Partial<Needs> = {},
): BookingRequirements {
  const merged: Needs = { ...BASE_NEEDS, ...needs };
  if (!merged.identity_document) merged.document_types = [];
  const types: [PassengerType, number][] = [
    ['ADT', passengers.adults],
    ['CHD', passengers.children],
    ['INF', passengers.infants],
  ];
  return {
    passengers: types
      .filter(([, n]) => n > 0)
      .map(([passenger_type]) => ({ passenger_type, ...merged, document_types: [...merged.document_types] })),
  };
}

/**
 * An offer's requirements. Offers stored before the adapters said them: the adapters' defaults, with a
 * document for Mystifly (a consolidator tickets international fares with passport data).
 */
export function requirementsOf(offer: {
  supplier: string;
  passengers: { adults: number; children: number; infants: number };
  booking_requirements?: BookingRequirements;
}): BookingRequirements {
  if (offer.booking_requirements?.passengers) return offer.booking_requirements;
  return requirementsFor(
    offer.passengers,
    offer.supplier === 'mystifly'
      ? { identity_document: true, document_types: ['passport', 'id_card', 'visa'] }
      : {},
  );
}
