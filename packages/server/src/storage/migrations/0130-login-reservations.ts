import { type Kysely, sql } from 'kysely';

/**
 * Login attempts are reserved before the password hash runs (issue 28).
 * - `login_failures.pending`: attempts of the bucket being evaluated right now (reserved, not yet known
 *   to fail or succeed). A reservation is refused once confirmed failures plus pending ones reach the
 *   limit, so concurrent guesses cannot overrun it; a success gives its reservation back.
 * - `failures` may now be 0: a bucket with only pending attempts, and the `known:<email>|ip:<address>`
 *   rows that remember an address an account logged in from (exempt from that address's block).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table login_failures drop constraint if exists login_failures_failures_check;
    alter table login_failures add constraint login_failures_failures_nonnegative check (failures >= 0);
    alter table login_failures add column pending integer not null default 0;
    alter table login_failures add constraint login_failures_pending_nonnegative check (pending >= 0);
  `.execute(db);
}
