/**
 * A lock file next to the config file, held while one process rotates the refresh token. Created with
 * O_EXCL (`wx`), holding the owner's pid; a lock whose owner is gone (or older than `staleMs`, a crashed
 * or hung holder) is taken over. Waiting is a short poll: this guards a single HTTP round trip.
 */
import { open, readFile, stat, unlink } from 'node:fs/promises';

export interface FileLockOptions {
  /** Give up waiting after this long (default 20 s). */
  timeoutMs?: number;
  /** A lock this old is abandoned whoever holds it (default 30 s). */
  staleMs?: number;
}

export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const staleMs = options.staleMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await isStale(path, staleMs)) {
        await unlink(path).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for the lock ${path}`);
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 30));
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(path).catch(() => undefined);
  }
}

async function isStale(path: string, staleMs: number): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return false; // released meanwhile: just try again
  if (Date.now() - info.mtimeMs > staleMs) return true;
  const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim());
  // Written but not yet filled in by its owner: give it time.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
