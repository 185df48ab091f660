import { CURRENCIES, type Currency } from '../ports/errors.ts';

export type { CabinClass, SeatMap, SeatMapSeat, SeatRequest } from '../ports/flight.ts';

/** Seat prices without a service fall back to GBP only for display of free seats. */
export function asCurrencySafe(c: string | undefined): Currency {
  return c && (CURRENCIES as readonly string[]).includes(c) ? (c as Currency) : 'GBP';
}
