import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { migrate } from './migrate.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import type { Db } from './schema.ts';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Round-trip latency of a trivial query, for health checks. */
  ping(): Promise<number>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… uses a PostgreSQL server; otherwise embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string | undefined;
  /** PostgreSQL schema to live in (created if missing): lets parallel test files share one server. */
  schema?: string | undefined;
  poolSize?: number;
  migrate?: boolean;
}

const INT8 = 20;
const NUMERIC = 1700;

export async function openDatabase(opts: DatabaseOptions = {}): Promise<Database> {
  let db: Db;
  let kind: Database['kind'];
  if (opts.databaseUrl) {
    kind = 'postgres';
    if (opts.schema) {
      // Created on a separate short-lived client before the pool pins search_path to it.
      const c = new pg.Client({ connectionString: opts.databaseUrl });
      await c.connect();
      try {
        await c.query(`create schema if not exists "${opts.schema.replace(/"/g, '')}"`);
      } finally {
        await c.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
      types: {
        getTypeParser: (oid: number, format?: string) =>
          oid === INT8 || oid === NUMERIC
            ? (v: string) => Number(v)
            : pg.types.getTypeParser(oid, format as 'text'),
      } as pg.CustomTypesConfig,
    });
    db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  } else {
    kind = 'pglite';
    if (opts.dataDir) await mkdir(opts.dataDir, { recursive: true });
    const lite = await PGlite.create(opts.dataDir, {
      parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v) },
    });
    db = new Kysely({ dialect: new PGliteDialect(lite) });
  }
  if (opts.migrate !== false) await migrate(db as never);
  return {
    db,
    kind,
    async ping() {
      const t0 = performance.now();
      await sql`select 1`.execute(db);
      return performance.now() - t0;
    },
    close: () => db.destroy(),
  };
}
