/**
 * `pnpm migrate status|up`: the database the server would open (DATABASE_URL, else PGlite under DATA_DIR,
 * read through the server's config), its migrations listed or applied. The server also migrates on start;
 * this is for looking before a deploy and for migrating ahead of it.
 */
import { join } from 'node:path';
import { loadConfig } from '../src/internal/config.ts';
import { runningServer } from '../src/storage/backup/control.ts';
import { openDatabase } from '../src/storage/database.ts';
import { migrate, migrationStatus } from '../src/storage/migrate.ts';

const command = process.argv[2] ?? 'status';
if (command !== 'status' && command !== 'up') {
  process.stderr.write('usage: pnpm migrate status|up\n');
  process.exit(2);
}
const config = loadConfig();
// PGlite runs inside the server: a second process must not open its directory while one runs.
const server = config.databaseUrl ? null : await runningServer(config.dataDir);
if (server) {
  process.stderr.write(
    `a server (pid ${server.pid}) is running on DATA_DIR ${server.dataDir}: it migrates on start; stop it to run this\n`,
  );
  process.exit(1);
}
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: join(config.dataDir, 'pglite'),
  migrate: false,
});
try {
  if (command === 'up') {
    const ran = await migrate(database.db as never);
    process.stdout.write(ran.length ? `applied ${ran.join(', ')}\n` : 'up to date\n');
  } else {
    for (const m of await migrationStatus(database.db as never)) {
      process.stdout.write(
        `${m.executedAt ? m.executedAt.toISOString() : 'pending'.padEnd(24)}  ${m.name}\n`,
      );
    }
  }
} finally {
  await database.close();
}
