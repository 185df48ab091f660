import type { EmulatorOptions } from '../../shared/options.ts';
import { realClock } from '../../shared/options.ts';
import { type AmadeusScheduleChange, applyScheduleChange } from './schedule-changes.ts';
import type { Wire } from './wire.ts';

/** State of one emulator instance: tokens, flight orders with their tickets/EMDs, transfer orders, knobs. */

export type CouponStatusWire = 'OPEN' | 'USED' | 'EXCHANGED' | 'REFUNDED' | 'VOID';

export interface TicketRecord {
  documentNumber: string;
  travelerId: string;
  travelerName: string;
  issuedAt: string;
  fareCalculation: string;
  formOfPayment: string;
  coupons: {
    couponNumber: number;
    segmentId: string;
    origin: string;
    destination: string;
    flight: string;
    status: CouponStatusWire;
  }[];
}

export interface SeatRecord {
  segmentId: string;
  seatNumber: string;
  travelerId: string;
  status: 'PENDING' | 'CONFIRMED' | 'REFUSED';
  reason?: string;
  priceMinor: number;
  emdNumber?: string;
  tsmReference?: string;
}

export interface AncillaryRecord {
  tsmReference: string;
  code: string;
  travelerIds: string[];
  segmentIds: string[];
  priceMinor: number;
  emdNumber: string | null;
  status: 'ACTIVE' | 'VOIDED' | 'REMOVED';
}

export interface FlightOrderRecord {
  id: string;
  pnr: string;
  createdAt: number;
  clientReference: string | undefined;
  queuingOfficeId: string;
  data: Wire;
  currency: string;
  totalMinor: number;
  status: 'ACTIVE' | 'CANCELLED';
  nonRefundable: boolean;
  ancillariesEnabled: boolean;
  /** Forces the void window closed whatever the clock says (VOIDEXP trigger). */
  voidExpired: boolean;
  tickets: TicketRecord[];
  ticketedAt: number | undefined;
  ticketStatus: 'NOT_ISSUED' | 'ISSUED' | 'VOIDED' | 'REFUNDED' | 'EXCHANGED';
  seats: SeatRecord[];
  ancillaries: AncillaryRecord[];
  ssrs: Wire[];
  queues: Wire[];
  /** SCHEDULECHANGE trigger: the airline moves the flight at the order's first read (schedule-changes.ts). */
  scheduleChangeTriggered?: boolean;
}

export interface TransferOrderRecord {
  id: string;
  clientReference: string | undefined;
  data: Wire;
}

export type FaultKind = '5xx' | 'reset' | 'timeout';

export interface AmadeusKnobs {
  /** Applied at every pricing and re-checked at booking: the price drift between search and book. */
  priceDriftPercent: number;
  /** False makes every ancillary/EMD extension answer "not enabled" (the NOANCIL trigger does it per order). */
  ancillariesEnabled: boolean;
  /** Lifetime of an access token, seconds (Amadeus: 1799). */
  tokenTtlSeconds: number;
}

export interface AmadeusState {
  options: EmulatorOptions;
  now: () => number;
  knobs: AmadeusKnobs;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  orders: Map<string, FlightOrderRecord>;
  transferOrders: Map<string, TransferOrderRecord>;
  /** Transfer offers by id, as searched (booking needs the offer; Amadeus keeps them server-side too). */
  transferOffers: Map<string, { offer: Wire; expiresAt: number }>;
  /**
   * Arm a fault for the next `times` requests whose path contains `path` (default: any request). `when`:
   * `before` fails without acting (default); `after` acts, then fails: the ambiguous outcome.
   */
  armFault: (kind: FaultKind, opts?: { path?: string; times?: number; when?: 'before' | 'after' }) => void;
  takeFault: (path: string) => { kind: FaultKind; when: 'before' | 'after' } | undefined;
  /** Monotonic per-instance counter for ids, ticket and EMD numbers. */
  next: (what: string) => number;
  /** The counters behind `next`, by what they number (durable with the orders: numbers never repeat). */
  counters: Map<string, number>;
  /** Knob: the airline changes a booked order's schedule now; the next read shows it. */
  changeSchedule: (orderId: string, change: AmadeusScheduleChange) => void;
  reset: () => void;
}

export function createAmadeusState(options: EmulatorOptions): AmadeusState {
  const faults: { kind: FaultKind; path: string; times: number; when: 'before' | 'after' }[] = [];
  const state: AmadeusState = {
    counters: new Map(),
    options,
    now: options.clock ?? realClock,
    knobs: { priceDriftPercent: 0, ancillariesEnabled: true, tokenTtlSeconds: 1799 },
    tokens: new Map(),
    orders: new Map(),
    transferOrders: new Map(),
    transferOffers: new Map(),
    armFault(kind, opts = {}) {
      faults.push({ kind, path: opts.path ?? '', times: opts.times ?? 1, when: opts.when ?? 'before' });
    },
    takeFault(path) {
      const f = faults.find((x) => path.includes(x.path) && x.times > 0);
      if (!f) return undefined;
      f.times -= 1;
      if (f.times <= 0) faults.splice(faults.indexOf(f), 1);
      return { kind: f.kind, when: f.when };
    },
    changeSchedule(orderId, change) {
      const order = state.orders.get(orderId);
      if (!order) throw new Error(`no Amadeus flight order ${orderId}`);
      applyScheduleChange(order, change);
    },
    next(what) {
      const n = (state.counters.get(what) ?? 0) + 1;
      state.counters.set(what, n);
      return n;
    },
    reset() {
      faults.length = 0;
      state.counters.clear();
      state.tokens.clear();
      state.orders.clear();
      state.transferOrders.clear();
      state.transferOffers.clear();
      state.knobs = { priceDriftPercent: 0, ancillariesEnabled: true, tokenTtlSeconds: 1799 };
    },
  };
  return state;
}
