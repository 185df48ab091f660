import { hotelPlace } from '../destination.ts';

/**
 * Duffel Stays searches by coordinates; our queries name a city, an IATA city or airport code or "lat,lon".
 * The shared resolver (`suppliers/destination.ts`) picks the city a traveller means: London is London GB,
 * not the first airport row whose city is called London (YXU, London, Ontario). Unknown: `invalid_request`.
 */
export function geocode(destination: string): { latitude: number; longitude: number } {
  const p = hotelPlace('duffel_stays', destination);
  return { latitude: p.latitude, longitude: p.longitude };
}
