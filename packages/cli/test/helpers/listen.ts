/**
 * For the events tests: a `travel listen` child process whose output can be waited on, and a local webhook
 * receiver that keeps each request's raw body and headers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN } from './cli.ts';

/** Resolves when `check()` holds (checked on every change and every 50 ms), fails after `timeoutMs`. */
export async function until<T>(
  check: () => T | undefined | false,
  describe: () => string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Listener {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Sends SIGINT and resolves with the exit code. */
  interrupt(): Promise<number | null>;
}

export function startListen(args: string[], env: Record<string, string>, configDir: string): Listener {
  const child = spawn(process.execPath, [BIN, 'listen', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: configDir, TRAVEL_CONFIG_DIR: configDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c) => (out += c));
  child.stderr?.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    interrupt: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The status the next requests are answered with (default 200). */
  status: number;
  close(): void;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], status: 200, close: () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(receiver.status).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.close = () => {
    server.closeAllConnections();
    server.close();
  };
  return receiver;
}
