/**
 * Builds the binary once and starts one REAL server (createRuntime: every domain, sandbox emulators with no
 * latency, fresh PGlite data directory) for the process and terminal tests.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '@travel/server/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    serverUrl: string;
    /** Why the server did not start (the process tests then fail with this, the unit tests still run). */
    serverError: string | null;
    admin: { email: string; password: string };
    agent: { email: string; password: string; companyCode: string; userCode: string } | null;
  }
}

function build() {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  try {
    execFileSync('pnpm', ['--filter', '@travel/cli', 'build'], { cwd: root, stdio: 'pipe' });
  } catch {
    // No pnpm on PATH: run tsup directly with this Node.
    const tsup = fileURLToPath(new URL('../node_modules/tsup/dist/cli-default.js', import.meta.url));
    execFileSync(process.execPath, [tsup], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: 'pipe',
    });
  }
}

export default async function setup(project: TestProject) {
  build();
  try {
    // The job runner polls, as in production: PENDING bookings reconcile while the processes wait.
    const server = await startTestServer({ startJobs: true });
    project.provide('serverUrl', server.url);
    project.provide('serverError', null);
    project.provide('admin', server.admin);
    project.provide('agent', { ...server.agent, ...server.agency });
    return () => server.close();
  } catch (error) {
    project.provide('serverUrl', '');
    project.provide('serverError', error instanceof Error ? (error.stack ?? error.message) : String(error));
    project.provide('admin', { email: '', password: '' });
    project.provide('agent', null);
    return undefined;
  }
}
