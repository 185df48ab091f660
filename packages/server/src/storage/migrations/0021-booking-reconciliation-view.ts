import { type Kysely, sql } from 'kysely';

/**
 * The reconciliation queue is the durable job table itself (queue `booking.reconcile`): this view joins
 * each job to its booking so the admin list is one query, and nothing is duplicated that could drift.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create view booking_reconciliation_queue as
      select b.id as booking_id, b.status as booking_status, b.company_id,
             j.id as job_id, j.status as job_status, j.attempts, j.max_attempts, j.run_at,
             j.last_error, j.created_at as queued_at
        from jobs j
        join flight_bookings b on b.id = (j.payload->>'booking_id')::bigint
       where j.queue = 'booking.reconcile'
  `.execute(db);
}
