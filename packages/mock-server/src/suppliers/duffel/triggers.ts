/**
 * Sandbox triggers: reserved values that make the emulator take a documented path on purpose
 * (see README.md for the table). Family names follow `shared/contracts.md` section 4.
 */

export type FamilyNameTrigger =
  | 'PENDING'
  | 'TIMEOUT'
  | 'REJECT'
  | 'PRICECHANGE'
  | 'SOLDOUT'
  | 'SCHEDULECHANGE';

const FAMILY_TRIGGERS: readonly FamilyNameTrigger[] = [
  'PENDING',
  'TIMEOUT',
  'REJECT',
  'PRICECHANGE',
  'SOLDOUT',
  'SCHEDULECHANGE',
];

/** The first trigger any passenger or guest carries as `family_name` (case-insensitive). */
export function familyNameTrigger(people: unknown): FamilyNameTrigger | null {
  if (!Array.isArray(people)) return null;
  for (const p of people) {
    const name = String((p as { family_name?: unknown })?.family_name ?? '').toUpperCase();
    const hit = FAMILY_TRIGGERS.find((t) => t === name);
    if (hit) return hit;
  }
  return null;
}

/** Price rise a PRICECHANGE order or quote meets: 7% of the total, at least 5.00. */
export function priceChangeDelta(totalMinor: number): number {
  return Math.max(500, Math.round(totalMinor * 0.07));
}

/**
 * Seats in row 7 show as available on the seat map but the airline refuses them when they are added:
 * the "seat refused in a batch" case (a real seat map can be stale by the time the airline is asked).
 */
export function seatRefused(designator: string): boolean {
  return /^7[A-Z]$/.test(designator);
}

/** Void window: a paid order cancelled within 24 h of its creation is voided with a full refund. */
export const VOID_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Offers expire 30 minutes after the search, quotes 15 minutes after quoting, as Duffel's do. */
export const OFFER_TTL_MS = 30 * 60 * 1000;
export const QUOTE_TTL_MS = 15 * 60 * 1000;
export const CANCELLATION_QUOTE_TTL_MS = 15 * 60 * 1000;
/** Hold orders must be paid within 72 h (or before departure, whichever is sooner). */
export const HOLD_TTL_MS = 72 * 60 * 60 * 1000;

/** A knob: make the next `times` requests matching `method` + `path` fail. */
export interface FaultRule {
  method?: string;
  /** Matched against the path after the base URL, e.g. `/air/orders` (string: prefix; RegExp: test). */
  path: string | RegExp;
  kind: 'http_500' | 'http_502' | 'http_503' | 'reset' | 'hang';
  /** before: fail without acting; after: act (create the order), then fail — the ambiguous outcome. */
  when?: 'before' | 'after';
  times?: number;
}

export function takeFault(faults: FaultRule[], method: string, path: string): FaultRule | null {
  const i = faults.findIndex(
    (f) =>
      (f.method === undefined || f.method.toUpperCase() === method) &&
      (typeof f.path === 'string' ? path.startsWith(f.path) : f.path.test(path)),
  );
  if (i < 0) return null;
  const rule = faults[i] as FaultRule;
  rule.times = (rule.times ?? 1) - 1;
  if (rule.times <= 0) faults.splice(i, 1);
  return rule;
}
