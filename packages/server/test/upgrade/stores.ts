/**
 * The database an earlier release wrote, on this run's backend: a PGlite DATA_DIR, or a database of its
 * own on TEST_DATABASE_URL's server. Built once per release and fixture (release sha + the fixture
 * script's sha256) and cached under `${TRAVEL_CACHE_DIR}/databases/`: the DATA_DIR's `pglite` folder as a
 * tar, the PostgreSQL database as a `pg_dump --format=custom`, beside what the fixture wrote, what that
 * release read back and a snapshot of every table (snapshot.ts). A restore is checked against that
 * snapshot, so a restored database is the one the old release wrote, row for row.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/storage/database.ts';
import { freshDatabase } from '../search/processes.ts';
import { snapshotSchema } from '../storage/snapshot.ts';
import type { Written } from './fixture.ts';
import { CACHE_DIR } from './old-release.ts';

export type Backend = 'pglite' | 'postgres';

/** One database and the DATA_DIR a server on it uses (mail outbox; PGlite's files too). */
export interface Store {
  backend: Backend;
  dataDir: string;
  /** DATA_DIR, and DATABASE_URL on PostgreSQL: what a server process needs to open it. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** What the old release wrote and read, kept with its database. */
export interface Recorded {
  written: Written;
  reads: Record<string, unknown>;
  snapshot: Record<string, unknown>;
}

const FIXTURE_HASH = createHash('sha256')
  .update(await readFile(fileURLToPath(new URL('./fixture.ts', import.meta.url))))
  .digest('hex')
  .slice(0, 16);

export async function emptyStore(backend: Backend): Promise<Store> {
  const dataDir = await mkdtemp(join(tmpdir(), 'travel-upgrade-'));
  if (backend === 'pglite')
    return {
      backend,
      dataDir,
      env: { DATA_DIR: dataDir },
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  const db = await freshDatabase(process.env.TEST_DATABASE_URL as string);
  return {
    backend,
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: db.url },
    async drop() {
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every table of the store, read in-process with this branch's storage (nothing migrated). */
export async function snapshotStore(store: Store): Promise<Record<string, unknown>> {
  const d = await openDatabase(
    store.backend === 'pglite'
      ? { dataDir: join(store.dataDir, 'pglite'), migrate: false }
      : { databaseUrl: store.env.DATABASE_URL, migrate: false },
  );
  try {
    return await snapshotSchema(d.db as never);
  } finally {
    await d.close();
  }
}

/** The PostgreSQL client tools (pg_dump, pg_restore): PG_BIN, the newest /usr/lib/postgresql, or PATH. */
function pgTool(name: string): string {
  const dirs = [
    process.env.PG_BIN,
    ...(existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : []),
  ].filter((d): d is string => Boolean(d));
  return dirs.map((d) => join(d, name)).find((p) => existsSync(p)) ?? name;
}

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.error}):\n${r.stderr}`);
}

const cacheOf = (backend: Backend, sha: string) =>
  join(CACHE_DIR, 'databases', backend, `${sha}-${FIXTURE_HASH}`);

/** The cached database of release `sha` restored into a new store, or undefined when none is cached. */
export async function restoreCached(
  backend: Backend,
  sha: string,
): Promise<{ store: Store; recorded: Recorded } | undefined> {
  const dir = cacheOf(backend, sha);
  if (!existsSync(join(dir, 'recorded.json'))) return undefined;
  const recorded = JSON.parse(await readFile(join(dir, 'recorded.json'), 'utf8')) as Recorded;
  const store = await emptyStore(backend);
  if (backend === 'pglite') run('tar', ['-x', '-f', join(dir, 'pglite.tar'), '-C', store.dataDir]);
  else
    run(pgTool('pg_restore'), [
      '--no-owner',
      '--exit-on-error',
      '-d',
      store.env.DATABASE_URL as string,
      join(dir, 'dump.pgc'),
    ]);
  return { store, recorded };
}

/** Keeps the store's database (stopped) and what the release wrote and read, for later runs. */
export async function saveToCache(store: Store, sha: string, recorded: Recorded): Promise<void> {
  const dir = cacheOf(store.backend, sha);
  const tmp = `${dir}.partial-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  if (store.backend === 'pglite')
    run('tar', ['-c', '-f', join(tmp, 'pglite.tar'), '-C', store.dataDir, 'pglite']);
  else
    run(pgTool('pg_dump'), [
      '--format=custom',
      '--no-owner',
      '-f',
      join(tmp, 'dump.pgc'),
      store.env.DATABASE_URL as string,
    ]);
  await writeFile(join(tmp, 'recorded.json'), JSON.stringify(recorded));
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
}
