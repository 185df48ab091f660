/**
 * /health/live, /health/ready and the build information, in process (on PGlite, or on the PostgreSQL
 * server of TEST_DATABASE_URL), and readiness on SIGTERM with the real entry point as a child process:
 * /health/ready answers 503 while the listener still accepts new connections, then the process exits 0.
 */
import { request } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { buildInfo } from '../../src/internal/build-info.ts';
import type { OpenApiDoc } from '../../src/kernel/contract.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectMatchesContract, realContract } from '../helpers/contract.ts';
import { eventually } from '../resilience/stack.ts';
import { freshDatabase, startServer } from '../search/processes.ts';

const contract = realContract() as OpenApiDoc;

describe('health and build endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ contract });
  });
  afterAll(() => t.close());

  test('/health/live: the process answers', async () => {
    const r = await t.request('GET', '/health/live');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', uptime_seconds: expect.any(Number) });
    expectMatchesContract('getLiveness', 200, r.body);
  });

  test('/health/, GET / and travel_build_info name the build; GET / names the API version apart', async () => {
    const build = buildInfo();
    const health = await t.request('GET', '/health/');
    expect(health.body.build).toEqual(build);
    const root = await t.request('GET', '/');
    expect(root.body).toMatchObject({ version: String(contract.info?.version), build });
    expect(root.body.version).toBe('1.0.0');
    expect(root.body.build.version).not.toBe(root.body.version);
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.text).toContain(
      `travel_build_info{version="${build.version}",commit="${build.commit}",api_version="1.0.0",node="${process.version}"} 1`,
    );
  });

  test('/health/ready: 503 while a migration this build knows is not applied, 200 once it is', async () => {
    const ready = await t.request('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'current', draining: false },
      build: buildInfo(),
    });
    expectMatchesContract('getReadiness', 200, ready.body);
    const db = t.database.db;
    const { rows } = await sql<{ name: string; timestamp: string }>`
      select name, timestamp from kysely_migration order by name desc limit 1`.execute(db);
    const last = rows[0] as { name: string; timestamp: string };
    await sql`delete from kysely_migration where name = ${last.name}`.execute(db);
    const pending = await t.request('GET', '/health/ready');
    expect(pending.status).toBe(503);
    expect(pending.body.checks).toEqual({ database: 'ok', migrations: 'pending', draining: false });
    expectMatchesContract('getReadiness', 503, pending.body);
    await sql`insert into kysely_migration (name, timestamp) values (${last.name}, ${last.timestamp})`.execute(
      db,
    );
    expect((await t.request('GET', '/health/ready')).status).toBe(200);
  });

  test('draining: readiness 503, liveness and /health/ still 200', async () => {
    t.app.startDraining();
    const r = await t.request('GET', '/health/ready');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ status: 'not_ready', checks: { draining: true, database: 'ok' } });
    expect((await t.request('GET', '/health/live')).status).toBe(200);
    expect((await t.request('GET', '/health/')).status).toBe(200);
  });
});

/** A GET on a connection of its own (no keep-alive reuse): proves the listener still accepts. */
function freshGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('SIGTERM', () => {
  test('readiness answers 503 before the listener closes, then the process exits 0 within its grace', async () => {
    const pg = process.env.TEST_DATABASE_URL ? await freshDatabase(process.env.TEST_DATABASE_URL) : undefined;
    const server = await startServer('ready-drain', {
      READINESS_DRAIN_MS: '1500',
      SHUTDOWN_GRACE_MS: '3000',
      ...(pg ? { DATABASE_URL: pg.url } : {}),
    });
    onTestFinished(async () => {
      await server.stop('SIGKILL');
      await pg?.drop();
    });
    expect(await freshGet(`${server.url}/health/ready`)).toBe(200);
    const t0 = Date.now();
    server.child.kill('SIGTERM');
    // Not ready while new connections are still accepted and answered.
    await eventually(
      'readiness 503 after SIGTERM',
      5000,
      async () => (await freshGet(`${server.url}/health/ready`)) === 503,
    );
    expect(await freshGet(`${server.url}/health/live`)).toBe(200);
    expect(await freshGet(`${server.url}/health/`)).toBe(200);
    const { code } = await server.exited;
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(3000 + 1000 + 500);
    await expect(freshGet(`${server.url}/health/live`)).rejects.toThrow(/ECONNREFUSED/);
  });
});
