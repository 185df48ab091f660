import { type Kysely, sql } from 'kysely';

/**
 * Indexes the retention purge (jobs/retention.ts, docs/retention.md) reads by: finished jobs by when they
 * finished, refresh tokens by expiry. Without them each bounded delete would scan the whole table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists jobs_finished_idx on jobs (updated_at) where status in ('done', 'failed');
    create index if not exists refresh_tokens_expires_idx on refresh_tokens (expires_at);
  `.execute(db);
}
