#!/usr/bin/env node
// `pnpm test`: every check the project has, in one command, ending with one line `N passed, N failed`.
// Each step is a check; vitest's tests are counted one by one from its JSON report. Storage-facing
// suites run twice when TEST_DATABASE_URL names a PostgreSQL server: once on embedded PGlite, once on it.
// The SDK's examples also run on Node 22 when TRAVEL_NODE22 (or .tools/node22, which .ci/run installs) has one,
// and its built package on Bun and Deno when TRAVEL_BUN / TRAVEL_DENO (or .tools/bun, .tools/deno) have them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const pgUrl = process.env.TEST_DATABASE_URL;
const node22 =
  process.env.TRAVEL_NODE22 || [join(root, '.tools/node22/node_modules/.bin/node')].find(existsSync);
const bun = process.env.TRAVEL_BUN || [join(root, '.tools/bun/node_modules/.bin/bun')].find(existsSync);
const deno = process.env.TRAVEL_DENO || [join(root, '.tools/deno/node_modules/.bin/deno')].find(existsSync);
const reports = mkdtempSync(join(tmpdir(), 'travel-test-'));
let passed = 0;
let failed = 0;
const failures = [];
const failedNames = [];

function step(name, cmd, args, env = {}) {
  const started = Date.now();
  process.stdout.write(`\n▶ ${name}\n`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = res.status === 0;
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`${ok ? '✔' : '✘'} ${name} (${secs}s)\n`);
  return ok;
}

function check(name, cmd, args, env) {
  if (step(name, cmd, args, env)) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

function vitest(name, args, env) {
  const out = join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const ok = step(
    name,
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...args],
    env,
  );
  if (!existsSync(out)) {
    failed += 1;
    failures.push(`${name} (no report)`);
    return;
  }
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  if (report.numFailedTests > 0 || !ok) failures.push(name);
  // Name each failed test again at the end, where a truncated log still shows it.
  for (const file of report.testResults ?? []) {
    const rel = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (file.status === 'failed' && failedTests.length === 0)
      failedTests.push({ fullName: '(the file failed to load)', failureMessages: [file.message ?? ''] });
    for (const t of failedTests) {
      const why = String(t.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 300);
      failedNames.push(`${name}: ${rel} > ${t.fullName}\n    ${why}`);
    }
  }
  if (!ok && report.numFailedTests === 0) failed += 1; // a suite that failed to load counts too
}

check('openapi.json lint (redocly)', bin('redocly'), ['lint', 'openapi.json', '--format=summary']);
check('format and lint (biome)', bin('biome'), ['check', '.']);
// The CLI typechecks against the SDK's built declarations, so build first.
check('build (tsup: sdk, cli)', 'pnpm', ['-r', '--if-present', 'build']);
// The SDK's budgets, on the build just made (offline: size-limit bundles locally, attw runs `npm pack`).
const sdk = ['--filter', '@travel/sdk', 'exec'];
check('sdk size budget (size-limit: core <= 12.3 kB min+gzip, target 10 kB)', 'pnpm', [...sdk, 'size-limit']);
check('sdk published types (@arethetypeswrong/cli --pack)', 'pnpm', [...sdk, 'attw', '--pack', '.']);
check('typecheck (tsc, strict)', bin('tsc'), ['-p', 'tsconfig.json']);
// Unused files, exports, types and dependencies (knip.jsonc lists the entries and each documented ignore).
check('unused code and dependencies (knip)', bin('knip'), ['--no-progress']);
// Copies (jscpd, .jscpd.json): fails on a clone between hotel and transport code; lists the others.
check('copies between hotel and transport (jscpd)', 'node', ['scripts/copies.mjs']);

const noPg = { TEST_DATABASE_URL: '' };
vitest('vitest (embedded PGlite)', [], {
  ...noPg,
  TRAVEL_NODE22: node22 ?? '',
  TRAVEL_BUN: bun ?? '',
  TRAVEL_DENO: deno ?? '',
});
if (!node22)
  process.stdout.write(
    '\n(no Node 22 in TRAVEL_NODE22 or .tools/node22: SDK examples ran on this Node only; .ci/run installs it)\n',
  );
if (!bun || !deno)
  process.stdout.write(
    `\n(no ${bun ? 'Deno' : deno ? 'Bun' : 'Bun or Deno'} in TRAVEL_BUN/TRAVEL_DENO or .tools: SDK runtime tests skipped it; .ci/run installs both)\n`,
  );
if (pgUrl)
  vitest('vitest server suites (PostgreSQL server)', ['--project', 'server'], { TEST_DATABASE_URL: pgUrl });
else
  process.stdout.write('\n(TEST_DATABASE_URL not set: PostgreSQL-server suites skipped; .ci/run sets it)\n');

if (existsSync(join(root, 'packages/cli/dist/bin.js')) && existsSync(join(root, 'scripts/smoke.mjs'))) {
  check('travel smoke against a sandbox server', 'node', ['scripts/smoke.mjs']);
}

// The deploy test: the image from ./Containerfile, compose.yaml's stack as one podman pod, two replicas,
// a SIGTERM under load (deploy/test.ts). Needs podman and root; .ci/run installs podman on CI.
const podman = spawnSync('podman', ['--version'], { stdio: 'ignore' }).status === 0;
if (podman && process.getuid?.() === 0) {
  check('deploy: image, compose stack, two replicas, SIGTERM (podman)', 'node', ['deploy/test.ts']);
} else {
  process.stdout.write('\n(no podman, or not root: the deploy test was skipped; .ci/run installs podman)\n');
}

if (failedNames.length)
  process.stdout.write(`\nfailed tests:\n${failedNames.map((n) => `  ${n}`).join('\n')}\n`);
process.stdout.write(`\n${failures.length ? `failed: ${failures.join('; ')}\n` : ''}`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
