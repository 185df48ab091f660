/**
 * `pnpm restore FILE`: puts a backup made by `pnpm backup` back. A PGlite backup goes into DATA_DIR
 * (refused while a server runs on it; the previous DATA_DIR is kept aside, never half replaced); a
 * PostgreSQL backup goes into the new, empty database DATABASE_URL names (pg_restore, all or nothing),
 * and its DATA_DIR files, if any, into DATA_DIR the same way. Then start the server on it.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { loadConfig } from '../src/internal/config.ts';
import { unpack } from '../src/storage/backup/archive.ts';
import { runningServer } from '../src/storage/backup/control.ts';
import { pgRestore, restoreDataDir } from '../src/storage/backup/restore.ts';

const arg = process.argv.slice(2).find((a) => a !== '--');
if (!arg || arg.startsWith('-')) {
  process.stderr.write('usage: pnpm restore FILE\n');
  process.exit(2);
}
const config = loadConfig();
const file = resolve(process.env.INIT_CWD ?? process.cwd(), arg);

async function restore(): Promise<string[]> {
  const b = unpack(new Uint8Array(await readFile(file)));
  const lines = [`restoring ${file}: ${b.manifest.kind} backup of ${b.manifest.created_at}`];
  const server = await runningServer(config.dataDir);
  if (server) {
    throw new Error(
      `a server (pid ${server.pid}) is running on DATA_DIR ${server.dataDir}: stop it first; nothing was changed`,
    );
  }
  if (b.manifest.kind === 'postgres') {
    if (!config.databaseUrl)
      throw new Error('this is a PostgreSQL backup: set DATABASE_URL to a new, empty database');
    const migration = await pgRestore(config.databaseUrl, b.database);
    lines.push(`  database: restored into DATABASE_URL, last migration ${migration ?? 'none'}`);
    if (b.files.length) {
      const r = await restoreDataDir(config.dataDir, b);
      lines.push(`  DATA_DIR files: ${b.files.map((f) => f.name).join(', ')} into ${r.dataDir}`);
      if (r.previous) lines.push(`  the previous DATA_DIR is kept at ${r.previous}`);
    }
  } else {
    if (config.databaseUrl)
      throw new Error(
        'this is an embedded-database (PGlite) backup: unset DATABASE_URL to restore it into DATA_DIR',
      );
    const r = await restoreDataDir(config.dataDir, b);
    lines.push(`  database: embedded, in ${r.dataDir}, last migration ${r.lastMigration ?? 'none'}`);
    lines.push(`  DATA_DIR files: ${b.files.length ? b.files.map((f) => f.name).join(', ') : 'none'}`);
    if (r.previous) lines.push(`  the previous DATA_DIR is kept at ${r.previous} (delete it once satisfied)`);
  }
  lines.push(
    '  start the server on it (pnpm start); it migrates forward if the backup is from an older release',
  );
  return lines;
}

try {
  process.stdout.write(`${(await restore()).join('\n')}\n`);
} catch (err) {
  process.stderr.write(`restore failed: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
