import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../src/internal/clock.ts';
import { enqueue, type Job, JobRunner } from '../src/jobs/runner.ts';
import type { Database } from '../src/storage/database.ts';
import { testBackend, testDatabase } from './helpers/db.ts';

let d: Database;
const clock = new ManualClock('2026-03-01T00:00:00Z');
beforeAll(async () => {
  d = await testDatabase();
});
afterAll(() => d.close());

const status = async (id: string) =>
  d.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe(`job runner (${testBackend})`, () => {
  test('runs a ready job once and marks it done', async () => {
    const seen: Job[] = [];
    const id = (await enqueue(d.db, 'q1', { n: 1 }, {}, clock)) as string;
    const runner = new JobRunner({ db: d.db, clock, handlers: { q1: async (j) => void seen.push(j) } });
    expect(await runner.runOnce()).toBe(1);
    expect(await runner.runOnce()).toBe(0);
    expect(seen.map((j) => j.payload)).toEqual([{ n: 1 }]);
    expect((await status(id)).status).toBe('done');
  });

  test('retries with exponential backoff, then fails for good', async () => {
    const id = (await enqueue(d.db, 'q2', {}, { maxAttempts: 3 }, clock)) as string;
    const runner = new JobRunner({
      db: d.db,
      clock,
      backoffBaseMs: 1000,
      handlers: { q2: async () => Promise.reject(new Error('nope')) },
    });
    expect(await runner.runOnce()).toBe(1);
    let row = await status(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, last_error: 'nope' });
    expect(new Date(row.run_at).getTime() - clock.now().getTime()).toBe(1000);
    expect(await runner.runOnce()).toBe(0); // not due yet
    clock.advance(1000);
    await runner.runOnce();
    row = await status(id);
    expect(new Date(row.run_at).getTime() - clock.now().getTime()).toBe(2000);
    clock.advance(2000);
    await runner.runOnce();
    row = await status(id);
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
  });

  test('concurrent runners never take the same job twice (SKIP LOCKED)', async () => {
    for (let i = 0; i < 20; i++) await enqueue(d.db, 'q3', { i }, {}, clock);
    const ran: number[] = [];
    const handler = async (j: Job) => {
      ran.push((j.payload as { i: number }).i);
      await new Promise((r) => setTimeout(r, 5));
    };
    const runners = Array.from(
      { length: 4 },
      (_, k) =>
        new JobRunner({ db: d.db, clock, workerId: `w${k}`, batchSize: 3, handlers: { q3: handler } }),
    );
    for (let round = 0; round < 10; round++) await Promise.all(runners.map((r) => r.runOnce()));
    expect(ran.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  test('a dedupe key enqueues once; abandoned running jobs are requeued', async () => {
    const a = await enqueue(d.db, 'q4', {}, { dedupeKey: 'recon:1' }, clock);
    const b = await enqueue(d.db, 'q4', {}, { dedupeKey: 'recon:1' }, clock);
    expect(a).toBeDefined();
    expect(b).toBeUndefined();
    await d.db
      .updateTable('jobs')
      .set({ status: 'running', locked_at: clock.now(), locked_by: 'dead' })
      .where('id', '=', a as string)
      .execute();
    clock.advance(10 * 60_000);
    const runner = new JobRunner({ db: d.db, clock, handlers: { q4: async () => {} } });
    expect(await runner.runOnce()).toBe(1);
    expect((await status(a as string)).status).toBe('done');
  });

  test('start/stop polls in the background', async () => {
    const done = new Promise<void>((resolve) => {
      const runner = new JobRunner({
        db: d.db,
        clock,
        pollMs: 10,
        handlers: {
          q5: async () => {
            resolve();
          },
        },
      });
      runner.start();
      void enqueue(d.db, 'q5', {}, {}, clock).then(() => done.then(() => runner.stop()));
    });
    await done;
  });
});
