import { asArray, asObject, str, type Wire } from './wire.ts';

/**
 * Sandbox triggers: request content that makes the emulator take a documented path on purpose, so tests,
 * SDK examples and CI smoke runs can reach every behaviour. Each one is listed in README.md.
 */

/** Passenger last names (case-insensitive) that steer order creation and later servicing. */
export const LAST_NAME_TRIGGERS = {
  /** Order is created, then the create call answers 500 (ambiguous outcome). */
  PENDING: 'PENDING',
  /** Order is created, then the create call never answers (the caller times out). */
  TIMEOUT: 'TIMEOUT',
  /** 400 SEGMENT SELL FAILURE: the airline rejects the sell; nothing is created. */
  REJECT: 'REJECT',
  /** 400 NO AVAILABILITY (sold out between pricing and booking); nothing is created. */
  SOLDOUT: 'SOLDOUT',
  /** Fare is non-refundable whatever its brand: refund quotes answer non_refundable. */
  NONREF: 'NONREF',
  /** Void window already closed at issuance: void quotes answer void_window_expired. */
  VOIDEXP: 'VOIDEXP',
  /** Ancillary services are not enabled for the order's carrier. */
  NOANCIL: 'NOANCIL',
  /** The airline moves the outbound 95 minutes later, seen at the order's first read (schedule-changes.ts). */
  SCHEDULECHANGE: 'SCHEDULECHANGE',
} as const;

/** Destinations that steer shopping: price change at pricing, sold out at pricing. */
export const ROUTE_TRIGGERS = {
  /** Pricing answers +10% over the searched fare (booking the unpriced offer answers PRICE DISCREPANCY). */
  PRICE_UP: 'XPC',
  /** Pricing answers 400 NO AVAILABILITY. */
  SOLD_OUT: 'XSO',
} as const;

/** Seats in this row are refused in a seat request batch ("seat refused in a batch"). */
export const REFUSED_SEAT_ROW = 13;

/** Transfer passenger last names behave as for flights: PENDING and REJECT. */

export function travelerLastNames(data: Wire): string[] {
  return asArray(data.travelers ?? data.passengers).map((t) =>
    (str(asObject(t.name)?.lastName) ?? str(t.lastName) ?? '').toUpperCase(),
  );
}

export function hasLastName(data: Wire, trigger: string): boolean {
  return travelerLastNames(data).includes(trigger);
}

export function offerDestinations(offer: Wire): string[] {
  return asArray(offer.itineraries).flatMap((it) =>
    asArray(it.segments).map((s) => str(asObject(s.arrival)?.iataCode) ?? ''),
  );
}

/** The drift pricing applies: the knob plus the price-up route trigger. */
export function pricingDrift(offer: Wire, knob: number): number {
  return knob + (offerDestinations(offer).includes(ROUTE_TRIGGERS.PRICE_UP) ? 10 : 0);
}
