/**
 * Real server processes for multi-process tests: the production entry (`src/main.ts`) run by node as a
 * child, on a fresh PostgreSQL database, with the supplier emulators running in this (the test) process
 * so that every child shares them and a test can hold a supplier's answer at a gate. A child in sandbox
 * mode without SANDBOX_SUPPLIER_URLS runs what `pnpm start` runs instead (`sandbox/main.ts`, the
 * emulators in the child's own process), since `src/main.ts` refuses to start so. A child listens on
 * 127.0.0.1 on a free port, reports it on its start-up line, and exits with its parent (IPC channel +
 * EXIT_WITH_PARENT), so a crashed test run leaves no server behind. Every child checks its responses
 * against openapi.json (RESPONSE_VALIDATION=strict: a violation answers 500 naming the problems), unless
 * the test's env says otherwise.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockSupplier, mystiflyHandlers, serveHandlers, startMockServers } from '@travel/mock-server';
import { HttpResponse, http, type RequestHandler } from 'msw';
import pg from 'pg';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/** `pnpm start`: src/server.ts with the emulators in its process (the composition root outside src/). */
const LAUNCHER = fileURLToPath(new URL('../../sandbox/main.ts', import.meta.url));

/** The entry a user runs for `env`: the launcher for sandbox mode without SANDBOX_SUPPLIER_URLS. */
export function entryFor(env: Record<string, string | undefined>): string {
  const sandbox = (env.SUPPLIERS || 'sandbox') === 'sandbox';
  return sandbox && !env.SANDBOX_SUPPLIER_URLS?.trim() ? LAUNCHER : MAIN;
}

/** A database of its own on the server named by `url` (channels for LISTEN/NOTIFY are per database too). */
export async function freshDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tp_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Holds requests until opened, and tells how many have reached it since it was closed. */
export class Gate {
  #open = true;
  #waiting = new Set<() => void>();
  #arrivals = 0;
  #onArrival: Array<{ n: number; resolve: () => void }> = [];

  close(): void {
    this.#open = false;
    this.#arrivals = 0;
  }

  open(): void {
    this.#open = true;
    for (const go of this.#waiting) go();
    this.#waiting.clear();
  }

  /** Resolves once `n` requests have reached the gate since it was closed. */
  arrived(n: number): Promise<void> {
    if (this.#arrivals >= n) return Promise.resolve();
    return new Promise((resolve) => this.#onArrival.push({ n, resolve }));
  }

  /** Resolves when the gate is open; rejects when the caller goes away first. */
  pass(signal: AbortSignal): Promise<void> {
    if (this.#open) return Promise.resolve();
    this.#arrivals += 1;
    for (const w of this.#onArrival.filter((x) => x.n <= this.#arrivals)) w.resolve();
    this.#onArrival = this.#onArrival.filter((x) => x.n > this.#arrivals);
    return new Promise((resolve, reject) => {
      const go = () => {
        signal.removeEventListener('abort', gone);
        resolve();
      };
      const gone = () => {
        this.#waiting.delete(go);
        reject(signal.reason);
      };
      this.#waiting.add(go);
      signal.addEventListener('abort', gone, { once: true });
    });
  }
}

export interface Emulators {
  urls: Partial<Record<MockSupplier, string>>;
  /** In front of Mystifly's flight search: close it to keep a fan-out running as long as a test needs. */
  mystiflySearch: Gate;
  close(): Promise<void>;
}

/** Every emulator on loopback without added latency; Mystifly's flight search behind a gate. */
export async function startEmulators(): Promise<Emulators> {
  const rest = await startMockServers({
    options: { latencyMs: 0, seed: 1 },
    suppliers: ['amadeus', 'duffel', 'hotelbeds', 'hotelbeds-transfers', 'stripe'],
  });
  const gate = new Gate();
  // The handlers need the server's URL, known once it listens: fill the list after, as startMockServers does.
  const handlers: RequestHandler[] = [];
  const mystifly = await serveHandlers(handlers, { host: '127.0.0.1', port: 0 });
  handlers.push(
    http.post(`${mystifly.url}/api/v2/Search/Flight`, async ({ request }) => {
      try {
        await gate.pass(request.signal);
      } catch {
        return HttpResponse.error();
      }
      return undefined; // on to the emulator's own handler
    }),
    ...mystiflyHandlers({ baseUrl: mystifly.url, latencyMs: 0, seed: 1 }).handlers,
  );
  return {
    urls: { ...rest.urls, mystifly: mystifly.url },
    mystiflySearch: gate,
    async close() {
      gate.open();
      await Promise.all([rest.close(), mystifly.close()]);
    },
  };
}

export interface ServerProcess {
  /** `http://127.0.0.1:<port>`, as the process printed it. */
  url: string;
  child: ChildProcess;
  /** Settles when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything it wrote, for failure messages. */
  output(): string;
  /** SIGTERM (drain), or SIGKILL when `signal` says so; resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs `src/main.ts` (or the launcher, `entryFor`) with `env` on top of a minimal environment. Resolves
 * once the process prints the URL it listens on (it does so after migrating, seeding and listening),
 * rejects if it exits first.
 */
export async function startServer(name: string, env: Record<string, string>): Promise<ServerProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), `travel-${name}-`));
  const child = spawn(process.execPath, [entryFor(env)], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      EXIT_WITH_PARENT: '1',
      RESPONSE_VALIDATION: 'strict',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  }).then(async (r) => {
    await rm(dataDir, { recursive: true, force: true });
    return r;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Travel service listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    void exited.then(({ code, signal }) =>
      reject(new Error(`server ${name} exited before listening (${code ?? signal}):\n${out}`)),
    );
  });
  return {
    url,
    child,
    exited,
    output: () => out,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface SseMessage {
  id?: string;
  event: string;
  data: unknown;
}

/** A `text/event-stream` response as messages; ends when the server closes it. */
export async function* readSse(res: Response): AsyncGenerator<SseMessage> {
  if (!res.body) throw new Error('no body');
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    for (let end = buf.indexOf('\n\n'); end >= 0; end = buf.indexOf('\n\n')) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const m: { id?: string; event: string; data: string[] } = { event: 'message', data: [] };
      for (const line of block.split('\n')) {
        const i = line.indexOf(':');
        if (i <= 0) continue;
        const field = line.slice(0, i);
        const value = line.slice(i + 1).replace(/^ /, '');
        if (field === 'id') m.id = value;
        else if (field === 'event') m.event = value;
        else if (field === 'data') m.data.push(value);
      }
      yield {
        ...(m.id !== undefined ? { id: m.id } : {}),
        event: m.event,
        data: JSON.parse(m.data.join('\n')),
      };
    }
  }
}
