/**
 * OpenTelemetry, off until configured by the standard variables: nothing of the SDK is imported while
 * off, and every hook below is one null check. On (`startTracing`), `otel-sdk.ts` is imported and sets
 * `tracer`: spans for requests (kernel), supplier and payment calls (supplier-observer), job runs (job
 * runner) and database transactions (storage), W3C `traceparent` read inbound and sent to suppliers, and
 * the trace id in the request's log lines.
 *
 * On when `OTEL_TRACES_EXPORTER` names `otlp` or `console`, or, with it unset, when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set; `OTEL_SDK_DISABLED=true`
 * or `OTEL_TRACES_EXPORTER=none` keeps it off.
 */

/** A started span, as our hooks use it. */
export interface SpanHandle {
  readonly traceId: string;
  /** The W3C `traceparent` naming this span as parent. */
  readonly traceparent: string;
  set(key: string, value: string | number | boolean): void;
  /** Marks the span failed (an exception event and an error status). */
  fail(err: unknown, message?: string): void;
  /** Runs `fn` with this span as the active one (children and outbound calls hang under it). */
  run<R>(fn: () => R): R;
  end(): void;
}

export interface Tracer {
  /** A server span for one request, child of the inbound `traceparent` when it is valid. */
  request(method: string, path: string, traceparent: string | null, tracestate: string | null): SpanHandle;
  /** An internal or client span under the active one. */
  span(
    name: string,
    kind: 'internal' | 'client',
    attributes?: Record<string, string | number | boolean>,
  ): SpanHandle;
  /** The active span's trace id, if any. */
  activeTraceId(): string | undefined;
  /** Exports every ended span now. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Set while tracing is on; null otherwise. */
export let tracer: Tracer | null = null;

type Env = Record<string, string | undefined>;

/** Whether the environment turns tracing on (see the module comment). */
export function tracingWanted(env: Env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (exporters.length > 0) return exporters.some((e) => e === 'otlp' || e === 'console');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Starts tracing when the environment asks for it (else does nothing and returns null). Call once,
 * before the server handles requests; `stopTracing` flushes and ends it.
 */
export async function startTracing(
  env: Env,
  o: { serviceVersion: string; log?: { info(obj: object, msg?: string): void } },
): Promise<Tracer | null> {
  if (tracer || !tracingWanted(env)) return tracer;
  const { createTracer } = await import('./otel-sdk.ts');
  tracer = createTracer(env, o.serviceVersion);
  o.log?.info(
    { exporter: env.OTEL_TRACES_EXPORTER || 'otlp', service: env.OTEL_SERVICE_NAME || 'travel-server' },
    'tracing on',
  );
  return tracer;
}

/** Flushes the spans still buffered and turns tracing off. */
export async function stopTracing(): Promise<void> {
  const t = tracer;
  tracer = null;
  await t?.shutdown();
}
