import type { EmulatorOptions } from '../../shared/options.ts';
import { realClock } from '../../shared/options.ts';
import { hashString } from '../../shared/random.ts';
import { applyScheduleChange, type ScheduleChangeSpec } from './schedule-changes.ts';
import type { FaultRule } from './triggers.ts';

/**
 * Per-instance emulator state: everything a multi-step flow needs to stay consistent (offers bought,
 * orders paid, cancellations confirmed). Wire objects are kept in Duffel's own shape so a GET returns
 * exactly what the create answered.
 */

// biome-ignore lint/suspicious/noExplicitAny: wire objects are free-form JSON in Duffel's shape
export type Wire = Record<string, any>;

/** A service the emulator sold or can sell: bags from the offer, seats from the seat map. */
export interface ServiceDef {
  id: string;
  type: 'baggage' | 'seat';
  offerId: string;
  passengerIds: string[];
  segmentIds: string[];
  amountMinor: number;
  maxQuantity: number;
  metadata: Wire;
}

export interface OfferRecord {
  offer: Wire;
  requestId: string;
  /** Price drift the next order creation will meet (knob `driftOffer`), in minor units. */
  driftMinor: number;
  services: ServiceDef[];
  carrier: string;
}

export interface OrderRecord {
  order: Wire;
  offerId: string;
  carrier: string;
  createdAtMs: number;
  /** SCHEDULECHANGE trigger: the airline moves the flight at the order's first read (schedule-changes.ts). */
  scheduleChangeTriggered?: boolean;
}

export interface StaysRateRecord {
  rate: Wire;
  searchResultId: string;
  accommodation: Wire;
  roomName: string;
  driftMinor: number;
}

export interface DuffelState {
  now: () => number;
  seed: number;
  currency: string;
  offerRequests: Map<string, Wire>;
  offers: Map<string, OfferRecord>;
  services: Map<string, ServiceDef>;
  orders: Map<string, OrderRecord>;
  payments: Map<string, Wire>;
  cancellations: Map<string, Wire>;
  changeRequests: Map<string, Wire>;
  changeOffers: Map<string, Wire>;
  orderChanges: Map<string, Wire>;
  staysSearchResults: Map<string, Wire>;
  staysRates: Map<string, StaysRateRecord>;
  staysQuotes: Map<string, Wire & { _rateId?: string }>;
  staysBookings: Map<string, Wire>;
  /** Seats already taken on a segment (segment id -> designators). */
  takenSeats: Map<string, Set<string>>;
  faults: FaultRule[];
  /** How long a TIMEOUT trigger or `hang` fault keeps the caller waiting. */
  hangMs: number;
  nextId: (prefix: string) => string;
  /** The counters behind `nextId`, per prefix (durable with the orders: ids never repeat). */
  counters: Map<string, number>;
  /** Knob: the offer's price moves by `deltaMinor` (seen on GET and on order creation). */
  driftOffer: (offerId: string, deltaMinor: number) => void;
  /** Knob: a Stays rate's price moves by `deltaMinor` before it is quoted. */
  driftRate: (rateId: string, deltaMinor: number) => void;
  /** Knob: the next matching requests fail (5xx, connection reset, hang), before or after acting. */
  injectFault: (rule: FaultRule) => void;
  /**
   * Knob: the airline changes a booked order's schedule now (schedule-changes.ts): returns the recorded
   * airline-initiated change.
   */
  changeSchedule: (orderId: string, spec: ScheduleChangeSpec) => Wire;
  reset: () => void;
}

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(n: number, len: number): string {
  let out = '';
  let x = n >>> 0;
  for (let i = 0; i < len; i++) {
    out += B62[x % 62];
    x = Math.floor(x / 62) || hashString(`${x}${i}`);
  }
  return out;
}

export function createDuffelState(
  options: EmulatorOptions & { currency?: string; hangMs?: number },
): DuffelState {
  const seed = options.seed ?? 1;
  const state: DuffelState = {
    counters: new Map(),
    now: options.clock ?? realClock,
    seed,
    currency: options.currency ?? 'GBP',
    offerRequests: new Map(),
    offers: new Map(),
    services: new Map(),
    orders: new Map(),
    payments: new Map(),
    cancellations: new Map(),
    changeRequests: new Map(),
    changeOffers: new Map(),
    orderChanges: new Map(),
    staysSearchResults: new Map(),
    staysRates: new Map(),
    staysQuotes: new Map(),
    staysBookings: new Map(),
    takenSeats: new Map(),
    faults: [],
    hangMs: options.hangMs ?? 30_000,
    // Duffel ids look like `off_0000AEdGRhtp5AUUdJqMxo`: prefix, four zeros, 18 base62 characters.
    nextId(prefix: string): string {
      const n = (state.counters.get(prefix) ?? 0) + 1;
      state.counters.set(prefix, n);
      const h1 = hashString(`${seed}|${prefix}|${n}`);
      const h2 = hashString(`${n}|${prefix}|${seed}`);
      return `${prefix}_0000${base62(h1, 9)}${base62(h2, 9)}`;
    },
    driftOffer(offerId, deltaMinor) {
      const rec = state.offers.get(offerId);
      if (rec) rec.driftMinor += deltaMinor;
    },
    driftRate(rateId, deltaMinor) {
      const rec = state.staysRates.get(rateId);
      if (rec) rec.driftMinor += deltaMinor;
    },
    injectFault(rule) {
      state.faults.push({ times: 1, when: 'before', ...rule });
    },
    changeSchedule(orderId, spec) {
      const rec = state.orders.get(orderId);
      if (!rec) throw new Error(`no Duffel order ${orderId}`);
      return applyScheduleChange(state, rec, spec);
    },
    reset() {
      for (const v of Object.values(state)) if (v instanceof Map) v.clear();
      state.faults.length = 0;
    },
  };
  return state;
}
