/**
 * The error mapping of a full disk, unit level: which driver errors are `storage_full` (PostgreSQL's
 * 53100, PGlite's "could not extend file … No space left on device" and the Emscripten ErrnoError 51,
 * Node's ENOSPC), which other class-53 errors are `database_unavailable`, the 503 answer with
 * Retry-After, and the state `/health/` reads.
 */
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/kernel/errors.ts';
import { knownError } from '../../src/kernel/middleware/error-handler.ts';
import { isConnectionError } from '../../src/storage/connection-errors.ts';
import {
  explainOpenFailure,
  isStorageFull,
  NoRoomToStartError,
  StorageMonitor,
} from '../../src/storage/storage-faults.ts';

const pgError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, severity: 'ERROR' });
const diskFull = pgError('53100', 'could not extend file "base/5/16384": No space left on device');
const errno51 = Object.assign(new Error('FS error'), { name: 'ErrnoError', errno: 51 });

describe('storage-full errors', () => {
  it('recognises 53100, the PGlite/Emscripten and Node forms, and a wrapped cause', () => {
    expect(isStorageFull(diskFull)).toBe(true);
    expect(isStorageFull(errno51)).toBe(true);
    expect(isStorageFull(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toBe(true);
    expect(
      isStorageFull(new Error('could not write to file "pg_wal/xlogtemp.1": No space left on device')),
    ).toBe(true);
    expect(isStorageFull(new Error('migration failed', { cause: diskFull }))).toBe(true);
  });

  it('leaves other errors alone: another errno, other class-53 states, a constraint', () => {
    expect(isStorageFull(Object.assign(new Error('FS error'), { name: 'ErrnoError', errno: 44 }))).toBe(
      false,
    );
    expect(isStorageFull(pgError('53300', 'sorry, too many clients already'))).toBe(false);
    expect(isStorageFull(pgError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isStorageFull(undefined)).toBe(false);
  });

  it('other class-53 states (out of memory, too many connections) are database_unavailable, 53100 is not', () => {
    expect(isConnectionError(pgError('53300', 'sorry, too many clients already'))).toBe(true);
    expect(isConnectionError(pgError('53200', 'out of memory'))).toBe(true);
    expect(isConnectionError(diskFull)).toBe(false);
    expect((knownError(pgError('53300', 'too many clients')) as HttpError).code).toBe('database_unavailable');
  });

  it('answers 503 storage_full with Retry-After, for the PostgreSQL and the PGlite form', () => {
    for (const err of [diskFull, errno51]) {
      const e = knownError(err);
      expect(e).toBeInstanceOf(HttpError);
      expect((e as HttpError).status).toBe(503);
      expect((e as HttpError).code).toBe('storage_full');
      expect(Number((e as HttpError).headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('a start-up failure for want of space is restated with the path and the room available', async () => {
    const explained = await explainOpenFailure(errno51, '/nonexistent/data/pglite', true);
    expect(explained).toBeInstanceOf(NoRoomToStartError);
    expect((explained as Error).message).toMatch(
      /no space left on the device holding the embedded database \/nonexistent\/data\/pglite \(unknown free space; a new embedded database needs about \d+\.\d MiB\)/,
    );
    const other = new Error('permission denied');
    expect(await explainOpenFailure(other, '/x', true)).toBe(other);
  });
});

describe('StorageMonitor (what /health/ reads)', () => {
  it('is full from a storage error until a row is written, or the hold passes without another', () => {
    let now = 1_000;
    const m = new StorageMonitor({ holdMs: 60_000, now: () => now });
    m.error(pgError('23505', 'duplicate'));
    expect(m.state().full).toBe(false);
    m.error(diskFull);
    expect(m.state()).toMatchObject({ full: true, since: 1_000, lastError: diskFull.message });
    m.wrote();
    expect(m.state().full).toBe(false);
    m.error(errno51);
    now += 59_000;
    expect(m.state().full).toBe(true);
    now += 2_000;
    expect(m.state()).toEqual({ full: false, since: null, lastError: null });
  });
});
