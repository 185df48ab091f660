/**
 * Hot reads as named prepared statements. `prepared(name, build)` compiles the Kysely query once (on
 * first use) and runs it with new parameters through `db.executeQuery`: no query building or compiling
 * per call. Its SQL text is registered under `name`, and the drivers recognise that text: the pg client
 * wrapper (`database.ts`) sends `{ name, text, values }`, which the server parses and plans once per
 * connection; the PGlite dialect parses it once per database and then sends only Bind/Execute/Sync.
 *
 * Safety: the set of names is fixed by the code (a handful of statements), so per-connection state stays
 * bounded. A statement lives on its connection: a new connection (after `pg_ctl restart`, a terminated
 * backend, a pool reconnect) parses it again, because pg tracks parsed names per connection. A migration
 * that changes the statement's result type makes the server refuse the old plan (SQLSTATE 0A000), and a
 * `DEALLOCATE ALL` drops it (26000); both drivers then prepare it again once and retry (`isStalePlan`).
 * Name the columns (no `select *`) so that an added column does not even do that.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './schema.ts';

const byText = new Map<string, string>();
const byName = new Map<string, string>();

/** The statement name registered for this SQL text, if it is one of the prepared statements. */
export const statementName = (text: string): string | undefined => byText.get(text);

/**
 * Whether the statement must be prepared again: "cached plan must not change result type" (a migration
 * changed the table under it), or the session no longer has it (`DEALLOCATE ALL`, `DISCARD ALL`: 26000).
 */
export const isStalePlan = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '26000' || (code === '0A000' && /cached plan/i.test(String((err as Error).message)));
};

/**
 * The error to surface when the retry after a stale plan failed too: the original one when the retry
 * only met the transaction that the refusal aborted (25P02), otherwise the retry's own.
 */
export const afterRetry = (original: unknown, retry: unknown): unknown =>
  (retry as { code?: unknown } | null)?.code === '25P02' ? original : retry;

class Param {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
}

/** A placeholder for the `index`-th argument of a prepared statement, typed as the column's value. */
export const param = <T>(index: number): T => new Param(index) as unknown as T;

function register(name: string, text: string): void {
  const known = byName.get(name);
  if (known !== undefined && known !== text) throw new Error(`prepared statement ${name}: two texts`);
  const other = byText.get(text);
  if (other !== undefined && other !== name)
    throw new Error(`prepared statements ${other} and ${name}: one text`);
  byName.set(name, text);
  byText.set(text, name);
}

/**
 * A query compiled once and executed by name. `build` receives the database only for its compiler; it
 * marks each argument with `param(i)`; any other value stays a constant of the statement.
 */
export function prepared<R>(
  name: string,
  build: (db: Db) => Compilable<R>,
): (db: Db, ...args: unknown[]) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined;
  let slots: (number | undefined)[] = [];
  return async (db, ...args) => {
    if (!compiled) {
      const c = build(db).compile();
      slots = c.parameters.map((p) => (p instanceof Param ? p.index : undefined));
      register(name, c.sql);
      compiled = c;
    }
    const base = compiled;
    const parameters = base.parameters.map((p, i) => {
      const slot = slots[i];
      return slot === undefined ? p : args[slot];
    });
    const r = await db.executeQuery<R>({ ...base, parameters });
    return r.rows;
  };
}

/** Texts one `executeNamed` name may take (its variants, e.g. which columns an update sets). */
const VARIANTS_MAX = 8;
const variants = new Map<string, number>();

/**
 * A statement built per call (a write whose parameters change, not its shape) run as a prepared statement:
 * its SQL text is registered as `<name>.v<n>` the first time it is seen, so the server parses and plans
 * it once per connection instead of on every call (the settlement and write-ahead of createPnr are
 * statements of several CTEs, whose parse and plan cost more than running them). At most
 * `VARIANTS_MAX` texts per name are registered (the names stay a fixed, bounded set); any further text
 * runs as an unnamed statement, as before.
 */
export async function executeNamed<R>(
  db: { executeQuery<T>(q: CompiledQuery<T>): Promise<{ rows: T[] }> },
  name: string,
  query: Compilable<R>,
): Promise<R[]> {
  const compiled = query.compile();
  if (!byText.has(compiled.sql)) {
    const n = variants.get(name) ?? 0;
    if (n < VARIANTS_MAX) {
      variants.set(name, n + 1);
      register(`${name}.v${n}`, compiled.sql);
    }
  }
  return (await db.executeQuery(compiled)).rows;
}

/** Keys one coalesced statement carries at most; more asked in one turn go as further statements. */
const BATCH_MAX = 256;

/** A Postgres array literal of `keys` (numbers as they are, anything else quoted and escaped). */
export function arrayLiteral(keys: readonly (string | number)[]): string {
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string | number;
    if (i > 0) out += ',';
    out += typeof k === 'number' ? String(k) : `"${k.replace(/["\\]/g, '\\$&')}"`;
  }
  return `${out}}`;
}

interface Batch<K, R> {
  waiting: Map<K, { resolve: (row: R | undefined) => void; reject: (err: unknown) => void }[]>;
}

/**
 * A lookup by one key that coalesces concurrent callers (DataLoader-style): the keys asked for on one
 * database handle during one turn of the event loop (until its check phase, `setImmediate`) go as ONE
 * prepared statement whose argument `$1` is the array of distinct keys (`build` writes `= any($1)`), and
 * each caller gets only the row `keyOf` names with its own key (undefined when there is none). Under load
 * that is one round trip, one statement for the database to run and one answer to parse for many
 * requests instead of one each.
 *
 * What stays per caller: everything after the row (its owner's tenant check, its view). What is never
 * shared: a statement sent before the caller asked. A batch is only ever joined while it has not been
 * sent, so every caller's read starts after it asked, and sees every write committed before it asked
 * (as its own statement would). A failed statement fails each of its callers with that error. Inside a
 * transaction the lookup runs alone, on the transaction's connection, as a one-key statement.
 */
export function coalesced<K extends string | number, R>(
  name: string,
  build: (db: Db) => Compilable<R>,
  keyOf: (row: R) => K,
): (db: Db, key: K) => Promise<R | undefined> {
  const run = prepared(name, build);
  const open = new WeakMap<Db, Batch<K, R>>();
  const send = async (db: Db, batch: Batch<K, R>) => {
    const keys = [...batch.waiting.keys()];
    try {
      const rows = await run(db, arrayLiteral(keys));
      const byKey = new Map<K, R>();
      for (const row of rows) byKey.set(keyOf(row), row);
      for (const [k, ws] of batch.waiting) for (const w of ws) w.resolve(byKey.get(k));
    } catch (err) {
      for (const ws of batch.waiting.values()) for (const w of ws) w.reject(err);
    }
  };
  return (db, key) => {
    if (db.isTransaction) return run(db, arrayLiteral([key])).then((rows) => rows[0]);
    return new Promise<R | undefined>((resolve, reject) => {
      let batch = open.get(db);
      if (!batch) {
        const b: Batch<K, R> = { waiting: new Map() };
        batch = b;
        open.set(db, b);
        setImmediate(() => {
          if (open.get(db) === b) open.delete(db);
          void send(db, b);
        });
      }
      const ws = batch.waiting.get(key);
      if (ws) ws.push({ resolve, reject });
      else {
        batch.waiting.set(key, [{ resolve, reject }]);
        // Full: later callers of this turn start the next statement.
        if (batch.waiting.size >= BATCH_MAX) open.delete(db);
      }
    });
  };
}
