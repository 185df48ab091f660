import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from '../src/internal/clock.ts';
import { enqueue, type Job, JobRunner } from '../src/jobs/runner.ts';
import { DatabaseUnavailableError } from '../src/storage/connection-errors.ts';
import type { Database } from '../src/storage/database.ts';
import type { Db } from '../src/storage/schema.ts';
import { testBackend, testDatabase } from './helpers/db.ts';

let d: Database;
const clock = new ManualClock('2026-03-01T00:00:00Z');
beforeAll(async () => {
  d = await testDatabase();
});
afterAll(() => d.close());

/** `d.db` that, while `link.down`, fails every query at once as the real one does during an outage. */
const flaky = () => {
  const link = { down: false, refused: 0 };
  const db = new Proxy(d.db, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (link.down) {
          link.refused += 1;
          throw new DatabaseUnavailableError('down');
        }
        return v.apply(target, args);
      };
    },
  }) as Db;
  return { db, link };
};

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

  test('a claimed job is a lease: renewed while it runs, so another process does not take it over', async () => {
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => {
      entered = r;
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const id = (await enqueue(d.db, 'q-lease', {}, {}, clock)) as string;
    const a = new JobRunner({
      db: d.db,
      clock,
      lockTimeoutMs: 300,
      handlers: {
        'q-lease': async () => {
          entered();
          await gate;
        },
      },
    });
    const ranA = a.runOnce();
    await inHandler;
    // Time passes beyond the lease; the running worker renews it (every third of the lease).
    clock.advance(10_000);
    const renewed = clock.now().getTime();
    const deadline = Date.now() + 10_000;
    while ((await status(id)).locked_at?.getTime() !== renewed) {
      if (Date.now() > deadline) throw new Error('the lease was not renewed');
      await new Promise((r) => setImmediate(r));
    }
    // Another process polling now finds a live lease: it neither requeues nor runs the job.
    const b = new JobRunner({ db: d.db, clock, lockTimeoutMs: 300, handlers: { 'q-lease': async () => {} } });
    expect(await b.runOnce()).toBe(0);
    expect((await status(id)).status).toBe('running');
    release();
    expect(await ranA).toBe(1);
    expect((await status(id)).status).toBe('done');
  });

  test('a job whose worker died is requeued once its lease (30 s by default) lapses, not after minutes', async () => {
    const id = (await enqueue(d.db, 'q-dead', {}, {}, clock)) as string;
    await d.db
      .updateTable('jobs')
      .set({ status: 'running', locked_at: clock.now(), locked_by: 'killed' })
      .where('id', '=', id)
      .execute();
    const runner = new JobRunner({ db: d.db, clock, handlers: { 'q-dead': async () => {} } });
    clock.advance(20_000);
    expect(await runner.runOnce()).toBe(0);
    clock.advance(11_000);
    expect(await runner.runOnce()).toBe(1);
    expect((await status(id)).status).toBe('done');
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

  test('a job whose outcome could not be written (database gone) runs again once it is back, attempt given back', async () => {
    const { db, link } = flaky();
    const id = (await enqueue(d.db, 'q6', {}, { maxAttempts: 1 }, clock)) as string;
    let runs = 0;
    const runner = new JobRunner({
      db,
      clock,
      handlers: {
        q6: async () => {
          runs += 1;
          if (runs === 1) link.down = true; // the database goes away while the job runs
        },
      },
    });
    await expect(runner.runOnce()).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(await status(id)).toMatchObject({ status: 'running', attempts: 1 });
    link.down = false;
    // The first poll that gets through requeues it (without spending its only attempt) and runs it.
    expect(await runner.runOnce()).toBe(1);
    expect(runs).toBe(2);
    expect(await status(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  test('a handler failing because the database is unreachable does not spend an attempt', async () => {
    const id = (await enqueue(d.db, 'q7', {}, { maxAttempts: 1 }, clock)) as string;
    const runner = new JobRunner({
      db: d.db,
      clock,
      backoffBaseMs: 500,
      handlers: { q7: async () => Promise.reject(new DatabaseUnavailableError('down')) },
    });
    expect(await runner.runOnce()).toBe(1);
    const row = await status(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 0 });
    expect(new Date(row.run_at).getTime() - clock.now().getTime()).toBe(500);
  });

  test('the polling loop lives through an outage and picks work up when the database is back', async () => {
    const { db, link } = flaky();
    link.down = true;
    let ran!: () => void;
    const done = new Promise<void>((r) => {
      ran = r;
    });
    const runner = new JobRunner({
      db,
      clock,
      pollMs: 5,
      pollBackoffMaxMs: 20,
      handlers: { q8: async () => ran() },
    });
    runner.start();
    await enqueue(d.db, 'q8', {}, {}, clock);
    // Three polls fail meanwhile (each at once, as the real database layer does while down).
    await new Promise<void>((r) => {
      const seen = setInterval(() => {
        if (link.refused < 3) return;
        clearInterval(seen);
        r();
      }, 1);
    });
    link.down = false;
    await done;
    await runner.stop();
  });

  test('stop({ graceMs }) aborts the signal of a job still running, then returns', async () => {
    await enqueue(d.db, 'q9', {}, {}, clock);
    let started!: () => void;
    const running = new Promise<void>((r) => {
      started = r;
    });
    let aborted: unknown;
    const runner = new JobRunner({
      db: d.db,
      clock,
      pollMs: 5,
      handlers: {
        q9: (job) =>
          new Promise<void>((resolve) => {
            started();
            job.signal.addEventListener('abort', () => {
              aborted = job.signal.reason;
              resolve();
            });
          }),
      },
    });
    runner.start();
    await running;
    await runner.stop({ graceMs: 20 });
    expect(aborted).toBeInstanceOf(Error);
  });
});
