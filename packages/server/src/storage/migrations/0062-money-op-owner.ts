import { type Kysely, sql } from 'kysely';

/**
 * Who owns an in-flight money op (payment/money-ops.ts). `owner_scope` is the idempotency scope of the
 * request that wrote the intent (null without an Idempotency-Key): while that lease is held the owner is
 * alive and settles the op itself; once it lapses (the process died) the `money.reconcile` job, or the next
 * request on the booking, settles it at once. `looks` counts the job's questions to the provider, so its
 * "not found" verdicts count looks, not the attempts it spent waiting for a live owner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table booking_money_ops add column if not exists owner_scope text;
    alter table booking_money_ops add column if not exists looks integer not null default 0;
  `.execute(db);
}
