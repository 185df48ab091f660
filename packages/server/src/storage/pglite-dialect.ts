import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { isStalePlan, statementName } from './prepared.ts';

/**
 * A Kysely dialect for PGlite (kysely-pglite targets older Kysely). PGlite is one connection, so the
 * driver hands it out to one holder at a time: a transaction owns it from BEGIN to COMMIT and every other
 * query waits its turn. Consequence for callers: inside a transaction use only the transaction handle (a
 * query through the root `db` would wait for the transaction that waits for it), and keep transactions
 * short (no supplier calls inside one).
 */
export class PGliteDialect implements Dialect {
  readonly #pg: PGlite;
  constructor(pg: PGlite) {
    this.#pg = pg;
  }
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.#pg);
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  readonly #pg: PGlite;
  readonly #statements: Statements;
  #tail: Promise<void> = Promise.resolve();
  readonly #releases = new Map<DatabaseConnection, () => void>();

  constructor(pg: PGlite) {
    this.#pg = pg;
    this.#statements = new Statements(pg);
  }

  async init(): Promise<void> {
    await this.#pg.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const turn = new Promise<void>((r) => {
      release = r;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => turn);
    await previous;
    // A fresh wrapper per acquisition keys its release function.
    const conn = new PGliteConnection(this.#pg, this.#statements);
    this.#releases.set(conn, release);
    return conn;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let q = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      q = 'start transaction';
      if (settings.isolationLevel) q += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) q += ` ${settings.accessMode}`;
    }
    await connection.executeQuery(CompiledQuery.raw(q));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await connection.executeQuery(compile(rawNode(`savepoint ${name}`), undefined as never));
  }
  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await connection.executeQuery(compile(rawNode(`rollback to ${name}`), undefined as never));
  }
  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await connection.executeQuery(compile(rawNode(`release ${name}`), undefined as never));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const release = this.#releases.get(connection);
    this.#releases.delete(connection);
    release?.();
  }

  async destroy(): Promise<void> {
    await this.#tail;
    if (!this.#pg.closed) await this.#pg.close();
  }
}

const rawNode = (s: string) => CompiledQuery.raw(s).query;

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The registered statements (`prepared.ts`) as named prepared statements of this PGlite database: Parse
 * and Describe once, then each run is one protocol call (Bind, Describe, Execute, Sync) where `query`
 * makes six (Parse, Describe, Bind, Describe, Execute, Sync), each parsing its text and planning again.
 * Runs only while the driver's connection is held, like every other query here.
 */
class Statements {
  readonly #pg: PGlite;
  /** Statement name -> the parameter types its Describe reported (to serialize values like `query`). */
  readonly #parsed = new Map<string, number[]>();
  /** Statement name -> how many times a migration made it stale (the live name carries the count). */
  readonly #generation = new Map<string, number>();

  constructor(pg: PGlite) {
    this.#pg = pg;
  }

  async run<R>(name: string, text: string, params: readonly unknown[]): Promise<QueryResult<R>> {
    try {
      return await this.#run<R>(name, text, params);
    } catch (err) {
      if (!isStalePlan(err)) throw err;
      // A migration changed the statement's result type: prepare it again under a fresh name, once.
      this.#generation.set(name, (this.#generation.get(name) ?? 0) + 1);
      return await this.#run<R>(name, text, params);
    }
  }

  async #run<R>(base: string, text: string, params: readonly unknown[]): Promise<QueryResult<R>> {
    const generation = this.#generation.get(base) ?? 0;
    const name = generation ? `${base}.${generation}` : base;
    const pg = this.#pg;
    let types = this.#parsed.get(name);
    if (!types) {
      const { messages } = await pg.execProtocol(
        concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
        { syncToFs: false },
      );
      types = parse.parseDescribeStatementResults(messages);
      this.#parsed.set(name, types);
    }
    const oids = types;
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const write = pg.serializers[oids[i] as number];
      return write ? write(v) : String(v);
    });
    const { messages } = await pg.execProtocol(
      concat([
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    const [res] = parse.parseResults(messages, pg.parsers, { rowMode: 'object' });
    return { rows: (res?.rows ?? []) as R[], numAffectedRows: BigInt(res?.affectedRows ?? 0) };
  }
}

class PGliteConnection implements DatabaseConnection {
  readonly #pg: PGlite;
  readonly #statements: Statements;
  constructor(pg: PGlite, statements: Statements) {
    this.#pg = pg;
    this.#statements = statements;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const name = statementName(compiled.sql);
    if (name) return this.#statements.run<R>(name, compiled.sql, compiled.parameters);
    if (compiled.parameters.length === 0) {
      // The simple protocol allows several statements (migrations); the last result is the answer.
      const all = await this.#pg.exec(compiled.sql, { rowMode: 'object' });
      const last = all[all.length - 1];
      return { rows: (last?.rows ?? []) as R[], numAffectedRows: BigInt(last?.affectedRows ?? 0) };
    }
    const res = await this.#pg.query<R>(compiled.sql, compiled.parameters as unknown[], {
      rowMode: 'object',
    });
    return { rows: res.rows, numAffectedRows: BigInt(res.affectedRows ?? 0) };
  }

  // biome-ignore lint/correctness/useYield: PGlite has no cursors; streaming is not supported.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not support streaming queries');
  }
}
