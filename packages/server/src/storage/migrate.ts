import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, sql, type Transaction } from 'kysely';
import {
  FileMigrationProvider,
  type Migration,
  type MigrationInfo,
  type MigrationProvider,
  Migrator,
} from 'kysely/migration';

export type { Migration };

const migrationFolder = fileURLToPath(new URL('./migrations/', import.meta.url));
/**
 * Where the migrator before Kysely's (release 0.1.0, e73e4c7) recorded applied migrations. Adopted into
 * `kysely_migration` inside the migrating transaction and kept, never dropped: that release reads it on
 * start, so it still starts on a database whose upgrade failed (rolled back) and finds nothing to re-run.
 */
const LEGACY_TABLE = 'schema_migrations';
/**
 * The advisory lock every migrating process holds for its whole transaction: the legacy migrator's
 * (it took `pg_advisory_xact_lock(7411001)`), so an old release and this one never migrate at once either.
 * Kysely's own lock is session-level and released before our commit; this one is released by the commit.
 */
const MIGRATION_LOCK_ID = 7_411_001;

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

/**
 * Kysely's Migrator on the migrating transaction `trx`, after the legacy record is adopted in it.
 * allowUnorderedMigrations: a database of release 0.1.0 has 0050-accounts applied and lacks
 * 0041-reservation-write-ahead (added later with a lower number, the one documented exception in
 * releases.json); it runs after 0050 there. Every other new migration sorts after the last shipped one
 * (test/storage/releases.test.ts), so the history is only ever extended.
 */
async function migrator(trx: Transaction<unknown>, migrations?: Map<string, Migration>): Promise<Migrator> {
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries([...(migrations ?? (await loadMigrations()))].map(([n, m]) => [n, inSavepoint(m)])),
  };
  await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`.execute(trx);
  // Kysely's table lookup spans every schema unless told one: pin the record to the schema we live in
  // (test files share one server, each in its own schema).
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(trx);
  const schema = rows[0]?.schema ?? 'public';
  await adoptLegacyRecord(trx, schema);
  return new Migrator({ db: trx, provider, migrationTableSchema: schema, allowUnorderedMigrations: true });
}

/**
 * `m` run inside a savepoint: a failing migration rolls back to it, so the transaction stays usable for
 * Kysely's lock release (a statement in an aborted transaction would replace the migration's own error
 * with "current transaction is aborted"); `migrate` then rolls the whole transaction back.
 */
function inSavepoint(m: Migration): Migration {
  return {
    ...m,
    async up(db) {
      await sql`savepoint migration`.execute(db);
      try {
        await m.up(db);
      } catch (err) {
        await sql`rollback to savepoint migration`.execute(db);
        throw err;
      }
      await sql`release savepoint migration`.execute(db);
    },
  };
}

/**
 * A database migrated by release 0.1.0 recorded its migrations in `schema_migrations` (name, applied_at).
 * Copy the ones Kysely's `kysely_migration` (name, ISO timestamp) lacks, in the caller's transaction and
 * under its lock, so nothing already applied runs again, and a failed upgrade rolls the copy back too.
 */
async function adoptLegacyRecord(trx: Transaction<unknown>, schema: string): Promise<void> {
  const legacy = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
    where table_schema = ${schema} and table_name = ${LEGACY_TABLE}`.execute(trx);
  if (legacy.rows[0]?.n !== 1) return;
  await sql`create table if not exists ${sql.id(schema, 'kysely_migration')} (
    name varchar(255) not null primary key, timestamp varchar(255) not null)`.execute(trx);
  await sql`insert into ${sql.id(schema, 'kysely_migration')} (name, timestamp)
    select name, to_char(applied_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    from ${sql.id(schema, LEGACY_TABLE)} on conflict (name) do nothing`.execute(trx);
}

/**
 * Applies pending migrations with Kysely's Migrator: the legacy record's adoption, every migration and
 * their records in ONE transaction under one advisory lock. Several processes starting against one server
 * migrate exactly once (on PGlite the one connection already serialises them), and a failing migration
 * leaves the database exactly as it was, including for the release before. Returns the names applied;
 * throws the failing migration's error.
 */
export async function migrate(db: Kysely<unknown>, migrations?: Map<string, Migration>): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const { error, results } = await (await migrator(trx, migrations)).migrateToLatest();
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName;
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(failed ? `migration ${failed} failed: ${message}` : message, { cause: error });
    }
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  });
}

/** Thrown to roll back the read-only look of `migrationStatus`. */
class LookOnly extends Error {}

/**
 * Every known migration and when it was applied (undefined: pending). Read in a transaction that is
 * rolled back: the legacy record is adopted there only to be read, so a status writes nothing.
 */
export async function migrationStatus(db: Kysely<unknown>): Promise<readonly MigrationInfo[]> {
  let status: readonly MigrationInfo[] = [];
  try {
    await db.transaction().execute(async (trx) => {
      status = await (await migrator(trx)).getMigrations();
      throw new LookOnly();
    });
  } catch (err) {
    if (!(err instanceof LookOnly)) throw err;
  }
  return status;
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
