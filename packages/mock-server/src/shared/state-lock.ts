/**
 * One process per state directory: two emulator sets writing one journal would interleave two different
 * histories. The lock is a file holding the owner's pid; one left by a process that died (kill -9) is
 * taken over.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the directory's lock or throws; returns the release. */
export function lockStateDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (alive(owner)) {
        throw new Error(
          `the sandbox supplier state in ${dir} is in use by process ${owner}: give each process its own DATA_DIR, or let them share one emulator set (SANDBOX_SUPPLIER_URLS)`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock the sandbox supplier state in ${dir}`);
}
