/**
 * Ground content that matches the place searched: which city a coordinate or code is in, street names of
 * that country, what a night costs by star rating and local price level, and how far and how long a
 * transfer drives. Shared by the hotel emulators (Hotelbeds, Duffel Stays) and the transfer emulators
 * (Hotelbeds Transfers, Amadeus transfers).
 */

import { hashString } from './random.ts';
import { allPlaces, type Place, place } from './world.ts';

export interface City {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  lat: number;
  lon: number;
}

/** Great-circle km between two coordinates. */
export function haversineKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 6371 * 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The city a coordinate is in: the nearest airport's city within `maxKm` (airports name the city they
 * serve), else undefined (open sea, desert).
 */
export function cityNear(lat: number, lon: number, maxKm = 80): City | undefined {
  let best: Place | undefined;
  let bestKm = Number.POSITIVE_INFINITY;
  for (const p of allPlaces()) {
    // Cheap box test first: 1 degree of latitude is 111 km.
    if (Math.abs(p.lat - lat) * 111 > Math.min(bestKm, maxKm)) continue;
    const km = haversineKm({ lat, lon }, p);
    if (km < bestKm) {
      bestKm = km;
      best = p;
    }
  }
  return best && bestKm <= maxKm ? { name: best.city, country: best.country, lat, lon } : undefined;
}

/** A city for an IATA city or airport code (the airport data's city, at the airport's coordinates). */
export function cityOfCode(code: string): City | undefined {
  const p = place(code);
  return p.synthetic ? undefined : { name: p.city, country: p.country, lat: p.lat, lon: p.lon };
}

const STREETS: Record<string, readonly string[]> = {
  GB: [
    'High Street',
    'Station Road',
    'King Street',
    'Queen Street',
    'Church Lane',
    'Victoria Road',
    'Park Lane',
  ],
  US: ['Main Street', 'Broadway', '5th Avenue', 'Park Avenue', 'Washington Street', 'Market Street'],
  FR: [
    'Rue de Rivoli',
    'Boulevard Haussmann',
    'Rue de la Paix',
    'Avenue de la République',
    'Rue Victor Hugo',
  ],
  ES: ['Calle Mayor', 'Gran Vía', 'Avenida Diagonal', 'Paseo Marítimo', 'Calle de Alcalá', 'Plaza Mayor'],
  IT: ['Via Roma', 'Corso Italia', 'Via Garibaldi', 'Via Dante', 'Piazza del Duomo'],
  DE: ['Hauptstraße', 'Bahnhofstraße', 'Kaiserstraße', 'Friedrichstraße', 'Schillerstraße'],
  NL: ['Damrak', 'Kalverstraat', 'Prinsengracht', 'Stationsplein', 'Rokin'],
  PT: ['Avenida da Liberdade', 'Rua Augusta', 'Rua do Ouro', 'Praça do Comércio'],
  TR: ['İstiklal Caddesi', 'Cumhuriyet Caddesi', 'Atatürk Bulvarı', 'Bağdat Caddesi'],
  AE: ['Sheikh Zayed Road', 'Al Wasl Road', 'Jumeirah Beach Road', 'Al Maktoum Road', 'Corniche Road'],
  SA: ['King Fahd Road', 'Prince Sultan Street', 'Tahlia Street', 'Corniche Road', 'King Abdulaziz Road'],
  QA: ['Corniche Street', 'Al Sadd Street', 'C Ring Road', 'Salwa Road'],
  BH: ['Government Avenue', 'Exhibition Road', 'King Faisal Highway'],
  BD: ['Gulshan Avenue', 'Kemal Ataturk Avenue', 'Airport Road', 'Mirpur Road', 'Dhanmondi Road 27'],
  IN: ['MG Road', 'Marine Drive', 'Janpath', 'Park Street', 'Linking Road'],
  PK: ['Shahrah-e-Faisal', 'Mall Road', 'Jinnah Avenue', 'Clifton Road'],
  TH: ['Sukhumvit Road', 'Silom Road', 'Rama IV Road', 'Ratchadamri Road', 'Charoen Krung Road'],
  MY: ['Jalan Bukit Bintang', 'Jalan Ampang', 'Jalan Sultan Ismail', 'Jalan Raja Chulan'],
  SG: ['Orchard Road', 'Beach Road', 'Marina Boulevard', 'Bras Basah Road'],
};
const GENERIC_STREETS = ['Central Avenue', 'Airport Road', 'Market Street', 'Harbour Road', 'Park Road'];

/** Street names of the country (generic international ones where the table has none). */
export function streetsOf(country: string): readonly string[] {
  return STREETS[country] ?? GENERIC_STREETS;
}

/**
 * How dear a country is for hotels and ground transport, relative to Spain (1.0): London, New York and
 * Paris cost more than Dhaka or Bangkok.
 */
const PRICE_LEVEL: Record<string, number> = {
  GB: 1.45,
  US: 1.55,
  FR: 1.35,
  CH: 1.7,
  NL: 1.3,
  DE: 1.15,
  IT: 1.15,
  ES: 1,
  PT: 0.9,
  TR: 0.75,
  AE: 1.25,
  QA: 1.15,
  SA: 1,
  BH: 0.95,
  SG: 1.4,
  MY: 0.6,
  TH: 0.6,
  IN: 0.55,
  PK: 0.5,
  BD: 0.5,
};
export function priceLevel(country: string): number {
  return PRICE_LEVEL[country] ?? 0.9;
}

/** Typical nightly price (EUR, one double room, room only) of a hotel by star rating, at price level 1. */
export const NIGHTLY_EUR_BY_STARS: Readonly<Record<number, number>> = { 1: 40, 2: 60, 3: 90, 4: 140, 5: 240 };

/**
 * The nightly room-only price of a hotel in EUR: its star band at the country's price level, the hotel's
 * own position in the band (0.85-1.2, stable per hotel) and the room type's uplift.
 */
export function nightlyEur(stars: number, country: string, hotelKey: string, roomUplift = 1): number {
  const band = NIGHTLY_EUR_BY_STARS[Math.min(5, Math.max(1, Math.round(stars)))] as number;
  const position = 0.85 + (hashString(`hotel-price|${hotelKey}`) % 36) / 100;
  return Math.round(band * priceLevel(country) * position * roomUplift);
}

/** Road distance and drive time of a transfer between two points (or a stable in-town distance). */
export interface Drive {
  km: number;
  minutes: number;
}

/**
 * Roads are not straight: road km is the great circle times 1.3. Drive time: 10 minutes to load and leave,
 * then 35 km/h for the first 15 km of town traffic and 75 km/h beyond. Without coordinates for one end (a
 * hotel named in free text) the hotel is put 8-35 km from the other end, stable per pair.
 */
export function drive(
  a: { lat: number; lon: number } | undefined,
  b: { lat: number; lon: number } | undefined,
  pairKey: string,
): Drive {
  const km =
    a && b ? Math.max(2, Math.round(haversineKm(a, b) * 1.3)) : 8 + (hashString(`drive|${pairKey}`) % 28);
  const town = Math.min(km, 15);
  const minutes = Math.round((10 + (town / 35) * 60 + (Math.max(0, km - 15) / 75) * 60) / 5) * 5;
  return { km, minutes };
}

/**
 * A transfer's price in EUR for a vehicle: a flag fall plus a rate per road km (1.6 EUR/km for a
 * standard car at price level 1), times the vehicle's factor (premium car, van, minibus) and the price level.
 * Shared vehicles are priced per seat at a fraction of that.
 */
export function transferEur(km: number, vehicleFactor: number, country: string): number {
  return (20 + km * 1.6) * vehicleFactor * priceLevel(country);
}

/** Coordinates of a transfer end given as an IATA code or as "lat,lon" (undefined for free text). */
export function pointOf(code: string | undefined): (City & { code: string }) | undefined {
  if (!code) return undefined;
  const geo = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(code);
  if (geo) {
    const lat = Number(geo[1]);
    const lon = Number(geo[2]);
    const city = cityNear(lat, lon);
    return { code, name: city?.name ?? '', country: city?.country ?? 'ZZ', lat, lon };
  }
  if (/^[A-Za-z]{3}$/.test(code)) {
    const city = cityOfCode(code);
    return city ? { code: code.toUpperCase(), ...city } : undefined;
  }
  return undefined;
}
