/**
 * Issue 32, OpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a receiver started here, one
 * createPnr sent with a W3C `traceparent` produces a request span in that trace (its parent the span
 * sent in) carrying the operation id, and the supplier's createOrder span under it in the same trace;
 * database transactions and job runs are spans too; a supplier call's HTTP requests (fetch and
 * node:http) carry the call span's `traceparent` to the supplier; log lines name the trace.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeJob } from '../../src/observability/job-scope.ts';
import { observeSupplier } from '../../src/observability/supplier-observer.ts';
import { startTracing, stopTracing, type Tracer, tracingWanted } from '../../src/observability/tracing.ts';
import { dispatch } from '../harness/dispatch.ts';
import { futureDate, type Journeys, journeys, key } from '../journeys/world.ts';
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.ts';

let receiver: OtlpReceiver;
let tracer: Tracer;
let w: Journeys;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const t = await startTracing(
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'travel-test' },
    { serviceVersion: 'test' },
  );
  if (!t) throw new Error('tracing did not start');
  tracer = t;
  w = await journeys();
}, 60_000);
afterAll(async () => {
  await w?.close();
  await stopTracing();
  await receiver?.close();
});

describe('when tracing is on', () => {
  it('is on only when the OTEL_* variables ask for it', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(
      tracingWanted({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }),
    ).toBe(false);
    expect(tracingWanted({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false);
  });

  it('a createPnr sent with a traceparent: the request span in that trace, its supplier call span under it', async () => {
    const agency = await w.company();
    const agent = await w.user('company_staff', agency.id);
    const started = await w.req('POST', '/api/v1/flight/getFare', {
      token: agent.token,
      body: {
        companyCode: agency.code,
        userCode: agent.id,
        sources: ['amadeus'],
        searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(40) }],
      },
    });
    expect(started.status).toBe(202);
    const batch = await w.req('GET', `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`, {
      token: agent.token,
    });
    const offer = (batch.body.results_by_gds.amadeus as Array<Record<string, any>>).find((o) => !o.lcc);
    if (!offer) throw new Error('no bookable offer');
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const r = await dispatch(w.runtime.app, 'POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: key(),
      headers: { traceparent: `00-${traceId}-${parentId}-01` },
      body: {
        offer_id: offer.offer_id,
        currency: offer.price.currency,
        passengers: [
          {
            type: 'ADT',
            first_name: 'Ayesha',
            last_name: 'Rahman',
            date_of_birth: '1990-04-02',
            gender: 'F',
          },
        ],
        contact: { email: 'a@example.test', phone: '+447700900123' },
      },
    });
    expect(r.status, r.text).toBe(200);
    await tracer.flush();
    const trace = receiver.spans.filter((s) => s.traceId === traceId);
    const req = trace.find((s) => s.attributes['travel.operation_id'] === 'createPnr');
    expect(req, JSON.stringify(trace.map((s) => s.name))).toBeDefined();
    if (!req) return;
    // The inbound traceparent is honoured: same trace, the span sent in as parent, a server span.
    expect([req.traceId, req.parentSpanId, req.kind]).toEqual([traceId, parentId, 2]);
    expect(req.attributes['http.response.status_code']).toBe(200);
    expect(req.attributes['http.route']).toBe('/api/v1/bookings/createPnr');
    const call = trace.find((s) => s.name === 'amadeus createOrder');
    expect(call, JSON.stringify(trace.map((s) => s.name))).toBeDefined();
    if (!call) return;
    expect(call.attributes).toMatchObject({
      'travel.supplier': 'amadeus',
      'travel.supplier.operation': 'createOrder',
      'travel.supplier.outcome': 'ok',
      'http.response.status_code': 201,
    });
    expect(call.attributes['travel.supplier.retries']).toBeGreaterThanOrEqual(0);
    expect(call.kind).toBe(3);
    // Under the request span (directly: the handler runs in its context).
    expect(call.parentSpanId).toBe(req.spanId);
    expect(receiver.contentTypes.every((c) => c === 'application/x-protobuf')).toBe(true);
  });

  it('a database transaction is a span under the active one, committed or rolled back', async () => {
    const parent = tracer.span('unit of work', 'internal');
    await parent.run(() =>
      w.database.db.transaction().execute(async (trx) => trx.selectFrom('jobs').select('id').execute()),
    );
    await parent
      .run(() =>
        w.database.db.transaction().execute(async () => {
          throw new Error('changed my mind');
        }),
      )
      .catch(() => {});
    parent.end();
    await tracer.flush();
    const root = receiver.spans.find((s) => s.name === 'unit of work');
    const tx = receiver.spans.filter((s) => s.name === 'db transaction' && s.parentSpanId === root?.spanId);
    expect(tx.map((s) => s.attributes['db.transaction.outcome'])).toEqual(['commit', 'rollback']);
    expect(
      tx.every((s) => s.traceId === root?.traceId && s.attributes['db.system.name'] === 'postgresql'),
    ).toBe(true);
  });

  it('a job run is a span', async () => {
    await observeJob({ id: 'job-1', queue: 'test.queue', attempts: 2 }, undefined, async () => {});
    await tracer.flush();
    const job = receiver.spans.find((s) => s.name === 'job test.queue');
    expect(job?.attributes).toMatchObject({ 'travel.job.id': 'job-1', 'travel.job.attempt': 2 });
  });

  it('a supplier call’s HTTP requests carry its span’s traceparent (fetch and node:http)', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const adapter = observeSupplier(
        'local',
        {
          async viaFetch() {
            await (await fetch(url)).arrayBuffer();
          },
          viaHttp: () =>
            new Promise<void>((resolve, reject) => {
              const req = httpRequest(url, (res) => res.resume().on('end', () => resolve()));
              req.on('error', reject);
              req.end();
            }),
        },
        {},
      );
      await adapter.viaFetch();
      await adapter.viaHttp();
      await tracer.flush();
      const spans = ['local viaFetch', 'local viaHttp'].map((n) => receiver.spans.find((s) => s.name === n));
      expect(seen).toHaveLength(2);
      seen.forEach((h, i) => {
        const span = spans[i];
        expect(span).toBeDefined();
        expect(h.traceparent).toBe(`00-${span?.traceId}-${span?.spanId}-01`);
        expect(span?.attributes['http.response.status_code']).toBe(204);
      });
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
