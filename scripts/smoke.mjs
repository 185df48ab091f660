#!/usr/bin/env node
// The CI smoke run: start the service in sandbox mode on a free loopback port with a throwaway data
// directory, wait for /health/, run the built `travel smoke --json` against it as the sandbox agency
// agent, print its step table, stop the server. Exit code is the smoke run's.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
});
const dataDir = mkdtempSync(join(tmpdir(), 'travel-smoke-'));
const baseUrl = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['packages/server/sandbox/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};

let up = false;
for (let i = 0; i < 240 && !up && server.exitCode === null; i++) {
  try {
    up = (await fetch(`${baseUrl}/health/`)).ok;
  } catch {
    await new Promise((r) => setTimeout(r, 250)); // polling a starting process; not test synchronisation
  }
}
if (!up) {
  console.error('smoke: the server did not answer /health/');
  stop();
  process.exit(1);
}

const res = spawnSync(process.execPath, ['packages/cli/dist/bin.js', 'smoke', '--json'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
  env: {
    ...process.env,
    TRAVEL_BASE_URL: baseUrl,
    TRAVEL_EMAIL: 'agent@sandbox.travel',
    TRAVEL_PASSWORD: 'sandbox-agent-pass',
    TRAVEL_CONFIG_DIR: join(dataDir, 'cli'),
    NO_COLOR: '1',
  },
  timeout: 5 * 60_000,
});
process.stdout.write(res.stdout ?? '');
stop();
process.exit(res.status ?? 1);
