/**
 * The README promises the package "runs unchanged on Node 22+, browsers, Deno, Bun and edge runtimes".
 * This runs test/runtime-scripts/flight-search.mjs, which imports the BUILT package (dist/index.js), as a
 * child process of each runtime against the real server started in this process (as examples.test.ts
 * does): log in, search, read the SSE stream to its terminal event, revalidate an offer, map a 404. The
 * script prints a JSON summary; the checks are here.
 *
 * Node (the one running the tests) always runs it, so the script cannot rot where Bun and Deno are
 * missing. Bun and Deno run it when TRAVEL_BUN / TRAVEL_DENO name their binaries (`.ci/run` installs them
 * from npm into .tools/bun and .tools/deno; scripts/test.mjs passes them on). Deno runs it with only
 * `--allow-net` for the server's host and `--allow-env` for the three variables, and with the Node globals
 * removed before the package loads (`--web-only`): what an edge runtime without Node compatibility offers.
 * Unset: skipped, with the reason. Set but not runnable: skipped locally, a failure when CI=true.
 * Needs `pnpm --filter @travel/sdk build` first (`pnpm test` builds before vitest).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '@travel/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const script = 'test/runtime-scripts/flight-search.mjs';
const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const ci = process.env.CI === 'true';

interface Runtime {
  name: 'node' | 'bun' | 'deno';
  /** `bun 1.4.5`, or the runtime's name and why it cannot run. */
  label: string;
  /** Why the test is skipped (binary not configured, or not runnable outside CI). */
  skip?: string;
  /** Set in CI when the configured binary does not run: the test fails with it. */
  broken?: string;
  path: string;
  args(url: string): string[];
}

const scriptEnv = ['TRAVEL_BASE_URL', 'TRAVEL_EMAIL', 'TRAVEL_PASSWORD'];

const argsOf: Record<Runtime['name'], Runtime['args']> = {
  node: () => [script],
  bun: () => [script],
  // Permissions: the server's host:port and the three variables, nothing else (no file reads are needed:
  // Deno loads modules without --allow-read). --no-lock: no deno.lock written into the repository.
  deno: (url) => [
    'run',
    '--no-lock',
    '--no-prompt',
    `--allow-net=${new URL(url).host}`,
    `--allow-env=${scriptEnv.join(',')}`,
    script,
    '--web-only',
  ],
};

/** Asks the binary for its version: `bun 1.4.5`, `deno 2.9.6`. */
function probe(name: 'bun' | 'deno', variable: string): Runtime {
  const path = process.env[variable] || '';
  const base = { name, path, args: argsOf[name] };
  if (!path) {
    const reason = `${variable} not set (.ci/run installs ${name} into .tools/${name}; pnpm test passes it on)`;
    return { ...base, label: `${name} (${variable} not set)`, skip: reason };
  }
  try {
    const out = execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
    const version = /(\d+\.\d+\.\d+\S*)/.exec(out)?.[1];
    if (!version) throw new Error(`unexpected --version output: ${out.slice(0, 200)}`);
    return { ...base, label: `${name} ${version}` };
  } catch (error) {
    const reason = `${variable}=${path} does not run: ${error instanceof Error ? error.message.split('\n').filter(Boolean).slice(0, 3).join(' / ') : String(error)}`;
    return {
      ...base,
      label: `${name} (${variable} does not run)`,
      ...(ci ? { broken: reason } : { skip: reason }),
    };
  }
}

const runtimes: Runtime[] = [
  { name: 'node', label: `node ${process.versions.node}`, path: process.execPath, args: argsOf.node },
  probe('bun', 'TRAVEL_BUN'),
  probe('deno', 'TRAVEL_DENO'),
];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** Must be asynchronous: the server answering the child lives on this event loop. */
function run(runtime: Runtime) {
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>(
    (resolve, reject) => {
      const started = Date.now();
      const child = spawn(runtime.path, runtime.args(server.url), {
        cwd: sdkDir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          NO_COLOR: '1',
          TRAVEL_BASE_URL: server.url,
          TRAVEL_EMAIL: server.agent.email,
          TRAVEL_PASSWORD: server.agent.password,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 55_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, ms: Date.now() - started });
      });
    },
  );
}

interface Summary {
  runtime: { name: string; version: string };
  webOnly: boolean;
  searchId: string;
  eventCounts: Record<string, number>;
  offers: number;
  suppliers: string[];
  supplierDone: { supplier: string; status: string; offer_count: number }[];
  terminal?: { event: string; status: string; total_offers: number };
  revalidated: {
    offer_id: string;
    requested: string;
    available: boolean;
    price_changed: boolean;
    currency: string;
    total_minor: number;
  };
  notFound: {
    isNotFoundError: boolean;
    isTravelApiError: boolean;
    name?: string;
    status?: number;
    code?: string;
  };
}

describe('the built package (dist/index.js) on Node, Bun and Deno, against the real server', () => {
  it('dist/index.js is built', () => {
    expect(existsSync(dist), 'run `pnpm --filter @travel/sdk build` first').toBe(true);
  });

  it.for(runtimes)(
    '$label: search, SSE stream to done, revalidate, typed 404',
    { timeout: 60_000 },
    async (runtime, { skip }) => {
      if (runtime.skip) skip(runtime.skip);
      if (runtime.broken) expect.fail(`CI=true and ${runtime.broken}`);
      const r = await run(runtime);
      expect(r.code, `${runtime.label} exited ${r.code}\n${r.stdout}\n${r.stderr}`).toBe(0);
      const summary = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as Summary;

      expect(runtime.label.startsWith(`${summary.runtime.name} ${summary.runtime.version}`)).toBe(true);
      expect(summary.webOnly).toBe(runtime.name === 'deno');
      expect(summary.searchId).toBeTruthy();
      // The stream: offers from at least one supplier, a supplier_done per supplier, then done, last.
      expect(summary.offers).toBeGreaterThan(0);
      expect(summary.eventCounts.offer).toBe(summary.offers);
      expect(summary.suppliers.length).toBeGreaterThan(0);
      for (const supplier of summary.suppliers) expect(['amadeus', 'duffel', 'mystifly']).toContain(supplier);
      const doneBySupplier = Object.fromEntries(summary.supplierDone.map((d) => [d.supplier, d.offer_count]));
      for (const supplier of summary.suppliers) expect(doneBySupplier[supplier]).toBeGreaterThan(0);
      expect(summary.supplierDone.reduce((sum, d) => sum + d.offer_count, 0)).toBe(summary.offers);
      expect(summary.eventCounts.done).toBe(1);
      expect(summary.terminal).toEqual({ event: 'done', status: 'completed', total_offers: summary.offers });
      // Revalidation answered with the typed result for the offer asked about.
      expect(summary.revalidated.offer_id).toBe(summary.revalidated.requested);
      expect(summary.revalidated.available).toBe(true);
      expect(typeof summary.revalidated.price_changed).toBe('boolean');
      expect(summary.revalidated.currency).toMatch(/^[A-Z]{3}$/);
      expect(summary.revalidated.total_minor).toBeGreaterThan(0);
      // Error classes survive the runtime: instanceof works on what the package threw.
      expect(summary.notFound).toEqual({
        isNotFoundError: true,
        isTravelApiError: true,
        name: 'NotFoundError',
        status: 404,
        code: expect.any(String),
      });
      console.log(
        `${runtime.label}: ${summary.offers} offers from ${summary.suppliers.join(', ')} in ${r.ms} ms`,
      );
    },
  );
});
