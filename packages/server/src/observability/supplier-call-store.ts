/**
 * Owner of `supplier_calls` (migration 0140): the supplier and payment calls made for a booking, for its
 * timeline. Rows are written after the call, outside the caller's transaction and without holding up its
 * answer (a failed write is logged, the booking is not failed for it), the calls of concurrent bookings
 * together in one insert; `settled()` lets a reader in the
 * same process wait for the writes still in flight, so a timeline read right after an operation shows its
 * calls. Retention: `purgeOlderThan` (the maintenance pass, SUPPLIER_CALL_RETENTION_DAYS).
 */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Logger } from '../internal/logger.ts';
import type { Db, KernelTables } from '../storage/schema.ts';
import type { CallSink, SupplierCallRecord } from './call-scope.ts';

interface SupplierCallsTable {
  id: Generated<string | number>;
  booking_id: ColumnType<string | number, number, never>;
  booking_kind: string;
  supplier: string;
  operation: string;
  outcome: string;
  http_status: number | null;
  attempts: number;
  duration_ms: number;
  started_at: ColumnType<Date, Date, never>;
  request_id: string | null;
  job_id: string | null;
  trace_id: string | null;
  request_excerpt: string | null;
  response_excerpt: string | null;
}

type CallsDb = Kysely<{ supplier_calls: SupplierCallsTable } & KernelTables>;

export interface StoredSupplierCall {
  id: number;
  supplier: string;
  operation: string;
  outcome: string;
  httpStatus: number | null;
  attempts: number;
  durationMs: number;
  startedAt: Date;
  requestId: string | null;
  jobId: string | null;
  traceId: string | null;
  requestExcerpt: string | null;
  responseExcerpt: string | null;
}

/** At most this many calls are read for one booking's timeline (the newest are kept). */
const TIMELINE_LIMIT = 500;
/** At most this many calls go in one insert. */
const BATCH_ROWS = 1000;

export class SupplierCallStore {
  readonly #db: CallsDb;
  readonly #log: Logger | undefined;
  /** Calls handed over and not yet sent, in the order they were handed over. */
  #queued: Array<{ bookingId: number; call: SupplierCallRecord }> = [];
  /** The drain in flight (one at a time): it inserts what is queued, then what queued meanwhile. */
  #writing: Promise<void> | undefined;

  constructor(db: Db, log?: Logger) {
    this.#db = db.withTables<{ supplier_calls: SupplierCallsTable }>();
    this.#log = log;
  }

  /**
   * The sink supplier calls are handed to once their booking is known (flight bookings). Calls handed
   * over while an insert is in flight wait for it and then go in one multi-row insert: under load that is
   * one statement (one commit) for many bookings' calls instead of one each, in the same order.
   */
  readonly sink: CallSink = (bookingId, calls) => {
    for (const call of calls) this.#queued.push({ bookingId, call });
    this.#writing ??= this.#drain();
  };

  async #drain(): Promise<void> {
    // Let the calls handed over in this turn of the event loop join the first insert.
    await Promise.resolve();
    while (this.#queued.length > 0) {
      // 14 parameters a row: far under PostgreSQL's 65,535 per statement.
      const batch = this.#queued.splice(0, BATCH_ROWS);
      await this.#insert(batch).catch((err: unknown) => {
        const bookings = [...new Set(batch.map((b) => b.bookingId))];
        this.#log?.warn(
          { err, booking_id: bookings[0], booking_ids: bookings, calls: batch.length },
          'supplier calls not recorded',
        );
      });
    }
    this.#writing = undefined;
  }

  async #insert(batch: Array<{ bookingId: number; call: SupplierCallRecord }>): Promise<void> {
    await this.#db
      .insertInto('supplier_calls')
      .values(
        batch.map(({ bookingId, call: c }) => ({
          booking_id: bookingId,
          booking_kind: 'flight',
          supplier: c.supplier,
          operation: c.operation,
          outcome: c.outcome,
          http_status: c.httpStatus,
          attempts: c.attempts,
          duration_ms: c.durationMs,
          started_at: c.startedAt,
          request_id: c.requestId,
          job_id: c.jobId,
          trace_id: c.traceId,
          request_excerpt: c.requestExcerpt,
          response_excerpt: c.responseExcerpt,
        })),
      )
      .execute();
  }

  /** Waits for the writes this process has in flight or queued. */
  async settled(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  /** A flight booking's calls, oldest first. */
  async forBooking(bookingId: number): Promise<StoredSupplierCall[]> {
    await this.settled();
    const rows = await this.#db
      .selectFrom('supplier_calls')
      .selectAll()
      .where('booking_kind', '=', 'flight')
      .where('booking_id', '=', bookingId as never)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(TIMELINE_LIMIT)
      .execute();
    return rows.reverse().map((r) => ({
      id: Number(r.id),
      supplier: r.supplier,
      operation: r.operation,
      outcome: r.outcome,
      httpStatus: r.http_status,
      attempts: r.attempts,
      durationMs: r.duration_ms,
      startedAt: new Date(r.started_at),
      requestId: r.request_id,
      jobId: r.job_id,
      traceId: r.trace_id,
      requestExcerpt: r.request_excerpt,
      responseExcerpt: r.response_excerpt,
    }));
  }

  /** Deletes calls started before `before`; returns how many. */
  async purgeOlderThan(before: Date): Promise<number> {
    const r = await this.#db
      .deleteFrom('supplier_calls')
      .where('started_at', '<', before as never)
      .executeTakeFirst();
    return Number(r.numDeletedRows ?? 0);
  }
}
