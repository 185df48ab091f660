/**
 * The floor under the getFare figures (issue 31): what one committed write costs on this machine and
 * database, outside our server. A bare client (`pg` for PostgreSQL, PGlite in this process on the same disk
 * for the embedded database) sends one INSERT of an offer-sized JSON row in autocommit, `samples` times,
 * one after another. The search path's "write sent → committed" phase cannot be cheaper than this.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface CommitFloor {
  p50: number;
  p99: number;
  samples: number;
}

/** An offer batch's worth of JSON (about 2 KB), as the search's writes carry. */
const ROW = JSON.stringify({
  offers: Array.from({ length: 8 }, (_, i) => ({
    offer_id: `off_${i}`,
    supplier: 'amadeus',
    total_minor: 12_345 + i,
    currency: 'GBP',
    segments: [
      { origin: 'LHR', destination: 'DXB', departure_at: '2027-01-20T10:00:00', flight: `BA10${i}` },
    ],
  })),
});

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

async function time(samples: number, one: () => Promise<unknown>): Promise<CommitFloor> {
  for (let i = 0; i < 10; i++) await one(); // warm up
  const took: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await one();
    took.push(performance.now() - t0);
  }
  return { p50: pct(took, 50), p99: pct(took, 99), samples };
}

export async function commitFloor(
  db: 'pglite' | 'postgres',
  pgUrl?: string,
  samples = 200,
): Promise<CommitFloor> {
  const table = `bench_commit_floor_${process.pid}`;
  const ddl = `create table ${table} (id bigserial primary key, body jsonb not null)`;
  const insert = `insert into ${table} (body) values ($1)`;
  if (db === 'postgres') {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    try {
      await c.query(ddl);
      return await time(samples, () => c.query(insert, [ROW]));
    } finally {
      await c.query(`drop table if exists ${table}`).catch(() => {});
      await c.end();
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-commit-floor-'));
  const lite = await PGlite.create(join(dir, 'pglite'));
  try {
    await lite.query(ddl);
    return await time(samples, () => lite.query(insert, [ROW]));
  } finally {
    await lite.close();
    await rm(dir, { recursive: true, force: true });
  }
}
