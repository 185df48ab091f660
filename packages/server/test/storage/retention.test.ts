/**
 * Retention (jobs/retention.ts, docs/retention.md): rows past their period are purged, younger and
 * unfinished ones and business records are kept; deletes are bounded per run and a backlog drains over
 * the next runs; two purges at once (two processes) are safe; one purge job per slot across processes.
 */
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/internal/clock.ts';
import { type RetentionPolicy, retentionPolicy } from '../../src/internal/config.ts';
import {
  purgeExpired,
  RETENTION_QUEUE,
  retentionJobHandlers,
  scheduleRetention,
} from '../../src/jobs/retention.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import { purgeOutbox } from '../../src/mail/outbox-retention.ts';
import type { Database } from '../../src/storage/database.ts';
import { testDatabase } from '../helpers/db.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = new Date('2026-11-28T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);

let database: Database;
let db: Database['db'];
beforeAll(async () => {
  database = await testDatabase();
  db = database.db;
  await sql`insert into users (id, email, password_hash, full_name, role) values ('u1', 'u1@example.test', 'x', 'U', 'customer')`.execute(
    db,
  );
});
afterAll(() => database?.close());
beforeEach(async () => {
  await sql`delete from jobs; delete from search_sessions; delete from idempotency_keys; delete from refresh_tokens;
    delete from token_revocations; delete from error_logs; delete from audit_log`.execute(db);
});

let n = 0;
async function job(status: string, updatedAt: Date, queue = 'q.test') {
  n += 1;
  await sql`insert into jobs (id, queue, payload, run_at, status, created_at, updated_at)
    values (${`j${n}`}, ${queue}, '{}'::jsonb, ${updatedAt}, ${status}, ${updatedAt}, ${updatedAt})`.execute(
    db,
  );
  return `j${n}`;
}

async function search(expiresAt: Date) {
  n += 1;
  const id = `s${n}`;
  await sql`insert into search_sessions (id, vertical, user_id, request, expires_at, created_at)
    values (${id}, 'flight', 'u1', '{}'::jsonb, ${expiresAt}, ${ago(30 * DAY)})`.execute(db);
  await sql`insert into search_events (search_id, seq, event, data) values (${id}, 1, 'offer', '{}'::jsonb)`.execute(
    db,
  );
  await sql`insert into search_offers (offer_id, search_id, supplier, position, offer, total_minor, expires_at)
    values (${`o${n}`}, ${id}, 'amadeus', 0, '{}'::jsonb, 100, ${expiresAt})`.execute(db);
  return id;
}

const ids = async (table: string, col = 'id') =>
  (
    await sql<{ v: string }>`select ${sql.ref(col)}::text as v from ${sql.table(table)} order by 1`.execute(
      db,
    )
  ).rows.map((r) => r.v);
const count = async (table: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db)).rows[0]?.n;

const policy = (over: Partial<RetentionPolicy> = {}): RetentionPolicy => ({
  ...retentionPolicy({}),
  ...over,
});

describe('retention purge', () => {
  it('the documented defaults', () => {
    const p = retentionPolicy({});
    expect([p.jobsDoneMs, p.jobsFailedMs, p.searchMs, p.idempotencyMs]).toEqual([
      7 * DAY,
      30 * DAY,
      24 * HOUR,
      DAY,
    ]);
    expect([p.expiredCredentialsMs, p.errorLogsMs, p.outboxMs]).toEqual([7 * DAY, 30 * DAY, 30 * DAY]);
    expect([p.batchSize, p.maxBatches, p.intervalMs]).toEqual([1000, 20, HOUR]);
    expect(retentionPolicy({ RETENTION_JOBS_DONE_DAYS: '2', RETENTION_BATCH_SIZE: 'x' })).toMatchObject({
      jobsDoneMs: 2 * DAY,
      batchSize: 1000,
    });
  });

  it('purges rows past their period; keeps younger ones, unfinished jobs and business records', async () => {
    const doneOld = await job('done', ago(8 * DAY));
    const doneYoung = await job('done', ago(6 * DAY));
    const failedYoung = await job('failed', ago(8 * DAY));
    const failedOld = await job('failed', ago(31 * DAY));
    const queuedOld = await job('queued', ago(100 * DAY));
    const runningOld = await job('running', ago(100 * DAY));
    const searchOld = await search(ago(25 * HOUR));
    const searchRecent = await search(ago(HOUR));
    const searchLive = await search(new Date(NOW.getTime() + HOUR));
    for (const [key, at] of [
      ['old', ago(25 * HOUR)],
      ['young', ago(HOUR)],
    ] as const) {
      await sql`insert into idempotency_keys (scope, caller, operation_id, idem_key, request_hash, status, created_at, locked_until)
        values (${key}, 'c', 'op', ${key}, 'h', 'completed', ${at}, ${at})`.execute(db);
    }
    for (const [id, exp] of [
      ['rt-old', ago(8 * DAY)],
      ['rt-recent', ago(DAY)],
      ['rt-live', new Date(NOW.getTime() + DAY)],
    ] as const) {
      await sql`insert into refresh_tokens (id, user_id, token_hash, family_id, expires_at) values (${id}, 'u1', ${id}, 'f', ${exp})`.execute(
        db,
      );
      await sql`insert into token_revocations (key, reason, expires_at) values (${id}, 'r', ${exp})`.execute(
        db,
      );
    }
    for (const at of [ago(31 * DAY), ago(DAY)]) {
      await sql`insert into error_logs (stage, code, message, created_at) values ('s', 'c', 'm', ${at})`.execute(
        db,
      );
    }
    await sql`insert into audit_log (at, entity_type, entity_id, action) values (${ago(400 * DAY)}, 'booking', '1', 'created')`.execute(
      db,
    );

    const r = await purgeExpired(db, policy(), NOW);
    expect(r.backlog).toBe(false);
    expect(r.deleted).toMatchObject({
      jobs_done: 1,
      jobs_failed: 1,
      search_sessions: 1,
      idempotency_keys: 1,
      refresh_tokens: 1,
      token_revocations: 1,
      error_logs: 1,
    });
    expect(await ids('jobs')).toEqual([doneYoung, failedYoung, queuedOld, runningOld].sort());
    expect(await ids('jobs')).not.toContain(doneOld);
    expect(await ids('jobs')).not.toContain(failedOld);
    expect(await ids('search_sessions')).toEqual([searchRecent, searchLive].sort());
    expect(await ids('search_events', 'search_id')).not.toContain(searchOld);
    expect(await ids('search_offers', 'search_id')).not.toContain(searchOld);
    expect(await ids('idempotency_keys', 'scope')).toEqual(['young']);
    expect(await ids('refresh_tokens')).toEqual(['rt-live', 'rt-recent']);
    expect(await ids('token_revocations', 'key')).toEqual(['rt-live', 'rt-recent']);
    expect(await count('error_logs')).toBe(1);
    expect(await count('audit_log')).toBe(1);
  });

  it('deletes in bounded batches: a backlog is reported and drained by the runs that follow', async () => {
    for (let i = 0; i < 50; i++) await job('done', ago(10 * DAY));
    const p = policy({ batchSize: 10, maxBatches: 2 });
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await purgeExpired(db, p, NOW));
    expect(runs.map((r) => [r.deleted.jobs_done, r.backlog])).toEqual([
      [20, true],
      [20, true],
      [10, false],
    ]);
    expect(await count('jobs')).toBe(0);
  });

  it('two purges at once (two processes) delete every expired row once, and nothing else', async () => {
    for (let i = 0; i < 300; i++) await job('done', ago(10 * DAY));
    const young = await job('done', ago(DAY));
    const p = policy({ batchSize: 25 });
    const [a, b] = await Promise.all([purgeExpired(db, p, NOW), purgeExpired(db, p, NOW)]);
    expect((a.deleted.jobs_done ?? 0) + (b.deleted.jobs_done ?? 0)).toBe(300);
    expect(await ids('jobs')).toEqual([young]);
  });

  it('one purge job per slot whatever the number of processes; the run queues the next slot', async () => {
    const clock = new ManualClock(NOW);
    const p = policy();
    await Promise.all([scheduleRetention(db, p, 'now', clock), scheduleRetention(db, p, 'now', clock)]);
    const queued = async () =>
      (
        await sql<{ dedupe_key: string; run_at: Date }>`select dedupe_key, run_at from jobs
          where queue = ${RETENTION_QUEUE} and status = 'queued' order by run_at`.execute(db)
      ).rows;
    expect((await queued()).map((j) => j.dedupe_key)).toEqual([
      `${RETENTION_QUEUE}:2026-11-28T12:00:00.000Z`,
    ]);
    let runs = 0;
    const real = retentionJobHandlers({ db, clock, policy: p })[RETENTION_QUEUE];
    const handlers = {
      [RETENTION_QUEUE]: async (j: Parameters<NonNullable<typeof real>>[0]) => {
        runs += 1;
        await real?.(j);
      },
    };
    const a = new JobRunner({ db, clock, handlers, workerId: 'a' });
    const b = new JobRunner({ db, clock, handlers, workerId: 'b' });
    await Promise.all([a.runOnce(), b.runOnce()]);
    expect(runs).toBe(1);
    expect((await queued()).map((j) => j.dedupe_key)).toEqual([
      `${RETENTION_QUEUE}:2026-11-28T13:00:00.000Z`,
    ]);
    // A process starting later in the same slot adds nothing: the slot was run.
    await scheduleRetention(db, p, 'now', clock);
    expect(await queued()).toHaveLength(1);
  });
});

describe('mail outbox retention', () => {
  it('deletes .eml files older than the period, keeps younger ones and other files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'outbox-'));
    try {
      for (const name of ['old.eml', 'young.eml', 'notes.txt']) await writeFile(join(dir, name), 'x');
      const old = new Date(Date.now() - 31 * DAY);
      await utimes(join(dir, 'old.eml'), old, old);
      await utimes(join(dir, 'notes.txt'), old, old);
      expect(await purgeOutbox(dir, new Date(Date.now() - 30 * DAY))).toBe(1);
      expect((await readdir(dir)).sort()).toEqual(['notes.txt', 'young.eml']);
      expect(await purgeOutbox(join(dir, 'missing'), new Date())).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
