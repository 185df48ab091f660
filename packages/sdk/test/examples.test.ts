/**
 * Every script in examples/ runs as a child process (Node running the TypeScript source, as the README
 * says) against the real server started in this process, and exits 0.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Login, type RealServer, startRealServer } from './real/server.ts';

const examplesDir = fileURLToPath(new URL('../examples/', import.meta.url));

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** Must be asynchronous: the server answering the child lives on this event loop. */
function runExample(file: string, login: Login) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [file], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: {
        PATH: process.env.PATH ?? '',
        TRAVEL_BASE_URL: server.url,
        TRAVEL_EMAIL: login.email,
        TRAVEL_PASSWORD: login.password,
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
      resolve({ code, stdout, stderr });
    });
  });
}

const expected: Record<string, { login: 'agent' | 'admin'; output: RegExp }> = {
  'flight.ts': { login: 'agent', output: /booking confirmed \d+[\s\S]*ticketed true/ },
  'hotel.ts': { login: 'agent', output: /hotel booking confirmed \d+/ },
  'transfer.ts': { login: 'agent', output: /transfer booking confirmed \d+/ },
  'admin-report.ts': { login: 'admin', output: /dashboard[\s\S]*\d+ bookings/ },
};

describe('examples/ against the real server', () => {
  it('every runnable example is covered here', () => {
    const scripts = readdirSync(examplesDir).filter((f) => f.endsWith('.ts') && f !== 'env.ts');
    expect(scripts.sort()).toEqual(Object.keys(expected).sort());
  });

  // Sequential: admin-report comes last and sees the bookings the others made.
  it.each(Object.entries(expected))(
    '%s exits 0',
    async (file, { login, output }) => {
      const r = await runExample(`examples/${file}`, login === 'admin' ? server.admin : server.agent);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(output);
    },
    60_000,
  );
});
