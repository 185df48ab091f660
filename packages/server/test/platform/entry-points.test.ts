/**
 * The server's two entry points (docs/architecture.md, "Between packages"): `node src/main.ts` knows
 * suppliers only by URL, so in sandbox mode without SANDBOX_SUPPLIER_URLS it stops at once with a
 * configuration error naming both ways out; `pnpm start` runs the launcher outside src/
 * (`sandbox/main.ts`), whose emulators run inside the server's process (their state lock holds its pid),
 * keep their state in DATA_DIR/sandbox-suppliers, and are closed by its SIGTERM drain.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MOCK_SUPPLIERS } from '@travel/mock-server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { SANDBOX_SUPPLIERS } from '../../src/suppliers/sandbox.ts';
import { futureDate, oneWaySearch } from '../harness/flight-search.ts';
import { entryFor, freshDatabase, startServer } from '../search/processes.ts';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const LAUNCHER = fileURLToPath(new URL('../../sandbox/main.ts', import.meta.url));

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'travel-entry-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('entry points', () => {
  it('the server names the suppliers the emulators serve, one list', () => {
    expect([...SANDBOX_SUPPLIERS]).toEqual([...MOCK_SUPPLIERS]);
  });

  it('src/main.ts in sandbox mode without SANDBOX_SUPPLIER_URLS exits 1 naming pnpm start and SANDBOX_SUPPLIER_URLS', async () => {
    const dataDir = await tempDir();
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(code, out).toBe(1);
    const fatal = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .find((l) => l.level === 60);
    expect(fatal?.msg).toMatch(
      /^sandbox mode \(SUPPLIERS=sandbox, the default\) calls the supplier emulators/,
    );
    expect(fatal?.msg).toContain('run `pnpm start` (packages/server/sandbox/main.ts');
    expect(fatal?.msg).toContain('or set SANDBOX_SUPPLIER_URLS to a running packages/mock-server');
    // Failed fast: before the data directory's database or the emulators' state was touched.
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    expect(existsSync(join(dataDir, 'sandbox-suppliers'))).toBe(false);
  }, 60_000);

  it('the launcher (pnpm start) runs the emulators in its own process, answers ready, and closes them on SIGTERM', async () => {
    const dataDir = await tempDir();
    const pg = process.env.TEST_DATABASE_URL ? await freshDatabase(process.env.TEST_DATABASE_URL) : undefined;
    const env = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
    expect(entryFor(env)).toBe(LAUNCHER);
    const server = await startServer('launcher', env);
    onTestFinished(async () => {
      await server.stop('SIGKILL');
      await pg?.drop();
    });
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status, server.output()).toBe(200);
    // The emulators' state lock names the server's own pid: they run inside it, on DATA_DIR.
    const lock = join(dataDir, 'sandbox-suppliers', 'lock');
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(server.child.pid));
    // And they answer through it: the sandbox agent's flight search gets Amadeus offers.
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'agent@sandbox.travel', password: 'sandbox-agent-pass' }),
    });
    expect(login.status).toBe(200);
    const { access_token: token } = (await login.json()) as { access_token: string };
    const started = await fetch(`${server.url}/api/v1/flight/getFare`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(oneWaySearch('LHR', 'DXB', futureDate(60))),
    });
    expect(started.status, await started.clone().text()).toBe(202);
    const { searchId } = (await started.json()) as { searchId: string };
    const batch = await fetch(`${server.url}/api/v1/flight/getFare/batch/${searchId}?timeout=30`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await batch.json()) as { results_by_gds?: Record<string, unknown[]> };
    expect(batch.status).toBe(200);
    expect((body.results_by_gds?.amadeus ?? []).length).toBeGreaterThan(0);

    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    // The drain closed the emulators: their lock is released.
    expect(existsSync(lock)).toBe(false);
  }, 120_000);
});
