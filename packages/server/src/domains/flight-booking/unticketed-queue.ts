/**
 * The queue of the captured-but-unticketed follow-up (ticketing/unticketed.ts handles it). Here, beside
 * both, because ticketing and payment both queue it (a ticket op ends without tickets; a ticket op's lost
 * capture settled by the money job with the tickets never asked for) and never import each other.
 */
import type { Clock } from '../../internal/clock.ts';
import { envNumber } from '../../internal/config.ts';
import { enqueue } from '../../jobs/runner.ts';
import type { Db } from '../../storage/schema.ts';

export const UNTICKETED_QUEUE = 'ticketing.unticketed';
const MAX_ATTEMPTS = 20;

export const unticketedDelayMs = () => envNumber('UNTICKETED_REFUND_DELAY_MS', 600_000);

/** Queues the follow-up of a captured booking left without a ticket, in the caller's transaction. */
export async function queueUnticketed(db: Db, clock: Clock, bookingId: number, reason: string) {
  const now = clock.now();
  await enqueue(
    db,
    UNTICKETED_QUEUE,
    { booking_id: bookingId, reason },
    {
      dedupeKey: `${UNTICKETED_QUEUE}:${bookingId}:${now.getTime()}`,
      maxAttempts: MAX_ATTEMPTS,
      runAt: new Date(now.getTime() + unticketedDelayMs()),
    },
    clock,
  );
}
