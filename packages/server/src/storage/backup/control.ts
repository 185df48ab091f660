/**
 * The operator's local control channel of a server on an embedded (PGlite) database: HTTP on a Unix
 * socket in DATA_DIR, mode 0600, so only the server's own user (and root) can reach it; it is never on
 * the network. PGlite runs inside the server process and does not lock its directory, so a second
 * process must neither open DATA_DIR while the server runs nor copy its files under it: `pnpm backup`
 * asks the server, over this socket, for a consistent copy instead (POST /backup). The socket is also
 * the lock: a second server on the same DATA_DIR, or `pnpm restore`, finds it answering and refuses.
 */
import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SOCKET = 'control.sock';
/** Linux allows 107 bytes in a socket path (macOS 103). */
const MAX_SOCKET_PATH = 100;

/** Where the control socket of the server on `dataDir` lives (a short path in tmpdir for a deep DATA_DIR). */
export function controlSocketPath(dataDir: string): string {
  const inside = join(resolve(dataDir), SOCKET);
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) return inside;
  const id = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
  return join(tmpdir(), `travel-control-${id}.sock`);
}

export interface RunningServer {
  pid: number;
  dataDir: string;
  startedAt: string;
}

/** Thrown when another server already serves this DATA_DIR. */
export class DataDirInUseError extends Error {
  readonly server: RunningServer;
  constructor(server: RunningServer) {
    super(
      `another travel server (pid ${server.pid}, since ${server.startedAt}) is running on DATA_DIR ${server.dataDir}`,
    );
    this.name = 'DataDirInUseError';
    this.server = server;
  }
}

function request(
  socketPath: string,
  method: string,
  path: string,
  timeoutMs: number,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((ok, fail) => {
    const req = http.request({ socketPath, method, path, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('timeout', () =>
      req.destroy(new Error(`control socket ${socketPath}: no answer in ${timeoutMs} ms`)),
    );
    req.on('error', fail);
    req.end();
  });
}

/** The server answering on `dataDir`'s control socket, or null when none does (no socket, or a stale one). */
export async function runningServer(dataDir: string): Promise<RunningServer | null> {
  try {
    const r = await request(controlSocketPath(dataDir), 'GET', '/', 5_000);
    if (r.status !== 200) return null;
    return JSON.parse(r.body.toString()) as RunningServer;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return null;
    throw err;
  }
}

/** Asks the server on `dataDir` for a backup archive (backup.ts `createBackup`). */
export async function requestBackup(dataDir: string, timeoutMs = 600_000): Promise<Buffer> {
  const r = await request(controlSocketPath(dataDir), 'POST', '/backup', timeoutMs);
  if (r.status !== 200) throw new Error(`the server refused the backup: ${r.body.toString()}`);
  return r.body;
}

export interface ControlHandlers {
  /** The backup archive, or undefined while the database is not open yet. */
  backup(): Promise<Buffer | undefined>;
}

export interface ControlServer {
  path: string;
  close(): Promise<void>;
}

/**
 * Listens on `dataDir`'s control socket, taking it over from a server that died without removing it;
 * throws DataDirInUseError when a live server answers there.
 */
export async function serveControl(dataDir: string, handlers: ControlHandlers): Promise<ControlServer> {
  const path = controlSocketPath(dataDir);
  const self: RunningServer = {
    pid: process.pid,
    dataDir: resolve(dataDir),
    startedAt: new Date().toISOString(),
  };
  let busy = false;
  const server = http.createServer((req, res) => {
    const send = (status: number, body: string | Buffer, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (req.method === 'GET' && req.url === '/') return send(200, JSON.stringify(self));
    if (req.method !== 'POST' || req.url !== '/backup') return send(404, '{"error":"not found"}');
    if (busy) return send(409, '{"error":"a backup is already running"}');
    busy = true;
    handlers
      .backup()
      .then((archive) =>
        archive
          ? send(200, archive, 'application/gzip')
          : send(503, '{"error":"the database is not open yet; retry in a moment"}'),
      )
      .catch((err: unknown) => send(500, JSON.stringify({ error: (err as Error)?.message ?? String(err) })))
      .finally(() => {
        busy = false;
      });
  });
  const listen = () =>
    new Promise<void>((ok, fail) => {
      server.once('error', fail);
      // Created 0600 from the start: no moment when another user could connect.
      const umask = process.umask(0o177);
      try {
        server.listen(path, () => {
          server.off('error', fail);
          ok();
        });
      } finally {
        process.umask(umask);
      }
    });
  try {
    await listen();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    const other = await runningServer(dataDir);
    if (other) throw new DataDirInUseError(other);
    // Left behind by a server that died (kill -9): nobody answers on it.
    unlinkSync(path);
    await listen();
  }
  await chmod(path, 0o600);
  // The channel alone never keeps a process alive (one that failed to start exits).
  server.unref();
  return {
    path,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
