import { statfs } from 'node:fs/promises';
import type { Logger } from '../internal/logger.ts';

/**
 * "The database has no room to write", as opposed to a bug or an unreachable server: PostgreSQL's
 * SQLSTATE 53100 `disk_full` ("could not extend file …: No space left on device"), and on the embedded
 * PGlite the same error or the Emscripten file system's own `ErrnoError` with errno 51 (ENOSPC in its
 * numbering) / Node's `ENOSPC`. Requests answer 503 `storage_full` with `Retry-After` (error-handler.ts):
 * the statement failed, so its transaction rolled back and nothing of it was written. `/health/` reports
 * the database `degraded` while it lasts (StorageMonitor).
 */

/** Emscripten's errno for ENOSPC (its own table, not Linux's 28). */
const EMSCRIPTEN_ENOSPC = 51;
const NO_SPACE = /no space left on device/i;

/** Seconds a client should wait before retrying a write refused for a full disk. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;

export function isStorageFull(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as { code?: unknown; errno?: unknown; name?: unknown; message?: unknown; cause?: unknown };
  if (e.code === '53100' || e.code === 'ENOSPC') return true;
  if (e.name === 'ErrnoError' && e.errno === EMSCRIPTEN_ENOSPC) return true;
  if (typeof e.message === 'string' && NO_SPACE.test(e.message)) return true;
  return isStorageFull(e.cause, depth + 1);
}

export interface StorageState {
  /** A write failed for want of space and none has succeeded since (or within `holdMs`). */
  full: boolean;
  since: number | null;
  lastError: string | null;
}

/**
 * What this process knows about the database's room to write: set by a storage-full error from any
 * query, cleared by the next insert that succeeds (a row added took room; a delete or an update may
 * not need any), or
 * `holdMs` after the last such error when nothing has written since.
 */
export class StorageMonitor {
  #since: number | null = null;
  #last = 0;
  #message: string | null = null;
  readonly #holdMs: number;
  readonly #log: Logger | undefined;
  readonly #now: () => number;

  constructor(o: { holdMs?: number; log?: Logger | undefined; now?: () => number } = {}) {
    this.#holdMs = o.holdMs ?? 60_000;
    this.#log = o.log;
    this.#now = o.now ?? Date.now;
  }

  /** Any failed query: notes it when it is a storage-full error. */
  error(err: unknown): void {
    if (!isStorageFull(err)) return;
    const now = this.#now();
    if (this.#since === null) {
      this.#since = now;
      this.#log?.error({ err }, 'database storage full: writes answer 503 storage_full until space is freed');
    }
    this.#last = now;
    this.#message = (err as Error)?.message ?? String(err);
  }

  /** A write went through: there is room again. */
  wrote(): void {
    if (this.#since === null) return;
    this.#log?.info({ full_ms: this.#now() - this.#since }, 'database storage writable again');
    this.#since = null;
    this.#message = null;
  }

  state(): StorageState {
    if (this.#since !== null && this.#now() - this.#last > this.#holdMs) {
      this.#since = null;
      this.#message = null;
    }
    return { full: this.#since !== null, since: this.#since, lastError: this.#message };
  }
}

/** Bytes free to an unprivileged writer on the file system holding `path`, or null if unknown. */
export async function freeBytes(path: string): Promise<number | null> {
  try {
    const s = await statfs(path);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/** What a new embedded database needs on disk (measured: 39 MiB after initdb, plus the migrations). */
export const PGLITE_FRESH_BYTES = 48 * 1024 * 1024;

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** Thrown when the embedded database cannot start for want of space, saying where and how much. */
export class NoRoomToStartError extends Error {
  constructor(message: string, opts: { cause?: unknown } = {}) {
    super(message, opts);
    this.name = 'NoRoomToStartError';
  }
}

/** Refuses a fresh PGlite directory on a file system with less room than a new database needs. */
export async function checkRoomForFresh(dir: string): Promise<void> {
  const free = await freeBytes(dir);
  if (free !== null && free < PGLITE_FRESH_BYTES) {
    throw new NoRoomToStartError(
      `not enough free space to create the embedded database in ${dir}: it needs about ${mib(PGLITE_FRESH_BYTES)}, ` +
        `the file system has ${mib(free)} available. Free space there or point DATA_DIR at a larger disk.`,
    );
  }
}

/** A storage-full failure while opening `dir`, restated in words (path, free space); else `err` itself. */
export async function explainOpenFailure(err: unknown, dir: string, fresh: boolean): Promise<unknown> {
  if (!isStorageFull(err) || err instanceof NoRoomToStartError) return err;
  const free = await freeBytes(dir);
  const room = free === null ? 'unknown free space' : `${mib(free)} available`;
  const need = fresh
    ? `a new embedded database needs about ${mib(PGLITE_FRESH_BYTES)}`
    : 'it needs room to write';
  return new NoRoomToStartError(
    `no space left on the device holding the embedded database ${dir} (${room}; ${need}). ` +
      'Free space there or point DATA_DIR at a larger disk.',
    { cause: err },
  );
}
