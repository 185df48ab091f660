import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, type DatabaseOptions, openDatabase } from '../../src/storage/database.ts';

/** Which backend storage suites run on: PGlite unless TEST_DATABASE_URL names a PostgreSQL server. */
export const testBackend = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

/** A test database; on PostgreSQL, with the server's URL and the file's schema (a runtime LISTENs there). */
export type TestDatabase = Database & { url?: string; schema?: string };

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a private schema on the server
 * named by TEST_DATABASE_URL (dropped on close), so files run in parallel without seeing each other.
 */
export async function testDatabase(extra: Pick<DatabaseOptions, 'onStatement'> = {}): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openDatabase({ ...extra });
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const database = await openDatabase({ databaseUrl: url, schema, poolSize: 30, ...extra });
  return {
    ...database,
    url,
    schema,
    async close() {
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}
