/**
 * Reference data for the Duffel emulator: a small world of airlines, airports and hotels, enough for
 * realistic variety (full-service and low-cost carriers, hubs for connections, hotel chains).
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
  hub: string;
}

export const CARRIERS: readonly CarrierData[] = [
  { iata: 'BA', name: 'British Airways', ticketPrefix: '125', lcc: false, services: true, hub: 'LHR' },
  { iata: 'AA', name: 'American Airlines', ticketPrefix: '001', lcc: false, services: true, hub: 'JFK' },
  { iata: 'LH', name: 'Lufthansa', ticketPrefix: '220', lcc: false, services: true, hub: 'FRA' },
  { iata: 'AF', name: 'Air France', ticketPrefix: '057', lcc: false, services: true, hub: 'CDG' },
  { iata: 'EK', name: 'Emirates', ticketPrefix: '176', lcc: false, services: true, hub: 'DXB' },
  { iata: 'QR', name: 'Qatar Airways', ticketPrefix: '157', lcc: false, services: true, hub: 'DOH' },
  // Duffel's own test airline, present in every Duffel test-mode search.
  { iata: 'ZZ', name: 'Duffel Airways', ticketPrefix: '999', lcc: false, services: true, hub: 'LHR' },
  { iata: 'U2', name: 'easyJet', ticketPrefix: '', lcc: true, services: true, hub: 'LGW' },
  { iata: 'FR', name: 'Ryanair', ticketPrefix: '', lcc: true, services: true, hub: 'STN' },
  { iata: 'W6', name: 'Wizz Air', ticketPrefix: '', lcc: true, services: false, hub: 'LTN' },
];

export function carrier(iata: string): CarrierData {
  return CARRIERS.find((c) => c.iata === iata) ?? (CARRIERS[0] as CarrierData);
}

export interface AirportData {
  iata: string;
  name: string;
  city: string;
  country: string;
  lat: number;
  lon: number;
  tz: string;
}

export const AIRPORTS: readonly AirportData[] = [
  {
    iata: 'LHR',
    name: 'Heathrow Airport',
    city: 'London',
    country: 'GB',
    lat: 51.47,
    lon: -0.4543,
    tz: 'Europe/London',
  },
  {
    iata: 'LGW',
    name: 'Gatwick Airport',
    city: 'London',
    country: 'GB',
    lat: 51.1537,
    lon: -0.1821,
    tz: 'Europe/London',
  },
  {
    iata: 'STN',
    name: 'Stansted Airport',
    city: 'London',
    country: 'GB',
    lat: 51.885,
    lon: 0.235,
    tz: 'Europe/London',
  },
  {
    iata: 'LTN',
    name: 'Luton Airport',
    city: 'London',
    country: 'GB',
    lat: 51.8747,
    lon: -0.3683,
    tz: 'Europe/London',
  },
  {
    iata: 'JFK',
    name: 'John F. Kennedy International Airport',
    city: 'New York',
    country: 'US',
    lat: 40.6413,
    lon: -73.7781,
    tz: 'America/New_York',
  },
  {
    iata: 'FRA',
    name: 'Frankfurt Airport',
    city: 'Frankfurt',
    country: 'DE',
    lat: 50.0379,
    lon: 8.5622,
    tz: 'Europe/Berlin',
  },
  {
    iata: 'CDG',
    name: 'Charles de Gaulle Airport',
    city: 'Paris',
    country: 'FR',
    lat: 49.0097,
    lon: 2.5479,
    tz: 'Europe/Paris',
  },
  {
    iata: 'DXB',
    name: 'Dubai International Airport',
    city: 'Dubai',
    country: 'AE',
    lat: 25.2532,
    lon: 55.3657,
    tz: 'Asia/Dubai',
  },
  {
    iata: 'DOH',
    name: 'Hamad International Airport',
    city: 'Doha',
    country: 'QA',
    lat: 25.2731,
    lon: 51.6081,
    tz: 'Asia/Qatar',
  },
  {
    iata: 'DAC',
    name: 'Hazrat Shahjalal International Airport',
    city: 'Dhaka',
    country: 'BD',
    lat: 23.8433,
    lon: 90.3978,
    tz: 'Asia/Dhaka',
  },
  {
    iata: 'BCN',
    name: 'Barcelona El Prat Airport',
    city: 'Barcelona',
    country: 'ES',
    lat: 41.2974,
    lon: 2.0833,
    tz: 'Europe/Madrid',
  },
  {
    iata: 'MAD',
    name: 'Adolfo Suárez Madrid-Barajas Airport',
    city: 'Madrid',
    country: 'ES',
    lat: 40.4983,
    lon: -3.5676,
    tz: 'Europe/Madrid',
  },
  {
    iata: 'AMS',
    name: 'Amsterdam Airport Schiphol',
    city: 'Amsterdam',
    country: 'NL',
    lat: 52.3105,
    lon: 4.7683,
    tz: 'Europe/Amsterdam',
  },
  {
    iata: 'SIN',
    name: 'Singapore Changi Airport',
    city: 'Singapore',
    country: 'SG',
    lat: 1.3644,
    lon: 103.9915,
    tz: 'Asia/Singapore',
  },
  {
    iata: 'KUL',
    name: 'Kuala Lumpur International Airport',
    city: 'Kuala Lumpur',
    country: 'MY',
    lat: 2.7456,
    lon: 101.7072,
    tz: 'Asia/Kuala_Lumpur',
  },
];

/** Unknown codes still get a plausible airport so any IATA pair can be searched. */
export function airport(iata: string): AirportData {
  const known = AIRPORTS.find((a) => a.iata === iata);
  if (known) return known;
  return {
    iata,
    name: `${iata} International Airport`,
    city: iata,
    country: 'GB',
    lat: 0,
    lon: 0,
    tz: 'UTC',
  };
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
  streets: ['High Street', 'Station Road', 'Market Square', 'King Street', 'Queen Avenue', 'Bridge Lane'],
  rooms: ['Standard Double Room', 'Superior King Room', 'Twin Room', 'Deluxe Suite', 'Family Room'],
} as const;
