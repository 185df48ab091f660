import { type Kysely, sql } from 'kysely';

/**
 * The admin audit list reads newest first by (at, id), with `starting_after` seeking past an entry
 * (issue 31): without this index every page sorted the whole log. `event=` filters by action (and entity
 * type), which the second index serves in the same order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists audit_log_list_at on audit_log (at, id);
    create index if not exists audit_log_list_action on audit_log (action, at, id);
  `.execute(db);
}
