/**
 * The migration history may be extended, never reordered or rewritten under an existing database:
 * a shipped migration file never changes (its sha256 is pinned in releases.json), a new one sorts after
 * every shipped one, and 0041-reservation-write-ahead is the one documented exception (0.2.0 added it
 * below 0050-accounts, which 0.1.0 had shipped; allowUnorderedMigrations runs it after 0050 there).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RELEASES, REPO_ROOT, shippedMigrations, UNORDERED } from '../upgrade/releases.ts';

const DIR = new URL('../../src/storage/migrations/', import.meta.url);
const onDisk = readdirSync(DIR)
  .filter((f) => /^\d{4}-[\w-]+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('migration history (releases.json)', () => {
  it('every shipped migration file is there, byte for byte as shipped', () => {
    for (const [name, pinned] of shippedMigrations()) {
      expect(onDisk, `shipped migration ${name} is missing`).toContain(name);
      const now = sha256(readFileSync(new URL(`${name}.ts`, DIR)));
      expect(now, `${name}.ts changed after it shipped: add a new migration instead`).toBe(pinned);
    }
  });

  it('every migration not yet shipped sorts after the last shipped one', () => {
    const last = [...shippedMigrations().keys()].sort().at(-1) as string;
    for (const name of onDisk.filter((n) => !shippedMigrations().has(n)))
      expect(name > last, `${name} must sort after ${last}, the last shipped migration`).toBe(true);
  });

  it('0041-reservation-write-ahead is the only migration a release added below an earlier release’s', () => {
    const before: string[] = [];
    const out: string[] = [];
    for (const r of RELEASES) {
      const last = before.sort().at(-1) ?? '';
      out.push(...Object.keys(r.migrations).filter((n) => n < last));
      before.push(...Object.keys(r.migrations));
    }
    expect(out).toEqual(['0041-reservation-write-ahead']);
    expect(Object.keys(UNORDERED)).toEqual(out);
  });

  it('releases are in order, and each one pins what its commit holds (git history)', () => {
    expect(RELEASES.length).toBeGreaterThanOrEqual(2);
    // A version as one comparable number (each part below 1000).
    const rank = (s: string) => s.split('.').reduce((n, part) => n * 1000 + Number(part), 0);
    for (const [a, b] of RELEASES.slice(1).map((r, i) => [RELEASES[i], r] as const)) {
      expect(rank(b.version), `${b.version} after ${a?.version}`).toBeGreaterThan(rank(a?.version ?? '0'));
      expect(b.date >= (a?.date ?? '')).toBe(true);
    }
    const seen = new Set<string>();
    for (const r of RELEASES) {
      let listed: string[];
      try {
        listed = execFileSync(
          'git',
          ['ls-tree', '--name-only', r.commit, 'packages/server/src/storage/migrations/'],
          { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
        )
          .split('\n')
          .filter(Boolean);
      } catch (err) {
        throw new Error(
          `release ${r.version}: commit ${r.commit} is not in this clone's git history; ` +
            'a full clone is needed (git fetch --unshallow)',
          { cause: err },
        );
      }
      const names = listed.map((p) => p.replace(/^.*\//, '').replace(/\.ts$/, ''));
      const added = names.filter((n) => !seen.has(n));
      expect(added.sort(), `release ${r.version} added`).toEqual(Object.keys(r.migrations).sort());
      for (const p of listed) {
        const name = p.replace(/^.*\//, '').replace(/\.ts$/, '');
        const blob = execFileSync('git', ['show', `${r.commit}:${p}`], { cwd: REPO_ROOT });
        expect(sha256(blob), `${name} as of ${r.commit}`).toBe(shippedMigrations().get(name));
        seen.add(name);
      }
    }
  });
});
