/**
 * Database transactions as spans while tracing is on: the dialect's driver is wrapped so that each
 * transaction, from BEGIN to COMMIT or ROLLBACK, is a span `db transaction` under whatever was active
 * when it began (the request, the job). Off, each of the three calls costs one null check.
 */
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely';
import { type SpanHandle, tracer } from '../observability/tracing.ts';

function tracedDriver(d: Driver, system: string): Driver {
  const open = new WeakMap<DatabaseConnection, SpanHandle>();
  const end = (c: DatabaseConnection, outcome: 'commit' | 'rollback', err?: unknown) => {
    const span = open.get(c);
    if (!span) return;
    open.delete(c);
    span.set('db.transaction.outcome', outcome);
    if (err !== undefined) span.fail(err);
    span.end();
  };
  const wrapped: Driver = {
    init: (o) => d.init(o),
    acquireConnection: (o) => d.acquireConnection(o),
    releaseConnection: (c, o) => d.releaseConnection(c, o),
    destroy: (o) => d.destroy(o),
    async beginTransaction(c: DatabaseConnection, settings: TransactionSettings) {
      const t = tracer;
      if (t !== null) open.set(c, t.span('db transaction', 'client', { 'db.system.name': system }));
      await d.beginTransaction(c, settings);
    },
    async commitTransaction(c: DatabaseConnection) {
      if (!open.has(c)) return d.commitTransaction(c);
      try {
        await d.commitTransaction(c);
        end(c, 'commit');
      } catch (err) {
        end(c, 'commit', err);
        throw err;
      }
    },
    async rollbackTransaction(c: DatabaseConnection) {
      try {
        await d.rollbackTransaction(c);
      } finally {
        end(c, 'rollback');
      }
    },
  };
  if (d.savepoint) wrapped.savepoint = d.savepoint.bind(d);
  if (d.rollbackToSavepoint) wrapped.rollbackToSavepoint = d.rollbackToSavepoint.bind(d);
  if (d.releaseSavepoint) wrapped.releaseSavepoint = d.releaseSavepoint.bind(d);
  return wrapped;
}

/** The dialect with its transactions traced (`system`: the `db.system.name` attribute). */
export function tracedDialect(dialect: Dialect, system: string): Dialect {
  return {
    createDriver: () => tracedDriver(dialect.createDriver(), system),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
