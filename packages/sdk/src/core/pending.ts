/**
 * A 502 from a booking call means "the supplier neither confirmed nor rejected yet": the booking exists and
 * reconciliation will settle it. Retrying the create could book twice, so instead we poll the booking with
 * backoff until it leaves its pending status or our deadline passes, and say plainly which happened.
 */
import type { Sleep } from './retry.ts';

/** How a booking call ended: settled either way, or still pending at the deadline. */
export type PendingOutcome = 'confirmed' | 'failed' | 'pending';

/** The result of a booking call that may have gone through a 502. */
export interface PendingResult<TBooking> {
  outcome: PendingOutcome;
  booking_id: number;
  /** The last booking read (absent when the deadline passed before any read). */
  booking?: TBooking | undefined;
}

/** Which statuses mean "still pending" and which mean "failed"; anything else is confirmed. */
export interface SettleRules {
  pending: readonly string[];
  failed: readonly string[];
}

/** Flight bookings (the spec's booking status list). */
export const FLIGHT_BOOKING_RULES: SettleRules = {
  pending: ['initiated', 'pending_pnr'],
  failed: ['pnr_failed', 'cancelled', 'expired'],
};

/** Polling budget for `bookings.create()`, `hotels.book()`, `transfers.book()`. */
export interface PendingPollOptions {
  /** Give up (outcome `pending`) after this long; default 60000 ms. 0 returns at once without polling. */
  deadlineMs?: number;
  /** First wait before reading the booking; default 1000 ms, doubling up to `maxDelayMs` (default 10000). */
  initialDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
}

/** The clock the poller runs on (injectable for tests). */
export interface PollDeps {
  sleep: Sleep;
  now: () => number;
}

/**
 * The outcome a booking status stands for.
 *
 * @example
 * settleOutcome('pending_pnr', FLIGHT_BOOKING_RULES); // 'pending'
 * settleOutcome('confirmed', FLIGHT_BOOKING_RULES); // 'confirmed'
 */
export function settleOutcome(status: unknown, rules: SettleRules): PendingOutcome {
  const value = String(status ?? '');
  if (rules.pending.includes(value)) return 'pending';
  return rules.failed.includes(value) ? 'failed' : 'confirmed';
}

/**
 * Polls `get(bookingId)` with doubling waits until the booking settles or the deadline passes.
 *
 * @example
 * const result = await pollUntilSettled((id) => client.bookings.get(id), 42, FLIGHT_BOOKING_RULES, deps);
 * if (result.outcome === 'pending') console.log('check again later:', result.booking_id);
 */
export async function pollUntilSettled<TBooking extends { status?: unknown }>(
  get: (bookingId: number, signal?: AbortSignal) => Promise<TBooking>,
  bookingId: number,
  rules: SettleRules,
  deps: PollDeps,
  options: PendingPollOptions = {},
): Promise<PendingResult<TBooking>> {
  const deadline = deps.now() + (options.deadlineMs ?? 60_000);
  const maxDelay = options.maxDelayMs ?? 10_000;
  let delay = options.initialDelayMs ?? 1000;
  let booking: TBooking | undefined;
  while (deps.now() + delay <= deadline) {
    await deps.sleep(delay, options.signal);
    booking = await get(bookingId, options.signal);
    const outcome = settleOutcome(booking.status, rules);
    if (outcome !== 'pending') return { outcome, booking_id: bookingId, booking };
    delay = Math.min(maxDelay, delay * 2);
  }
  return { outcome: 'pending', booking_id: bookingId, booking };
}
