/**
 * Reference data for the Duffel emulator: the airlines it sells and hotel content. Airports, routes and
 * timetables come from the shared world (`shared/world.ts`, `shared/network.ts`).
 */

export interface CarrierData {
  iata: string;
  name: string;
  /** Ticket-number prefix (IATA airline accounting code). */
  ticketPrefix: string;
  /** Low-cost carrier: no IATA ticket, documents carry empty IATA fields, instant payment only. */
  lcc: boolean;
  /** False: the airline sells no services through Duffel ("ancillaries not enabled"). */
  services: boolean;
}

export const CARRIERS: readonly CarrierData[] = [
  { iata: 'BA', name: 'British Airways', ticketPrefix: '125', lcc: false, services: true },
  { iata: 'AA', name: 'American Airlines', ticketPrefix: '001', lcc: false, services: true },
  { iata: 'LH', name: 'Lufthansa', ticketPrefix: '220', lcc: false, services: true },
  { iata: 'AF', name: 'Air France', ticketPrefix: '057', lcc: false, services: true },
  { iata: 'EK', name: 'Emirates', ticketPrefix: '176', lcc: false, services: true },
  { iata: 'QR', name: 'Qatar Airways', ticketPrefix: '157', lcc: false, services: true },
  // Duffel's own test airline, present in every Duffel test-mode search.
  { iata: 'ZZ', name: 'Duffel Airways', ticketPrefix: '999', lcc: false, services: true },
  { iata: 'U2', name: 'easyJet', ticketPrefix: '', lcc: true, services: true },
  { iata: 'FR', name: 'Ryanair', ticketPrefix: '', lcc: true, services: true },
  { iata: 'W6', name: 'Wizz Air', ticketPrefix: '', lcc: true, services: false },
];

export function carrier(iata: string): CarrierData {
  return CARRIERS.find((c) => c.iata === iata) ?? (CARRIERS[0] as CarrierData);
}

export const AIRCRAFT = [
  { iata_code: '320', name: 'Airbus A320' },
  { iata_code: '321', name: 'Airbus A321' },
  { iata_code: '738', name: 'Boeing 737-800' },
  { iata_code: '789', name: 'Boeing 787-9' },
  { iata_code: '77W', name: 'Boeing 777-300ER' },
  { iata_code: '388', name: 'Airbus A380-800' },
] as const;

export const HOTEL_CITIES = [
  { name: 'London', country: 'GB', lat: 51.5072, lon: -0.1276 },
  { name: 'Paris', country: 'FR', lat: 48.8566, lon: 2.3522 },
  { name: 'New York', country: 'US', lat: 40.7128, lon: -74.006 },
  { name: 'Dubai', country: 'AE', lat: 25.2048, lon: 55.2708 },
  { name: 'Dhaka', country: 'BD', lat: 23.8103, lon: 90.4125 },
  { name: 'Barcelona', country: 'ES', lat: 41.3874, lon: 2.1686 },
  { name: 'Singapore', country: 'SG', lat: 1.3521, lon: 103.8198 },
] as const;

export const HOTEL_CHAINS = [
  { id: 'chn_hilton', name: 'Hilton', brand: 'Hilton Garden Inn', loyalty: 'hilton_honors' },
  { id: 'chn_marriott', name: 'Marriott', brand: 'Courtyard', loyalty: 'marriott_bonvoy' },
  { id: 'chn_accor', name: 'Accor', brand: 'Novotel', loyalty: 'accor_live_limitless' },
  { id: 'chn_ihg', name: 'IHG', brand: 'Holiday Inn', loyalty: 'ihg_one_rewards' },
] as const;

export const HOTEL_WORDS = {
  adjectives: ['Grand', 'Royal', 'Riverside', 'Central', 'Park', 'Harbour', 'Garden', 'Old Town', 'Skyline'],
  nouns: ['Hotel', 'Suites', 'Residence', 'Inn', 'Palace', 'Lodge'],
  rooms: ['Standard Double Room', 'Superior King Room', 'Twin Room', 'Deluxe Suite', 'Family Room'],
} as const;
