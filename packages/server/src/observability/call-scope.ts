/**
 * What a request or a job knows that a supplier call needs for its log line and its record: the request
 * or job id, the logger bound to it, and the booking it works on (bound by the booking store once the
 * booking is loaded or written ahead). Carried by one AsyncLocalStorage, entered by the kernel for
 * authenticated operations (public ones never reach a supplier) and by the job runner for each job.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from '../internal/logger.ts';

/** One finished supplier call, as it is logged and, once its booking is known, stored. */
export interface SupplierCallRecord {
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

/** Receives a scope's calls once their booking is known (the supplier call store). */
export type CallSink = (bookingId: number, calls: SupplierCallRecord[]) => void;

export class CallScope {
  bookingId: number | undefined = undefined;
  /** Calls made before the booking was known (createPnr places the order before it has an id). */
  pending: SupplierCallRecord[] | undefined = undefined;
  sink: CallSink | undefined = undefined;
  readonly requestId: string | null;
  readonly jobId: string | null;
  readonly #logSource: { readonly log: Logger } | undefined;

  /** `logSource.log` is read when a call logs (a request's logger is made on first read). */
  constructor(
    ids: { requestId?: string | null; jobId?: string | null },
    logSource?: { readonly log: Logger },
  ) {
    this.requestId = ids.requestId ?? null;
    this.jobId = ids.jobId ?? null;
    this.#logSource = logSource;
  }

  get log(): Logger | undefined {
    return this.#logSource?.log;
  }

  /** A finished call: to the sink when the booking is known, else kept until it is. */
  add(call: SupplierCallRecord, sink: CallSink | undefined): void {
    if (sink) this.sink = sink;
    if (this.bookingId !== undefined && this.sink) this.sink(this.bookingId, [call]);
    else {
      this.pending ??= [];
      this.pending.push(call);
    }
  }

  bind(bookingId: number): void {
    if (this.bookingId !== undefined) return;
    this.bookingId = bookingId;
    const held = this.pending;
    this.pending = undefined;
    if (held && this.sink) this.sink(bookingId, held);
  }
}

const storage = new AsyncLocalStorage<CallScope>();

export const currentScope = (): CallScope | undefined => storage.getStore();

export function runInScope<R>(scope: CallScope, fn: () => R): R {
  return storage.run(scope, fn);
}

/**
 * The booking the current request or job works on: its supplier calls (earlier ones included) are
 * recorded under it. The first booking bound wins (an operation works on one booking).
 */
export function bindBooking(bookingId: number): void {
  storage.getStore()?.bind(bookingId);
}
