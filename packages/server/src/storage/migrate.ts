import { readdir } from 'node:fs/promises';
import { type Kysely, sql } from 'kysely';

export interface Migration {
  up(db: Kysely<unknown>): Promise<void>;
}

const migrationsDir = new URL('./migrations/', import.meta.url);
const MIGRATION_FILE = /^\d{4}-[\w-]+\.ts$/;
// Any constant: every process migrating the same database takes the same advisory lock.
const LOCK_ID = 7_411_001;

/** Every `migrations/NNNN-name.ts` (not tests), in name order. Domains add files in their number range. */
export async function loadMigrations(): Promise<Map<string, Migration>> {
  const files = (await readdir(migrationsDir)).filter(
    (f) => MIGRATION_FILE.test(f) && !f.endsWith('.test.ts'),
  );
  files.sort();
  const out = new Map<string, Migration>();
  for (const f of files) {
    const mod = (await import(new URL(f, migrationsDir).href)) as Partial<Migration>;
    if (typeof mod.up !== 'function') throw new Error(`migration ${f} exports no up(db)`);
    out.set(f.replace(/\.ts$/, ''), mod as Migration);
  }
  return out;
}

/**
 * Applies pending migrations in one transaction under an advisory lock, so several processes starting
 * against one PostgreSQL server migrate exactly once. Returns the names applied.
 */
export async function migrate(db: Kysely<unknown>, migrations?: Map<string, Migration>): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_ID})`.execute(trx);
    await sql`create table if not exists schema_migrations (
      name text primary key, applied_at timestamptz not null default now())`.execute(trx);
    const done = await sql<{ name: string }>`select name from schema_migrations`.execute(trx);
    const applied = new Set(done.rows.map((r) => r.name));
    const ran: string[] = [];
    for (const [name, m] of all) {
      if (applied.has(name)) continue;
      await m.up(trx);
      await sql`insert into schema_migrations (name) values (${name})`.execute(trx);
      ran.push(name);
    }
    return ran;
  });
}
