/**
 * A server process of some release: what `pnpm start` runs in that release's source tree
 * (`packages/server/sandbox/main.ts` where it exists, `packages/server/src/main.ts` before), in sandbox
 * mode (in-process supplier emulators), listening on a free loopback port. It exits with
 * the test process (EXIT_WITH_PARENT over an IPC channel, which every release since 0.1.0 honours).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface Running {
  url: string;
  output(): string;
  /** SIGTERM, then resolves once it has exited. */
  stop(): Promise<void>;
}

/** The environment of every server run on a store: its data, quiet logs, no supplier latency. */
export function serverEnv(store: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    EXIT_WITH_PARENT: '1',
    ...store,
  };
}

/** Starts the server of the source tree `root` with `env`; resolves once it listens. */
export async function startRelease(root: string, env: Record<string, string>): Promise<Running> {
  // Releases before the launcher: their src/main.ts started the emulators itself.
  const launcher = join(root, 'packages/server/sandbox/main.ts');
  const entry = existsSync(launcher) ? launcher : join(root, 'packages/server/src/main.ts');
  const child = spawn(process.execPath, [entry], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Travel service listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    void exited.then(() => reject(new Error(`server of ${root} exited before listening:\n${out}`)));
  });
  return {
    url,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `pnpm migrate <command>` of the source tree `root` (its scripts/migrate.ts) on the store in `env`. */
export function migrateCommand(root: string, command: 'status' | 'up', env: Record<string, string>): string {
  const r = spawnSync(process.execPath, [join(root, 'packages/server/scripts/migrate.ts'), command], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0)
    throw new Error(`migrate ${command} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}
