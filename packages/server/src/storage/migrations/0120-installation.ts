import { type Kysely, sql } from 'kysely';

/**
 * The installation: one row, generated once when this migration runs, never changed. Its id prefixes every
 * idempotency key we send the payment provider (Stripe keys live 24 h per account), so two databases on
 * one PSP account (staging and production in test mode, a database rebuilt from scratch) never present the
 * same key for different money movements. `created_at` tells operations written before it (their keys
 * carry no prefix) from those after. A restored backup keeps its installation: it is the same history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table installation (
      singleton boolean primary key default true check (singleton),
      id text not null,
      created_at timestamptz not null default now()
    );
    insert into installation (id) values (replace(gen_random_uuid()::text, '-', ''));
  `.execute(db);
}
