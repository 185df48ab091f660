/**
 * The backup archive: one gzip'd tar that `tar tzf` lists.
 *   manifest.json      what it is (kind, when, the last migration, the files)
 *   pglite.tar         the embedded database: PGlite's own dump of its data directory (PGlite backups)
 *   postgres.dump      `pg_dump --format=custom` of the database (PostgreSQL backups)
 *   data/…             every other file of DATA_DIR: the sandbox secrets (`jwt-secret`, from which the
 *                      supplier-reference key is derived when SUPPLIER_REF_SECRET is unset), the mail
 *                      outbox and anything else kept there; never the control socket
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import type { Database } from '../database.ts';
import type { Db } from '../schema.ts';
import { readTar, type TarEntry, writeTar } from './tar.ts';

export interface Manifest {
  format: 'travel-backup';
  version: 1;
  kind: 'pglite' | 'postgres';
  created_at: string;
  /** The newest migration applied to the database when it was copied. */
  last_migration: string | null;
  /** DATA_DIR files included, relative to DATA_DIR. */
  files: string[];
}

export interface Unpacked {
  manifest: Manifest;
  /** pglite.tar or postgres.dump. */
  database: Uint8Array;
  files: TarEntry[];
}

/** Everything in DATA_DIR except the embedded database's own directory and sockets. */
export async function dataDirFiles(dataDir: string): Promise<TarEntry[]> {
  const out: TarEntry[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, e.name);
      const rel = relative(dataDir, path);
      if (rel === 'pglite') continue;
      if (e.isDirectory()) await walk(path);
      else if (e.isFile()) out.push({ name: rel, data: new Uint8Array(await readFile(path)), mode: 0o600 });
    }
  };
  await walk(dataDir);
  return out;
}

export async function lastMigration(db: Db): Promise<string | null> {
  const r = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(
    db,
  );
  return r.rows[0]?.name ?? null;
}

export function pack(
  kind: Manifest['kind'],
  database: Uint8Array,
  files: TarEntry[],
  migration: string | null,
) {
  const manifest: Manifest = {
    format: 'travel-backup',
    version: 1,
    kind,
    created_at: new Date().toISOString(),
    last_migration: migration,
    files: files.map((f) => f.name),
  };
  const entries: TarEntry[] = [
    { name: 'manifest.json', data: new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`) },
    { name: kind === 'pglite' ? 'pglite.tar' : 'postgres.dump', data: database, mode: 0o600 },
    ...files.map((f) => ({ ...f, name: `data/${f.name}` })),
  ];
  return { manifest, archive: gzipSync(writeTar(entries)) };
}

export function unpack(archive: Uint8Array): Unpacked {
  let entries: TarEntry[];
  try {
    entries = readTar(gunzipSync(archive));
  } catch (err) {
    throw new Error(`not a travel backup (a gzip'd tar was expected): ${(err as Error).message}`);
  }
  const find = (n: string) => entries.find((e) => e.name === n)?.data;
  const m = find('manifest.json');
  const manifest = m ? (JSON.parse(new TextDecoder().decode(m)) as Manifest) : undefined;
  if (manifest?.format !== 'travel-backup' || manifest.version !== 1)
    throw new Error('not a travel backup: manifest.json is missing or of another format');
  const database = find(manifest.kind === 'pglite' ? 'pglite.tar' : 'postgres.dump');
  if (!database) throw new Error(`the backup has no ${manifest.kind} database in it`);
  const files = entries
    .filter((e) => e.data && e.name.startsWith('data/'))
    .map((e) => ({ ...e, name: e.name.slice('data/'.length) }));
  return { manifest, database, files };
}

/** A backup of the embedded database `database` (open in this process) and of DATA_DIR's other files. */
export async function backupEmbedded(database: Database, dataDir: string) {
  if (!database.snapshot) throw new Error('only an embedded (PGlite) database can be copied in-process');
  const migration = await lastMigration(database.db);
  const tar = await database.snapshot();
  return pack('pglite', tar, await dataDirFiles(dataDir), migration);
}
