/**
 * Every supplier and payment call, whatever the adapter: the registry hands out each adapter behind
 * `observeSupplier`, so each port call (`search`, `createOrder`, `authorize`, `voidTickets`…) is
 *   - a client span `<supplier> <operation>` when tracing is on, whose `traceparent` goes out with each
 *     HTTP request the call makes (outbound-http.ts);
 *   - one log line: at `info` when it succeeded, `warn` when it failed, with supplier, operation,
 *     outcome, HTTP status, ms, attempts, the request or job id, the booking id when already known and
 *     a bounded, redacted excerpt of the arguments and the answer (redact.ts);
 *   - counted and timed in the per-supplier metrics;
 *   - handed to the sink (the supplier call store) once the booking it serves is known (call-scope.ts).
 */
import type { Logger } from '../internal/logger.ts';
import { SupplierError } from '../suppliers/ports/errors.ts';
import { type CallSink, currentScope, type SupplierCallRecord } from './call-scope.ts';
import { CallTraffic, runCall, watchOutboundHttp } from './outbound-http.ts';
import { excerpt } from './redact.ts';
import type { SupplierMetrics } from './supplier-metrics.ts';
import { tracer } from './tracing.ts';

export interface SupplierObserverDeps {
  metrics?: SupplierMetrics;
  sink?: CallSink;
  /** For calls made outside any request or job scope. */
  log?: Logger;
  /** The service's clock, for when a call started (durations are measured on the monotonic clock). */
  now?: () => Date;
}

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof (v as { then?: unknown } | null)?.then === 'function';

function outcomeOf(err: unknown): string {
  if (err instanceof SupplierError) return err.kind;
  if ((err as Error)?.name === 'AbortError') return 'aborted';
  return 'error';
}

/** What a failure shows: our kind and the supplier's code and words (redacted, bounded like the rest). */
function failureOf(err: unknown): unknown {
  if (err instanceof SupplierError)
    return { kind: err.kind, supplier_code: err.supplierCode, message: err.message, details: err.details };
  return { error: (err as Error)?.name ?? 'Error', message: (err as Error)?.message };
}

/** The call's arguments without the trailing call options' signal. */
const argsOf = (args: unknown[]): unknown => (args.length === 1 ? args[0] : args);

function finish(
  d: SupplierObserverDeps,
  supplier: string,
  operation: string,
  traffic: CallTraffic,
  started: { at: Date; t0: number },
  outcome: string,
  args: unknown[],
  answer: unknown,
  traceId: string | null,
): void {
  const ms = performance.now() - started.t0;
  d.metrics?.observe(supplier, operation, outcome, ms / 1000);
  const scope = currentScope();
  const record: SupplierCallRecord = {
    supplier,
    operation,
    outcome,
    httpStatus: traffic.status,
    attempts: Math.max(1, traffic.attempts),
    durationMs: Math.round(ms),
    startedAt: started.at,
    requestId: scope?.requestId ?? null,
    jobId: scope?.jobId ?? null,
    traceId,
    requestExcerpt: excerpt(argsOf(args)),
    responseExcerpt: excerpt(answer),
  };
  const log = scope?.log ?? d.log;
  if (log) {
    const line = {
      supplier,
      operation,
      outcome,
      status: record.httpStatus,
      ms: Math.round(ms * 10) / 10,
      attempts: record.attempts,
      booking_id: scope?.bookingId ?? null,
      ...(record.jobId ? { job_id: record.jobId } : {}),
      ...(traceId ? { trace_id: traceId } : {}),
      request: record.requestExcerpt,
      response: record.responseExcerpt,
    };
    if (outcome === 'ok') log.info(line, 'supplier call');
    else log.warn(line, 'supplier call failed');
  }
  if (scope) scope.add(record, d.sink);
}

function observed(
  d: SupplierObserverDeps,
  supplier: string,
  operation: string,
  fn: (...a: unknown[]) => unknown,
  target: object,
): (...a: unknown[]) => unknown {
  return function observedCall(...args: unknown[]) {
    const t = tracer;
    const span = t?.span(`${supplier} ${operation}`, 'client', {
      'travel.supplier': supplier,
      'travel.supplier.operation': operation,
      'peer.service': supplier,
    });
    const traffic = new CallTraffic(span?.traceparent);
    const started = { at: d.now ? d.now() : new Date(), t0: performance.now() };
    const call = () => fn.apply(target, args);
    let result: unknown;
    try {
      result = runCall(traffic, () => (span ? span.run(call) : call()));
    } catch (err) {
      span?.fail(err);
      span?.end();
      throw err;
    }
    if (!isThenable(result)) {
      span?.end();
      return result;
    }
    const traceId = span?.traceId ?? null;
    const done = (outcome: string, answer: unknown) => {
      if (span) {
        span.set('travel.supplier.outcome', outcome);
        span.set('travel.supplier.retries', Math.max(0, traffic.attempts - 1));
        if (traffic.status !== null) span.set('http.response.status_code', traffic.status);
      }
      finish(d, supplier, operation, traffic, started, outcome, args, answer, traceId);
    };
    return Promise.resolve(result).then(
      (value) => {
        done('ok', value);
        span?.end();
        return value;
      },
      (err: unknown) => {
        const outcome = outcomeOf(err);
        done(outcome, failureOf(err));
        span?.fail(err, outcome);
        span?.end();
        throw err;
      },
    );
  };
}

/**
 * The adapter with every method observed; other properties (name, capabilities) read through. The
 * wrapped methods are made once per method and kept.
 */
export function observeSupplier<T extends object>(supplier: string, adapter: T, d: SupplierObserverDeps): T {
  watchOutboundHttp();
  const made = new Map<PropertyKey, unknown>();
  return new Proxy(adapter, {
    get(target, prop) {
      const v = Reflect.get(target, prop);
      if (typeof v !== 'function' || prop === 'constructor' || typeof prop === 'symbol') return v;
      let w = made.get(prop);
      if (!w) {
        w = observed(d, supplier, prop, v as (...a: unknown[]) => unknown, target);
        made.set(prop, w);
      }
      return w;
    },
  });
}
