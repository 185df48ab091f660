import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, sql } from 'kysely';
import {
  FileMigrationProvider,
  type Migration,
  type MigrationInfo,
  type MigrationProvider,
  Migrator,
} from 'kysely/migration';

export type { Migration };

const migrationFolder = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Where the migrator before Kysely's recorded applied migrations; adopted once, then dropped. */
const LEGACY_TABLE = 'schema_migrations';
// The legacy migrator's advisory lock: held while adopting its record, so processes adopt it once.
const LEGACY_LOCK_ID = 7_411_001;

/**
 * Every `migrations/NNNN-name.ts`, in name order. A file there that exports no `up(db)` is a mistake and
 * fails loudly instead of being skipped.
 */
export async function loadMigrations(): Promise<Map<string, Migration>> {
  const provider = new FileMigrationProvider({
    fs,
    path,
    migrationFolder,
    import: (file) => import(pathToFileURL(file).href),
    onFileIgnored(file, reason) {
      if (reason === 'NotMigration') throw new Error(`migration ${file} exports no up(db)`);
    },
  });
  const all = await provider.getMigrations();
  return new Map(
    Object.keys(all)
      .sort()
      .map((name) => [name, all[name] as Migration]),
  );
}

async function migrator(db: Kysely<unknown>, migrations?: Map<string, Migration>): Promise<Migrator> {
  const provider: MigrationProvider = {
    getMigrations: async () => Object.fromEntries(migrations ?? (await loadMigrations())),
  };
  // Kysely's table lookup spans every schema unless told one: pin the record to the schema we live in
  // (test files share one server, each in its own schema).
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema ?? 'public';
  await adoptLegacyRecord(db, schema);
  return new Migrator({ db, provider, migrationTableSchema: schema });
}

/**
 * A database migrated before Kysely's Migrator recorded its migrations in `schema_migrations`
 * (name, applied_at). Copy them into Kysely's `kysely_migration` (name, ISO timestamp) and drop the old
 * table, in one transaction under the old migrator's lock, so concurrent starts adopt it exactly once and
 * nothing already applied runs again.
 */
async function adoptLegacyRecord(db: Kysely<unknown>, schema: string): Promise<void> {
  const exists = async (d: Kysely<unknown>) =>
    (
      await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
        where table_schema = ${schema} and table_name = ${LEGACY_TABLE}`.execute(d)
    ).rows[0]?.n === 1;
  if (!(await exists(db))) return;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LEGACY_LOCK_ID})`.execute(trx);
    if (!(await exists(trx))) return;
    await sql`create table if not exists ${sql.id(schema, 'kysely_migration')} (
      name varchar(255) not null primary key, timestamp varchar(255) not null)`.execute(trx);
    await sql`insert into ${sql.id(schema, 'kysely_migration')} (name, timestamp)
      select name, to_char(applied_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      from ${sql.id(schema, LEGACY_TABLE)} on conflict (name) do nothing`.execute(trx);
    await sql`drop table ${sql.id(schema, LEGACY_TABLE)}`.execute(trx);
  });
}

/**
 * Applies pending migrations with Kysely's Migrator: all in one transaction, under its advisory lock on
 * PostgreSQL (so several processes starting against one server migrate exactly once; on PGlite the one
 * connection already serialises them). Returns the names applied; throws the failing migration's error.
 */
export async function migrate(db: Kysely<unknown>, migrations?: Map<string, Migration>): Promise<string[]> {
  const { error, results } = await (await migrator(db, migrations)).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(failed ? `migration ${failed} failed: ${message}` : message, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Every known migration and when it was applied (undefined: pending). */
export async function migrationStatus(db: Kysely<unknown>): Promise<readonly MigrationInfo[]> {
  return (await migrator(db)).getMigrations();
}

let knownNames: Promise<string[]> | undefined;

/**
 * The migrations this build knows that the database has not applied (readiness: "migrations current").
 * A database ahead of this build (a newer release migrated it first) is current for it. Throws when the
 * database cannot be read.
 */
export async function pendingMigrations(db: Kysely<unknown>): Promise<string[]> {
  knownNames ??= loadMigrations().then((m) => [...m.keys()]);
  const known = await knownNames;
  let applied: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    applied = new Set(rows.map((r) => r.name));
  } catch (err) {
    // No record table yet: nothing applied (a database that answers, with every migration pending).
    if ((err as { code?: string }).code === '42P01') applied = new Set();
    else throw err;
  }
  return known.filter((name) => !applied.has(name));
}
