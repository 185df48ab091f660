/**
 * Upgrades from every shipped release (releases.json), on this run's backend (PGlite, or PostgreSQL when
 * TEST_DATABASE_URL is set; `pnpm test` runs both). For each release: its own server, from its commit in
 * this clone's git history, writes the fixture's records through its API (fixture.ts) and reads them
 * back; that database is cached (stores.ts) and, on later runs, restored instead. Then, on that database:
 * - an upgrade whose last migration fails (injected here) leaves it exactly as the release wrote it;
 * - `pnpm migrate status` of this branch lists what it would apply, and writes nothing;
 * - the release itself still starts on it and reads every record as before;
 * - `pnpm migrate up` of this branch upgrades it, this branch's server reads every record back field by
 *   field (new fields allowed; responses checked against openapi.json), and nothing is left pending.
 * No release is skipped: a release commit missing from the clone fails with what to do.
 */
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.ts';
import { loadMigrations, migrate } from '../../src/storage/migrate.ts';
import { readFixture, writeFixture } from './fixture.ts';
import { releaseSource } from './old-release.ts';
import { RELEASES, REPO_ROOT } from './releases.ts';
import { migrateCommand, serverEnv, startRelease } from './servers.ts';
import {
  type Backend,
  emptyStore,
  type Recorded,
  restoreCached,
  type Store,
  saveToCache,
  snapshotStore,
} from './stores.ts';

const backend: Backend = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
/** Fields a read may change by itself: logging in to read sets the user's last login. */
const VOLATILE = new Set(['last_login_at']);

/** Every field of `before` has the same value in `after` (which may have more); the differences. */
function changed(before: unknown, after: unknown, path = ''): string[] {
  if (before === null || typeof before !== 'object')
    return Object.is(before, after) ? [] : [`${path}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`];
  if (after === null || typeof after !== 'object' || Array.isArray(before) !== Array.isArray(after))
    return [`${path}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`];
  if (Array.isArray(before) && before.length !== (after as unknown[]).length)
    return [`${path}: ${before.length} items → ${(after as unknown[]).length}`];
  return Object.entries(before).flatMap(([k, v]) =>
    VOLATILE.has(k) ? [] : changed(v, (after as Record<string, unknown>)[k], `${path}.${k}`),
  );
}

/** The release's server writes the fixture on a new store; what it wrote and read is cached with it. */
async function build(sha: string, source: string): Promise<{ store: Store; recorded: Recorded }> {
  const store = await emptyStore(backend);
  try {
    const old = await startRelease(source, serverEnv(store.env));
    let written: Recorded['written'];
    let reads: Recorded['reads'];
    try {
      written = await writeFixture(old.url, join(store.dataDir, 'outbox'));
      reads = await readFixture(old.url, written);
    } catch (err) {
      throw new Error(`release ${sha}: ${(err as Error).message}\n${old.output()}`, { cause: err });
    } finally {
      await old.stop();
    }
    const recorded = { written, reads, snapshot: await snapshotStore(store) };
    await saveToCache(store, sha, recorded);
    return { store, recorded };
  } catch (err) {
    await store.drop();
    throw err;
  }
}

/** This branch's migrations plus one that fails after everything else has run; must throw. */
async function failingUpgrade(store: Store): Promise<void> {
  const d = await openDatabase(
    backend === 'pglite'
      ? { dataDir: join(store.dataDir, 'pglite'), migrate: false }
      : { databaseUrl: store.env.DATABASE_URL, migrate: false },
  );
  try {
    const probe = {
      async up(db: import('kysely').Kysely<unknown>) {
        await sql`create table upgrade_probe (id int)`.execute(db);
        throw new Error('injected failure');
      },
    };
    const all = new Map([...(await loadMigrations()), ['9999-upgrade-probe', probe]]);
    await expect(migrate(d.db as never, all)).rejects.toThrow(
      /migration 9999-upgrade-probe failed: injected failure/,
    );
  } finally {
    await d.close();
  }
}

const pendingIn = (status: string) =>
  status
    .split('\n')
    .filter((l) => l.startsWith('pending'))
    .map((l) => l.trim().split(/\s+/).at(-1));

describe(`upgrade to this branch from every release (${backend})`, () => {
  it('covers at least the first two releases', () => {
    expect(RELEASES.map((r) => r.commit.slice(0, 7))).toEqual(expect.arrayContaining(['e73e4c7', '4925fbf']));
  });

  RELEASES.forEach((release, i) => {
    it(`from ${release.version} (${release.commit.slice(0, 7)})`, async () => {
      const source = releaseSource(release.commit);
      let got = await restoreCached(backend, release.commit);
      // A restored dump is the database the release wrote: every table, row for row.
      if (got) expect(await snapshotStore(got.store)).toEqual(got.recorded.snapshot);
      else got = await build(release.commit, source);
      const { store, recorded } = got;
      const env = serverEnv(store.env);
      try {
        await failingUpgrade(store);
        expect(await snapshotStore(store)).toEqual(recorded.snapshot);

        const shipped = new Set(RELEASES.slice(0, i + 1).flatMap((r) => Object.keys(r.migrations)));
        const mine = [...(await loadMigrations()).keys()];
        expect(pendingIn(migrateCommand(REPO_ROOT, 'status', env))).toEqual(
          mine.filter((n) => !shipped.has(n)),
        );
        expect(await snapshotStore(store)).toEqual(recorded.snapshot);

        const again = await startRelease(source, env);
        try {
          expect(changed(recorded.reads, await readFixture(again.url, recorded.written))).toEqual([]);
        } finally {
          await again.stop();
        }

        migrateCommand(REPO_ROOT, 'up', env);
        const now = await startRelease(REPO_ROOT, { ...env, RESPONSE_VALIDATION: 'strict' });
        try {
          expect(changed(recorded.reads, await readFixture(now.url, recorded.written))).toEqual([]);
        } finally {
          await now.stop();
        }
        expect(pendingIn(migrateCommand(REPO_ROOT, 'status', env))).toEqual([]);
      } finally {
        await store.drop();
      }
    }, 600_000);
  });
});
