/**
 * `pnpm backup [FILE]`: a consistent backup of the database the server uses (DATABASE_URL, else the
 * embedded PGlite database under DATA_DIR) and of DATA_DIR's other files (the sandbox secrets among
 * them), as one gzip'd tar (storage/backup/archive.ts). Default FILE: travel-backup-<UTC time>.tar.gz in
 * the current directory. On PGlite, a running server is asked for the copy over its control socket (it
 * takes it between two transactions); with no server running, this process opens DATA_DIR itself,
 * holding the control socket meanwhile so that no server starts on it. On PostgreSQL it runs pg_dump.
 */

import { existsSync } from 'node:fs';
import { chmod, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/internal/config.ts';
import { backupEmbedded, dataDirFiles, lastMigration, pack, unpack } from '../src/storage/backup/archive.ts';
import { requestBackup, runningServer, serveControl } from '../src/storage/backup/control.ts';
import { pgDump } from '../src/storage/backup/restore.ts';
import { openDatabase } from '../src/storage/database.ts';

const arg = process.argv.slice(2).find((a) => a !== '--');
if (arg?.startsWith('-')) {
  process.stderr.write('usage: pnpm backup [FILE]\n');
  process.exit(2);
}
const config = loadConfig();
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z');
const file = resolve(process.env.INIT_CWD ?? process.cwd(), arg ?? `travel-backup-${stamp}.tar.gz`);

async function take(): Promise<{ archive: Uint8Array; how: string }> {
  if (config.databaseUrl) {
    const dump = await pgDump(config.databaseUrl);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, migrate: false });
    let migration: string | null;
    try {
      migration = await lastMigration(database.db);
    } finally {
      await database.close();
    }
    const { archive } = pack('postgres', dump, await dataDirFiles(config.dataDir), migration);
    return { archive, how: 'pg_dump of DATABASE_URL' };
  }
  const dir = join(config.dataDir, 'pglite');
  if (await runningServer(config.dataDir)) {
    return { archive: await requestBackup(config.dataDir), how: 'taken by the running server' };
  }
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new Error(`no embedded database in ${dir} to back up`);
  // No server runs: hold its lock while this process has the database open.
  const lock = await serveControl(config.dataDir, { backup: async () => undefined });
  try {
    const database = await openDatabase({ dataDir: dir, migrate: false });
    try {
      const { archive } = await backupEmbedded(database, config.dataDir);
      return { archive, how: 'no server running: DATA_DIR opened directly' };
    } finally {
      await database.close();
    }
  } finally {
    await lock.close();
  }
}

try {
  const t0 = Date.now();
  const { archive, how } = await take();
  const { manifest } = unpack(archive);
  // Written aside and renamed: a FILE that exists is always a whole backup.
  await writeFile(`${file}.partial`, archive, { mode: 0o600 });
  await chmod(`${file}.partial`, 0o600);
  await rename(`${file}.partial`, file);
  process.stdout.write(
    [
      `backup written: ${file} (${(archive.length / 1024 / 1024).toFixed(1)} MiB, ${Date.now() - t0} ms)`,
      `  database: ${manifest.kind} (${how}), last migration ${manifest.last_migration ?? 'none'}`,
      `  DATA_DIR files: ${manifest.files.length ? manifest.files.join(', ') : 'none'}`,
      '  It holds the data and, in sandbox mode, the JWT signing key: keep it as private as the database.',
      '',
    ].join('\n'),
  );
} catch (err) {
  process.stderr.write(`backup failed: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
