/**
 * The mail outbox (`DATA_DIR/outbox`, used without MAIL_URL) keeps one `.eml` file per message: files older
 * than `RETENTION_MAIL_OUTBOX_DAYS` are deleted (docs/retention.md). Each process purges its own DATA_DIR,
 * at most `limit` files a call.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

export async function purgeOutbox(dir: string, olderThan: Date, limit = 1000): Promise<number> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.eml'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    if (removed >= limit) break;
    const file = join(dir, name);
    const s = await stat(file).catch(() => undefined);
    if (!s || s.mtime >= olderThan) continue;
    await rm(file, { force: true });
    removed += 1;
  }
  return removed;
}
