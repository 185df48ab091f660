/**
 * Deterministic transfer services. A rateKey is pipe-delimited (like Hotelbeds') and carries the route,
 * date, occupancy and vehicle, so a booking can rebuild the service without server state.
 */

import { type Drive, drive, pointOf, transferEur } from '../../shared/destinations.ts';
import { moneyText, textToMinor } from '../../shared/money.ts';
import type { EmulatorOptions } from '../../shared/options.ts';

export const VEHICLES = [
  {
    transferType: 'PRIVATE',
    vehicle: { code: 'CR', name: 'Car' },
    category: { code: 'STND', name: 'Standard' },
    min: 1,
    max: 3,
    factor: 1,
  },
  {
    transferType: 'PRIVATE',
    vehicle: { code: 'CR', name: 'Car' },
    category: { code: 'PRM', name: 'Premium' },
    min: 1,
    max: 3,
    factor: 1.8,
  },
  {
    transferType: 'PRIVATE',
    vehicle: { code: 'MNV', name: 'Minivan' },
    category: { code: 'STND', name: 'Standard' },
    min: 1,
    max: 7,
    factor: 1.4,
  },
  {
    transferType: 'PRIVATE',
    vehicle: { code: 'MNB', name: 'Minibus' },
    category: { code: 'STND', name: 'Standard' },
    min: 4,
    max: 16,
    factor: 2.3,
  },
  {
    transferType: 'SHARED',
    vehicle: { code: 'BS', name: 'Bus' },
    category: { code: 'STND', name: 'Standard' },
    min: 1,
    max: 50,
    factor: 0.3,
  },
] as const;

export interface TransferKey {
  direction: 'DEPARTURE' | 'RETURN';
  fromType: string;
  fromCode: string;
  toType: string;
  toCode: string;
  datetime: string;
  adults: number;
  children: number;
  infants: number;
  vehicle: number;
  drift: number;
}

/** Same distance both ways, so a return leg costs what the outbound does. */
function routeOf(k: TransferKey): string {
  return [k.fromCode, k.toCode].sort().join(':');
}

/**
 * The drive between the two ends: real road distance where both ends have coordinates (an IATA airport or
 * a GPS point), else a stable in-town distance for a hotel named by code or text (`shared/destinations.ts`).
 */
export function driveOf(options: EmulatorOptions, k: TransferKey): Drive & { country: string } {
  const a = pointOf(k.fromCode);
  const b = pointOf(k.toCode);
  const country = [a?.country, b?.country].find((c) => c && c !== 'ZZ') ?? 'ES';
  return { ...drive(a, b, `${options.seed ?? 42}:${routeOf(k)}`), country };
}

/** Price by road distance, vehicle and the destination's price level; shared seats per passenger. */
export function priceCents(options: EmulatorOptions, k: TransferKey): number {
  const v = VEHICLES[k.vehicle] ?? VEHICLES[0];
  const d = driveOf(options, k);
  const base =
    transferEur(d.km, v.factor, d.country) * (v.transferType === 'SHARED' ? k.adults + k.children : 1);
  return textToMinor(Math.round(base * (1 + k.drift / 100) * 100) / 100, 'EUR');
}

export function minutesOf(options: EmulatorOptions, k: TransferKey): number {
  return driveOf(options, k).minutes;
}

export function encodeKey(k: TransferKey): string {
  return [
    k.direction,
    k.fromType,
    k.fromCode,
    k.toType,
    k.toCode,
    k.datetime,
    `${k.adults}~${k.children}~${k.infants}`,
    k.vehicle,
    k.drift,
  ].join('|');
}

export function decodeKey(rateKey: string): TransferKey | undefined {
  const p = rateKey.split('|');
  if (p.length !== 9) return undefined;
  const [direction, fromType, fromCode, toType, toCode, datetime, occ, vehicle, drift] = p as string[];
  const [adults, children, infants] = (occ as string).split('~').map(Number);
  if (direction !== 'DEPARTURE' && direction !== 'RETURN') return undefined;
  return {
    direction,
    fromType: fromType as string,
    fromCode: fromCode as string,
    toType: toType as string,
    toCode: toCode as string,
    datetime: datetime as string,
    adults: adults ?? 1,
    children: children ?? 0,
    infants: infants ?? 0,
    vehicle: Number(vehicle),
    drift: Number(drift) || 0,
  };
}

/** Cancellation is free until 48 h before pickup, then the full price. */
export function policiesOf(k: TransferKey, cents: number) {
  const from = new Date(`${k.datetime}Z`);
  from.setUTCHours(from.getUTCHours() - 48);
  return [
    {
      amount: moneyText(cents, 'EUR'),
      from: `${from.toISOString().slice(0, 19)}+00:00`,
      currencyId: 'EUR',
      isForceMajeure: false,
    },
  ];
}
