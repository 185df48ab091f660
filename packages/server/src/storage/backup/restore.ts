/**
 * Restoring a backup (archive.ts) and the PostgreSQL side of backups (pg_dump / pg_restore).
 *
 * DATA_DIR is never half replaced: the restored directory is assembled beside it
 * (`DATA_DIR.restore-<stamp>`), the embedded database in it is opened once to prove it reads, and only
 * then is the current DATA_DIR renamed aside (`DATA_DIR.before-restore-<stamp>`, kept for the operator to
 * delete) and the new one renamed into its place: two renames on one file system.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { environment } from '../../internal/config.ts';
import { openDatabase } from '../database.ts';
import { lastMigration, type Unpacked } from './archive.ts';
import { readTar } from './tar.ts';

const run = promisify(execFile);

/** A PostgreSQL client program: from PG_BIN_DIR when set, else from PATH. */
const bin = (name: string, dir = environment().PG_BIN_DIR) => (dir ? join(dir, name) : name);

async function tool(name: string, args: string[]): Promise<void> {
  try {
    await run(bin(name), args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT')
      throw new Error(`${name} not found: install the PostgreSQL client programs or set PG_BIN_DIR`);
    throw new Error(`${name} failed: ${(e.stderr || e.message).trim()}`);
  }
}

/** `pg_dump --format=custom` of the database at `url`: one consistent snapshot, taken while it serves. */
export async function pgDump(url: string): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'travel-pgdump-'));
  try {
    const file = join(dir, 'db.dump');
    await tool('pg_dump', ['--format=custom', '--file', file, '--dbname', url]);
    return new Uint8Array(await readFile(file));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Refuses a target database that already holds tables of ours (a running or earlier installation). */
export async function ensureEmptyDatabase(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ n: string }>(
      `select count(*) as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    );
    if (Number(r.rows[0]?.n) > 0) {
      throw new Error(
        `the target database is not empty (${r.rows[0]?.n} tables): restore into a new database (createdb) and point DATABASE_URL at it`,
      );
    }
  } finally {
    await c.end();
  }
}

/** pg_restore of a custom-format dump into the (empty) database at `url`, all or nothing. */
export async function pgRestore(url: string, dump: Uint8Array): Promise<string | null> {
  await ensureEmptyDatabase(url);
  const dir = await mkdtemp(join(tmpdir(), 'travel-pgrestore-'));
  try {
    const file = join(dir, 'db.dump');
    await writeFile(file, dump, { mode: 0o600 });
    await tool('pg_restore', [
      '--no-owner',
      '--no-acl',
      '--exit-on-error',
      '--single-transaction',
      '--dbname',
      url,
      file,
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const database = await openDatabase({ databaseUrl: url, migrate: false });
  try {
    return await lastMigration(database.db);
  } finally {
    await database.close();
  }
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z');

export interface Restored {
  dataDir: string;
  /** Where the previous DATA_DIR was kept, if there was one. */
  previous: string | null;
  /** The newest migration of the restored embedded database (PGlite backups). */
  lastMigration: string | null;
}

/**
 * Builds the restored DATA_DIR beside `dataDir` (the files of the backup, and for a PGlite backup its
 * database, opened once to check it reads), then swaps it in, keeping the previous one aside.
 */
export async function restoreDataDir(dataDir: string, b: Unpacked): Promise<Restored> {
  const target = resolve(dataDir);
  const when = stamp();
  const staging = `${target}.restore-${when}`;
  await mkdir(staging, { recursive: true, mode: 0o700 });
  let migration: string | null = null;
  try {
    for (const f of b.files) {
      const path = join(staging, f.name);
      if (!path.startsWith(`${staging}/`)) throw new Error(`unsafe path in the backup: ${f.name}`);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await writeFile(path, f.data as Uint8Array, { mode: 0o600 });
    }
    if (b.manifest.kind === 'pglite') {
      const db = join(staging, 'pglite');
      for (const e of readTar(b.database)) {
        const name = e.name.replace(/^\/+/, '');
        // The lock file of the process the copy was taken from.
        if (!name || name === 'postmaster.pid') continue;
        const path = join(db, name);
        if (!path.startsWith(`${db}/`)) throw new Error(`unsafe path in the backup: ${e.name}`);
        if (e.data) {
          await mkdir(dirname(path), { recursive: true, mode: 0o700 });
          await writeFile(path, e.data, { mode: 0o600 });
        } else await mkdir(path, { recursive: true, mode: 0o700 });
      }
      const opened = await openDatabase({ dataDir: db, migrate: false });
      try {
        migration = await lastMigration(opened.db);
      } finally {
        await opened.close();
      }
    }
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  let previous: string | null = null;
  try {
    if (existsSync(target)) {
      previous = `${target}.before-restore-${when}`;
      await rename(target, previous);
    }
    await rename(staging, target);
  } catch (err) {
    // A DATA_DIR that is a mount point cannot be renamed: the copy is whole, the swap is the operator's.
    throw new Error(
      `the restored copy is complete in ${staging}, but it could not be put in place (${(err as Error).message}); ` +
        `DATA_DIR ${existsSync(target) ? 'is unchanged' : `was moved to ${previous}`}: move the copy into place by hand`,
    );
  }
  return { dataDir: target, previous, lastMigration: migration };
}
