/**
 * Kysely's Migrator over the migration files: a database recorded by the migrator before it
 * (`schema_migrations`, release 0.1.0) is adopted without re-running anything and keeps its record, a
 * failed upgrade leaves it exactly as it was, concurrent starts migrate once, and `migrationStatus`
 * reports what is applied without writing.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import { loadMigrations, migrate, migrationStatus } from '../../src/storage/migrate.ts';
import { RELEASES } from '../upgrade/releases.ts';
import { snapshotSchema } from './snapshot.ts';

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

  /** A database as release 0.1.0 left it: its migrations applied, recorded in `schema_migrations`. */
  async function legacy(): Promise<Kysely<unknown>> {
    const { db } = await blank();
    const all = await loadMigrations();
    const first = RELEASES[0]?.migrations ?? {};
    // What the hand-written migrator did: apply in one transaction, record names in schema_migrations.
    await (db as never as Kysely<unknown>).transaction().execute(async (trx) => {
      await sql`create table schema_migrations (name text primary key,
        applied_at timestamptz not null default now())`.execute(trx);
      for (const [name, m] of [...all].filter(([n]) => n in first)) {
        await m.up(trx);
        await sql`insert into schema_migrations (name) values (${name})`.execute(trx);
      }
    });
    return db as never as Kysely<unknown>;
  }

  it('adopts the record of the migrator before it: nothing re-runs, 0041 runs after 0050, the record stays', async () => {
    const db = await legacy();
    const all = await loadMigrations();
    const first = Object.keys(RELEASES[0]?.migrations ?? {});
    expect(first).toContain('0050-accounts');
    // status on the old database writes nothing: the legacy rows read as applied, the rest pending.
    const before = await snapshotSchema(db);
    const status = await migrationStatus(db);
    expect(status.filter((m) => !m.executedAt).map((m) => m.name)).toEqual(
      [...all.keys()].filter((n) => !first.includes(n)),
    );
    expect(await snapshotSchema(db)).toEqual(before);
    // Re-running 0001 would fail (its tables exist); 0041 (below 0050) and the later ones apply.
    const ran = await migrate(db);
    expect(ran).toEqual([...all.keys()].filter((n) => !first.includes(n)));
    expect(ran[0]).toBe('0041-reservation-write-ahead');
    // The release before reads schema_migrations on start: it is kept as it was.
    const left = await sql<{ name: string }>`select name from schema_migrations order by name`.execute(db);
    expect(left.rows.map((r) => r.name)).toEqual(first);
    expect((await migrationStatus(db)).filter((m) => !m.executedAt)).toEqual([]);
    expect(await migrate(db)).toEqual([]);
  });

  it('a 0.1.0 database that 0.2.0 failed to open (record moved, schema_migrations dropped) migrates forward', async () => {
    const db = await legacy();
    // What 0.2.0's open did before refusing the order: copy the record to kysely_migration, drop the old one.
    await sql`create table kysely_migration (name varchar(255) not null primary key,
      timestamp varchar(255) not null)`.execute(db);
    await sql`insert into kysely_migration select name, to_char(applied_at at time zone 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from schema_migrations`.execute(db);
    await sql`drop table schema_migrations`.execute(db);
    const first = Object.keys(RELEASES[0]?.migrations ?? {});
    const ran = await migrate(db);
    expect(ran[0]).toBe('0041-reservation-write-ahead');
    expect(ran).toEqual([...(await loadMigrations()).keys()].filter((n) => !first.includes(n)));
  });

  it('a failing migration on a 0.1.0 database leaves it exactly as it was, legacy record and all', async () => {
    const db = await legacy();
    const before = await snapshotSchema(db);
    const all = await loadMigrations();
    const broken = new Map([
      ...all,
      [
        '9999-broken',
        {
          up: async (d: Kysely<unknown>) => {
            await sql`create table upgrade_probe (id int)`.execute(d);
            await sql`select nope`.execute(d);
          },
        },
      ],
    ]);
    await expect(migrate(db, broken)).rejects.toThrow(/migration 9999-broken failed/);
    expect(await snapshotSchema(db)).toEqual(before);
    const tables = (before.relations as Array<{ name: string }>).map((r) => r.name);
    expect(tables).toContain('schema_migrations');
    expect(tables).not.toContain('kysely_migration');
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
      ['0002-broken', { up: async (d: Kysely<unknown>) => void (await sql`select nope`.execute(d)) }],
    ]);
    await expect(migrate(db as never, broken)).rejects.toThrow(/migration 0002-broken failed/);
    expect((await migrationStatus(db as never)).some((m) => m.executedAt)).toBe(false);
  });
});
