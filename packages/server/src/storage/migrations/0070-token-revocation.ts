import { type Kysely, sql } from 'kysely';

/**
 * Identity hardening.
 * - `token_revocations`: the access-token denylist shared by every process. `key` is `sid:<session>`
 *   (a refresh-token family: logout, refresh-token reuse) or `jti:<token id>`; a row lives until every
 *   token it can name has expired (`expires_at`), then it is purged.
 * - `login_failures`: failed logins per bucket (`acct:<email>|ip:<address>`, `ip:<address>`,
 *   `refresh-ip:<address>`). Only failures are counted; past the limit the bucket is blocked for a
 *   growing delay (`blocked_until`). A bucket is forgotten a window after its last failure.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table token_revocations (
      key text primary key,
      reason text not null,
      revoked_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index token_revocations_expires_idx on token_revocations (expires_at);

    create table login_failures (
      bucket text primary key,
      failures integer not null check (failures > 0),
      last_failed_at timestamptz not null,
      blocked_until timestamptz,
      expires_at timestamptz not null
    );
    create index login_failures_expires_idx on login_failures (expires_at);
  `.execute(db);
}
