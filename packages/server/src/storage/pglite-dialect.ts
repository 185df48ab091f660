import { type PGlite, parse, protocol, types } from '@electric-sql/pglite';
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
import { afterRetry, isStalePlan, statementName } from './prepared.ts';

/** Told of every failed query and every write that went through (storage-faults.ts StorageMonitor). */
export interface QueryObserver {
  error(err: unknown): void;
  wrote(): void;
}

/**
 * A Kysely dialect for PGlite (kysely-pglite targets older Kysely). PGlite is one connection, so the
 * driver hands it out to one holder at a time: a transaction owns it from BEGIN to COMMIT and every other
 * query waits its turn. Consequence for callers: inside a transaction use only the transaction handle (a
 * query through the root `db` would wait for the transaction that waits for it), and keep transactions
 * short (no supplier calls inside one).
 */
export class PGliteDialect implements Dialect {
  readonly #pg: PGlite;
  readonly #observer: QueryObserver | undefined;
  constructor(pg: PGlite, observer?: QueryObserver) {
    this.#pg = pg;
    this.#observer = observer;
  }
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.#pg, this.#observer);
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
  readonly #observer: QueryObserver | undefined;

  constructor(pg: PGlite, observer?: QueryObserver) {
    this.#pg = pg;
    this.#statements = new Statements(pg);
    this.#observer = observer;
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
    const conn = new PGliteConnection(this.#pg, this.#statements, this.#observer);
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

/** A prepared statement as this database described it once: parameter types and result columns. */
interface Statement {
  name: string;
  params: number[];
  columns: { name: string; parse: (text: string) => unknown }[];
}

type Described = { name: string; fields?: { name: string; dataTypeID: number }[] };

const utf8 = new TextDecoder();
const D = 0x44; // DataRow
const C = 0x43; // CommandComplete
const E = 0x45; // ErrorResponse
const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/**
 * The registered statements (`prepared.ts`) as named prepared statements of this PGlite database: Parse
 * and Describe once (parameter types, result columns and their parsers), then each run is one protocol
 * call, Bind/Execute/Sync, whose answer is read here: DataRows decoded straight from the bytes with the
 * column parsers `query` would use. `query` makes six calls (Parse, Describe, Bind, Describe, Execute,
 * Sync), parses and plans the text each time and decodes every message through generic objects.
 * Runs only while the driver's connection is held, like every other query here.
 */
class Statements {
  readonly #pg: PGlite;
  readonly #described = new Map<string, Statement>();
  /** Statement name -> how many times a migration made it stale (the live name carries the count). */
  readonly #generation = new Map<string, number>();

  constructor(pg: PGlite) {
    this.#pg = pg;
  }

  async run<R>(name: string, text: string, params: readonly unknown[]): Promise<QueryResult<R>> {
    try {
      return await this.#run<R>(await this.#statement(name, text), params);
    } catch (err) {
      if (!isStalePlan(err)) throw err;
      // A migration changed the statement's result type: prepare it again under a fresh name, once.
      // Inside a transaction the refusal has aborted it and the retry fails too: the caller sees `err`.
      this.#generation.set(name, (this.#generation.get(name) ?? 0) + 1);
      try {
        return await this.#run<R>(await this.#statement(name, text), params);
      } catch (again) {
        throw afterRetry(err, again);
      }
    }
  }

  async #statement(base: string, text: string): Promise<Statement> {
    const generation = this.#generation.get(base) ?? 0;
    const name = generation ? `${base}.${generation}` : base;
    const known = this.#described.get(name);
    if (known) return known;
    const pg = this.#pg;
    const { messages } = await pg.execProtocol(
      concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const fields = (messages as Described[]).find((m) => m.name === 'rowDescription')?.fields ?? [];
    const st: Statement = {
      name,
      params: parse.parseDescribeStatementResults(messages),
      columns: fields.map((f) => ({
        name: f.name,
        parse: (x: string) => types.parseType(x, f.dataTypeID, pg.parsers),
      })),
    };
    this.#described.set(name, st);
    return st;
  }

  async #run<R>(st: Statement, params: readonly unknown[]): Promise<QueryResult<R>> {
    const pg = this.#pg;
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const write = pg.serializers[st.params[i] as number];
      return write ? write(v) : String(v);
    });
    const chunks: Uint8Array[] = [];
    await pg.execProtocolRawStream(
      concat([serialize.bind({ statement: st.name, values }), serialize.execute({}), serialize.sync()]),
      // syncToFs: our databases are a directory (NodeFS) or in memory, whose syncToFs does nothing.
      { syncToFs: false, onRawData: (bytes) => chunks.push(bytes.slice()) },
    );
    const buf = chunks.length === 1 ? (chunks[0] as Uint8Array) : concat(chunks);
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const rows: Record<string, unknown>[] = [];
    let affected = 0;
    for (let at = 0; at + 5 <= buf.length; at += 1 + view.getUint32(at + 1)) {
      const code = buf[at];
      if (code === D) {
        const row: Record<string, unknown> = {};
        const n = view.getInt16(at + 5);
        let p = at + 7;
        for (let i = 0; i < n; i++) {
          const len = view.getInt32(p);
          p += 4;
          const col = st.columns[i] as Statement['columns'][number];
          if (len < 0) row[col.name] = null;
          else {
            row[col.name] = col.parse(utf8.decode(buf.subarray(p, p + len)));
            p += len;
          }
        }
        rows.push(row);
      } else if (code === C) {
        const tag = utf8.decode(buf.subarray(at + 5, at + view.getUint32(at + 1))).split(' ');
        if (COUNTED.has(tag[0] as string)) affected += Number.parseInt(tag[tag.length - 1] as string, 10);
      } else if (code === E) {
        throw databaseError(buf);
      }
    }
    return { rows: rows as R[], numAffectedRows: BigInt(affected) };
  }
}

/** The ErrorResponse in `buf` as the DatabaseError (code, message, detail…) `query` would throw. */
function databaseError(buf: Uint8Array): Error {
  let found: Error | undefined;
  new protocol.Parser().parse(buf, (m) => {
    if (!found && (m as { name: string }).name === 'error') found = m as unknown as Error;
  });
  return found ?? new Error('PGlite: an error response that could not be read');
}

class PGliteConnection implements DatabaseConnection {
  readonly #pg: PGlite;
  readonly #statements: Statements;
  readonly #observer: QueryObserver | undefined;
  constructor(pg: PGlite, statements: Statements, observer: QueryObserver | undefined) {
    this.#pg = pg;
    this.#statements = statements;
    this.#observer = observer;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.#observer) return this.#execute<R>(compiled);
    let r: QueryResult<R>;
    try {
      r = await this.#execute<R>(compiled);
    } catch (err) {
      this.#observer.error(err);
      throw err;
    }
    // A row added took room (a delete or an update in place may not): the disk can be written again.
    // (An insert inside a `with` answers as a SELECT: the rows it returns count.)
    if (((r.numAffectedRows ?? 0n) > 0n || r.rows.length > 0) && /\binsert\s+into\b/i.test(compiled.sql))
      this.#observer.wrote();
    return r;
  }

  async #execute<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
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
