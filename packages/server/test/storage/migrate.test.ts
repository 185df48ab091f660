/**
 * Kysely's Migrator over the migration files: a database recorded by the migrator before it
 * (`schema_migrations`) is adopted without re-running anything, concurrent starts migrate once, and
 * `migrationStatus` reports what is applied.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { loadMigrations, migrate, migrationStatus } from '../../src/storage/migrate.ts';

const url = process.env.TEST_DATABASE_URL;
const opened: Database[] = [];
const schemas: string[] = [];

/** An unmigrated database: in-memory PGlite, or a fresh schema on TEST_DATABASE_URL's server. */
async function blank(schema = `mg_${randomBytes(6).toString('hex')}`): Promise<Database> {
  if (url && !schemas.includes(schema)) schemas.push(schema);
  const d = await openDatabase(url ? { databaseUrl: url, schema, migrate: false } : { migrate: false });
  opened.push(d);
  return d;
}

afterEach(async () => {
  for (const d of opened.splice(0)) await d.close();
  if (!url) return;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  for (const s of schemas.splice(0)) await c.query(`drop schema if exists ${s} cascade`);
  await c.end();
});

describe('migrate (Kysely Migrator)', () => {
  it('loads 0001… in name order and applies each once', async () => {
    const names = [...(await loadMigrations()).keys()];
    expect(names[0]).toBe('0001-kernel');
    expect(names).toEqual([...names].sort());
    const { db } = await blank();
    expect(await migrate(db as never)).toEqual(names);
    expect(await migrate(db as never)).toEqual([]);
    const status = await migrationStatus(db as never);
    expect(status.map((m) => m.name)).toEqual(names);
    expect(status.every((m) => m.executedAt instanceof Date)).toBe(true);
  });

  it('adopts the record of the migrator before it: nothing re-runs, later migrations still apply', async () => {
    const { db } = await blank();
    const all = await loadMigrations();
    const old = [...all].filter(([name]) => name < '0090');
    // What the hand-written migrator did: apply in one transaction, record names in schema_migrations.
    await (db as never as import('kysely').Kysely<unknown>).transaction().execute(async (trx) => {
      await sql`create table schema_migrations (name text primary key,
        applied_at timestamptz not null default now())`.execute(trx);
      for (const [name, m] of old) {
        await m.up(trx);
        await sql`insert into schema_migrations (name) values (${name})`.execute(trx);
      }
    });
    // Re-running 0001 would fail (its tables exist); only 0090 and later are pending.
    expect(await migrate(db as never)).toEqual([...all.keys()].filter((name) => name >= '0090'));
    const left = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
      where table_name = 'schema_migrations' and table_schema = current_schema()`.execute(db);
    expect(left.rows[0]?.n).toBe(0);
    expect((await migrationStatus(db as never)).filter((m) => !m.executedAt)).toEqual([]);
  });

  it('two processes starting at once against one database migrate it once', async () => {
    const schema = `mg_${randomBytes(6).toString('hex')}`;
    const a = await blank(schema);
    // PGlite cannot be shared between processes; on it the two migrators share one database instance.
    const b = url ? await blank(schema) : a;
    const [ra, rb] = await Promise.all([migrate(a.db as never), migrate(b.db as never)]);
    const names = [...(await loadMigrations()).keys()];
    expect([...ra, ...rb].sort()).toEqual(names);
    expect(Math.min(ra.length, rb.length)).toBe(0);
  });

  it('a failing migration fails loudly and applies nothing', async () => {
    const { db } = await blank();
    const all = await loadMigrations();
    const broken = new Map([
      ...[...all].slice(0, 1),
      [
        '0002-broken',
        { up: async (d: import('kysely').Kysely<unknown>) => void (await sql`select nope`.execute(d)) },
      ],
    ]);
    await expect(migrate(db as never, broken)).rejects.toThrow(/migration 0002-broken failed/);
    expect((await migrationStatus(db as never)).some((m) => m.executedAt)).toBe(false);
  });
});
