/**
 * The durable follow-up of asynchronous ticketing (`ticketing.follow_up`): when a supplier answers an issue
 * "in process", or a confirmed void/refund is left pending at a consolidator, a job is enqueued in the same
 * transaction as the state write. The handler (TicketingService.followUp) re-reads the ticket status or
 * the servicing list through the read endpoints' own code path, so a booking nobody reads still moves on;
 * the runner retries it with backoff while the supplier is still working, and it gives up (with an audit
 * entry) after FOLLOW_UP_MAX_ATTEMPTS attempts or FOLLOW_UP_LIMIT_MS, whichever comes first.
 */
import type { Clock } from '../../../internal/clock.ts';
import { enqueueOrRearm } from '../../../jobs/runner.ts';
import type { Db } from '../../../storage/schema.ts';

export const TICKET_FOLLOW_UP_QUEUE = 'ticketing.follow_up';
/** Attempts before giving up (the runner's backoff doubles from its base up to its cap between them). */
export const FOLLOW_UP_MAX_ATTEMPTS = 30;
/** Wall-clock bound from the request to the supplier; past it the job gives up at its next run. */
export const FOLLOW_UP_LIMIT_MS = 24 * 3_600_000;
/** The first look: the supplier is given this long before it is asked. */
export const FOLLOW_UP_FIRST_DELAY_MS = 30_000;

export interface FollowUpPayload {
  booking_id: number;
  /** issue: waiting for the tickets; servicing: waiting for a void/refund the consolidator works. */
  kind: 'issue' | 'servicing';
  request_id?: string | null;
  /** ISO time the follow-up started (the bound counts from it). */
  since: string;
}

const dedupe = (p: FollowUpPayload) =>
  `${TICKET_FOLLOW_UP_QUEUE}:${p.booking_id}:${p.kind}${p.request_id ? `:${p.request_id}` : ''}`;

/** Queues the follow-up in `db` (the caller's transaction); a finished job with the same key is re-armed. */
export async function queueTicketFollowUp(
  db: Db,
  clock: Clock,
  p: Omit<FollowUpPayload, 'since'>,
): Promise<void> {
  const now = clock.now();
  const payload: FollowUpPayload = { ...p, since: now.toISOString() };
  const runAt = new Date(now.getTime() + FOLLOW_UP_FIRST_DELAY_MS);
  await enqueueOrRearm(
    db,
    TICKET_FOLLOW_UP_QUEUE,
    payload,
    { dedupeKey: dedupe(payload), maxAttempts: FOLLOW_UP_MAX_ATTEMPTS, runAt },
    clock,
  );
}
