/**
 * Deterministic itinerary generator: the same search (and seed) always yields the same itineraries,
 * so a FareSourceCode can carry just the search and an index and be rebuilt on Revalidate and Book.
 */

import { int, pick } from '../../shared/kit.ts';
import { minorPerMajor } from '../../shared/money.ts';
import { carriersServing, journey } from '../../shared/network.ts';
import type { EmulatorOptions } from '../../shared/options.ts';
import { hashString, mulberry32 } from '../../shared/random.ts';

export interface Carrier {
  code: string;
  lcc: boolean;
  aircraft: readonly string[];
}

export const CARRIERS: readonly Carrier[] = [
  { code: 'EK', lcc: false, aircraft: ['388', '77W'] },
  { code: 'QR', lcc: false, aircraft: ['359', '77W', '788'] },
  { code: 'TK', lcc: false, aircraft: ['333', '789', '32Q'] },
  { code: 'BA', lcc: false, aircraft: ['77W', '320', '789'] },
  { code: 'EY', lcc: false, aircraft: ['789', '359'] },
  { code: 'SV', lcc: false, aircraft: ['789', '320'] },
  { code: 'BG', lcc: false, aircraft: ['788', '738'] },
  { code: 'SQ', lcc: false, aircraft: ['359', '388'] },
  { code: 'GF', lcc: false, aircraft: ['789', '32N'] },
  { code: 'FZ', lcc: true, aircraft: ['7M8', '738'] },
  { code: 'G9', lcc: true, aircraft: ['320', '32N'] },
  { code: '6E', lcc: true, aircraft: ['32N', '321'] },
];

/** Cabin preference codes as OnePoint sends them. */
export const CABIN_CODES = { Y: 'Economy', S: 'Premium', C: 'Business', F: 'First' } as const;
export type CabinCode = keyof typeof CABIN_CODES;
const CABIN_FACTOR: Record<CabinCode, number> = { Y: 1, S: 1.7, C: 3.6, F: 6.2 };
const BOOKING_CLASSES: Record<CabinCode, readonly string[]> = {
  Y: ['Y', 'B', 'M', 'K', 'L', 'V', 'Q'],
  S: ['W', 'E'],
  C: ['J', 'C', 'D', 'I'],
  F: ['F', 'A'],
};
/** Rough rates from USD so prices look right in the account currency. */
const FX: Record<string, number> = {
  USD: 1,
  GBP: 0.79,
  EUR: 0.92,
  BDT: 117,
  SAR: 3.75,
  AED: 3.67,
  BHD: 0.376,
  QAR: 3.64,
  KWD: 0.307,
  OMR: 0.385,
  PKR: 279,
  INR: 83,
  MYR: 4.7,
  SGD: 1.35,
  LKR: 300,
};

/** The search as a FareSourceCode carries it. */
export interface SearchKey {
  legs: [string, string, string][];
  cabin: CabinCode;
  pax: [number, number, number];
  currency: string;
  trip: string;
  carrier?: string;
}

export interface GenSegment {
  from: string;
  to: string;
  dep: string;
  arr: string;
  minutes: number;
  carrier: string;
  operating: string;
  flightNumber: string;
  rbd: string;
  equipment: string;
}

export interface Itinerary {
  index: number;
  carrier: Carrier;
  legs: GenSegment[][];
  refundable: boolean;
  changeable: boolean;
  fareFamily: string;
  checkedKg: number;
  /** Per passenger type, minor units of the account currency. */
  fares: { code: 'ADT' | 'CHD' | 'INF'; qty: number; base: number; tax: number }[];
  currency: string;
  cabin: CabinCode;
}

function minorFactor(currency: string): number {
  return minorPerMajor(currency);
}

/** One leg on the carrier's timetable (`shared/network.ts`), times local to each airport as OnePoint sends them. */
function buildLeg(
  carrier: Carrier,
  from: string,
  to: string,
  date: string,
  variant: number,
): GenSegment[] | undefined {
  const flights = journey(carrier.code, from, to, date, variant);
  return flights?.map((f) => ({
    from: f.from,
    to: f.to,
    dep: f.departureLocal,
    arr: f.arrivalLocal,
    minutes: f.minutes,
    carrier: carrier.code,
    operating: carrier.code,
    flightNumber: f.flightNumber,
    rbd: 'Y',
    equipment: equipmentFor(carrier, f.km, f.flightNumber),
  }));
}

const WIDEBODY = new Set(['388', '77W', '359', '788', '789', '333']);
/** The carrier's type for a flight of this length (wide-body beyond 4,500 km), stable per flight number. */
function equipmentFor(carrier: Carrier, km: number, flightNumber: string): string {
  const fits = carrier.aircraft.filter((a) => WIDEBODY.has(a) === km > 4_500);
  const types = fits.length > 0 ? fits : carrier.aircraft;
  return types[hashString(`${carrier.code}${flightNumber}`) % types.length] as string;
}

export function generate(options: EmulatorOptions, key: SearchKey): Itinerary[] {
  const trigger = key.legs[0]?.[1] ?? '';
  const count = 6 + (hashString(JSON.stringify(key.legs)) % 5);
  const out: Itinerary[] = [];
  for (let index = 0; index < count; index++) {
    const it = itineraryAt(options, key, index, trigger);
    if (it) out.push(it);
  }
  return key.carrier ? out.filter((i) => i.carrier.code === key.carrier) : out;
}

export function itineraryAt(
  options: EmulatorOptions,
  key: SearchKey,
  index: number,
  trigger = '',
): Itinerary | undefined {
  const r = mulberry32(hashString(`${options.seed ?? 42}:${JSON.stringify(key)}:${index}`));
  // Only airlines that plausibly fly every leg (hub / home-country / alliance-hub rules).
  const serving = carriersServing(
    CARRIERS.filter((c) => !key.carrier || c.code === key.carrier).map((c) => c.code),
    key.legs.map(([from, to]) => ({ from, to })),
  );
  if (serving.length === 0) return undefined;
  const code = pick(r, serving);
  const carrier = CARRIERS.find((c) => c.code === code) as Carrier;
  const built = key.legs.map(([o, d, date]) => buildLeg(carrier, o, d, date, index));
  if (built.some((l) => l === undefined)) return undefined;
  const legs = built as GenSegment[][];
  const rbd = pick(r, BOOKING_CLASSES[key.cabin]);
  for (const seg of legs.flat()) seg.rbd = rbd;
  // Every third fare is non-refundable so that servicing determinations are reachable without a trigger.
  const refundable = trigger !== 'XNR' && index % 3 !== 1 && !carrier.lcc;
  const block = legs.flat().reduce((s, g) => s + g.minutes, 0);
  const usdBase = (40 + block * 0.9 + int(r, 0, 180)) * CABIN_FACTOR[key.cabin] * (refundable ? 1.25 : 1);
  const fx = FX[key.currency] ?? 1;
  const mf = minorFactor(key.currency);
  const adtBase = Math.round(usdBase * fx) * mf;
  const adtTax = Math.round((35 + usdBase * 0.14) * fx) * mf;
  const [adults, children, infants] = key.pax;
  const fares: Itinerary['fares'] = [{ code: 'ADT', qty: adults, base: adtBase, tax: adtTax }];
  if (children > 0) fares.push({ code: 'CHD', qty: children, base: Math.round(adtBase * 0.75), tax: adtTax });
  if (infants > 0)
    fares.push({ code: 'INF', qty: infants, base: Math.round(adtBase * 0.1), tax: Math.round(adtTax * 0.2) });
  return {
    index,
    carrier,
    legs,
    refundable,
    changeable: refundable || index % 2 === 0,
    fareFamily: carrier.lcc ? 'Value' : refundable ? 'Flex' : 'Saver',
    checkedKg: carrier.lcc ? 0 : key.cabin === 'Y' ? pick(r, [20, 23, 30]) : 40,
    fares,
    currency: key.currency,
    cabin: key.cabin,
  };
}

export function totals(it: Itinerary): { base: number; tax: number; total: number } {
  const base = it.fares.reduce((s, f) => s + f.base * f.qty, 0);
  const tax = it.fares.reduce((s, f) => s + f.tax * f.qty, 0);
  return { base, tax, total: base + tax };
}
