/**
 * The OpenTelemetry SDK, imported only when tracing is on (tracing.ts). Spans go through a batch
 * processor to the OTLP/HTTP protobuf exporter (`OTEL_EXPORTER_OTLP_*`: endpoint, headers, timeout,
 * compression, certificates, read by the exporter) and/or the console. Sampling follows
 * `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` (default parentbased_always_on); the resource takes
 * `OTEL_SERVICE_NAME` (default travel-server) and `OTEL_RESOURCE_ATTRIBUTES`.
 */
import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type Sampler,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { SpanHandle, Tracer } from './tracing.ts';

type Env = Record<string, string | undefined>;

function sampler(env: Env): Sampler {
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const ratio = Number.isFinite(arg) ? Math.min(1, Math.max(0, arg)) : 1;
  switch ((env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim().toLowerCase()) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** The traces endpoint: the signal's own variable as is, else the base one plus `/v1/traces`. */
function tracesUrl(env: Env): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** `OTEL_BSP_*` (the SDK 3 line no longer reads them itself). */
function batchOptions(env: Env) {
  const n = (name: string): number | undefined => {
    const v = Number(env[name]);
    return env[name] && Number.isFinite(v) && v >= 0 ? v : undefined;
  };
  const o: {
    scheduledDelayMillis?: number;
    exportTimeoutMillis?: number;
    maxQueueSize?: number;
    maxExportBatchSize?: number;
  } = {};
  const delay = n('OTEL_BSP_SCHEDULE_DELAY');
  if (delay !== undefined) o.scheduledDelayMillis = delay;
  const timeout = n('OTEL_BSP_EXPORT_TIMEOUT');
  if (timeout !== undefined) o.exportTimeoutMillis = timeout;
  const queue = n('OTEL_BSP_MAX_QUEUE_SIZE');
  if (queue !== undefined) o.maxQueueSize = queue;
  const batch = n('OTEL_BSP_MAX_EXPORT_BATCH_SIZE');
  if (batch !== undefined) o.maxExportBatchSize = batch;
  return o;
}

function processors(env: Env): SpanProcessor[] {
  const names = (env.OTEL_TRACES_EXPORTER || 'otlp').split(',').map((s) => s.trim().toLowerCase());
  const out: SpanProcessor[] = [];
  if (names.includes('otlp')) {
    const url = tracesUrl(env);
    out.push(
      new BatchSpanProcessor({ ...batchOptions(env), exporter: new OTLPTraceExporter(url ? { url } : {}) }),
    );
  }
  if (names.includes('console'))
    out.push(new BatchSpanProcessor({ ...batchOptions(env), exporter: new ConsoleSpanExporter() }));
  return out;
}

/** Resource attributes from `OTEL_RESOURCE_ATTRIBUTES` (`k=v,k2=v2`, values percent-decoded). */
function resourceAttributes(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (env.OTEL_RESOURCE_ATTRIBUTES ?? '').split(',')) {
    const i = pair.indexOf('=');
    if (i <= 0) continue;
    try {
      out[pair.slice(0, i).trim()] = decodeURIComponent(pair.slice(i + 1).trim());
    } catch {
      // A malformed pair is left out, as the specification asks.
    }
  }
  return out;
}

class Handle implements SpanHandle {
  readonly #span: Span;
  readonly #ctx: Context;
  constructor(span: Span, parent: Context) {
    this.#span = span;
    this.#ctx = trace.setSpan(parent, span);
  }
  get traceId(): string {
    return this.#span.spanContext().traceId;
  }
  get traceparent(): string {
    const c = this.#span.spanContext();
    return `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 1) === 1 ? '01' : '00'}`;
  }
  set(key: string, value: string | number | boolean): void {
    this.#span.setAttribute(key, value);
  }
  fail(err: unknown, message?: string): void {
    if (err instanceof Error) this.#span.recordException(err);
    this.#span.setStatus({ code: SpanStatusCode.ERROR, message: message ?? (err as Error)?.message });
  }
  run<R>(fn: () => R): R {
    return context.with(this.#ctx, fn);
  }
  end(): void {
    this.#span.end();
  }
}

export function createTracer(env: Env, serviceVersion: string): Tracer {
  const provider = new TracerProvider({
    sampler: sampler(env),
    resource: resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME || 'travel-server',
      'service.version': serviceVersion,
      ...resourceAttributes(env),
      ...(env.OTEL_SERVICE_NAME ? { 'service.name': env.OTEL_SERVICE_NAME } : {}),
    }),
    spanProcessors: processors(env),
  });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const t = provider.getTracer('travel-server', serviceVersion);
  const carrierGetter = {
    get: (c: Record<string, string>, k: string) => c[k],
    keys: (c: Record<string, string>) => Object.keys(c),
  };
  return {
    request(method, path, traceparent, tracestate) {
      const carrier: Record<string, string> = {};
      if (traceparent) carrier.traceparent = traceparent;
      if (tracestate) carrier.tracestate = tracestate;
      const parent = traceparent ? propagation.extract(ROOT_CONTEXT, carrier, carrierGetter) : ROOT_CONTEXT;
      const span = t.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': path } },
        parent,
      );
      return new Handle(span, parent);
    },
    span(name, kind, attributes) {
      const parent = context.active();
      const span = t.startSpan(
        name,
        {
          kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
          ...(attributes ? { attributes } : {}),
        },
        parent,
      );
      return new Handle(span, parent);
    },
    activeTraceId() {
      return trace.getSpan(context.active())?.spanContext().traceId;
    },
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
