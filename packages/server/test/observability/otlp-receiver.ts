/**
 * An OTLP/HTTP receiver on loopback for tests: it accepts `POST /v1/traces` in protobuf (the exporter's
 * default), decodes the spans with a small protobuf wire reader (only the fields the tests read) and
 * keeps them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

type Field = [number, number, bigint | Uint8Array];

function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let r = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++] as number;
      r |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return r;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >> 3;
    const wt = key & 7;
    if (wt === 0) out.push([no, wt, varint()]);
    else if (wt === 1) {
      out.push([no, wt, buf.subarray(i, i + 8)]);
      i += 8;
    } else if (wt === 2) {
      const len = Number(varint());
      out.push([no, wt, buf.subarray(i, i + len)]);
      i += len;
    } else if (wt === 5) {
      out.push([no, wt, buf.subarray(i, i + 4)]);
      i += 4;
    } else throw new Error(`unsupported wire type ${wt}`);
  }
  return out;
}

const sub = (f: Field[], no: number): Uint8Array[] =>
  f.filter(([n, wt]) => n === no && wt === 2).map(([, , v]) => v as Uint8Array);
const hex = (b: Uint8Array | undefined): string => (b ? Buffer.from(b).toString('hex') : '');
const text = (b: Uint8Array | undefined): string => (b ? Buffer.from(b).toString('utf8') : '');

function anyValue(b: Uint8Array): string | number | boolean {
  const [f] = fields(b);
  if (!f) return '';
  const [no, , v] = f;
  if (no === 1) return text(v as Uint8Array);
  if (no === 2) return (v as bigint) !== 0n;
  if (no === 3) return Number(BigInt.asIntN(64, v as bigint));
  if (no === 4) return Buffer.from(v as Uint8Array).readDoubleLE(0);
  return '';
}

function span(b: Uint8Array): ReceivedSpan {
  const f = fields(b);
  const attributes: ReceivedSpan['attributes'] = {};
  for (const kv of sub(f, 9)) {
    const k = fields(kv);
    attributes[text(sub(k, 1)[0])] = anyValue(sub(k, 2)[0] ?? new Uint8Array());
  }
  const kind = f.find(([n]) => n === 6);
  return {
    traceId: hex(sub(f, 1)[0]),
    spanId: hex(sub(f, 2)[0]),
    parentSpanId: hex(sub(f, 4)[0]),
    name: text(sub(f, 5)[0]),
    kind: kind ? Number(kind[2]) : 0,
    attributes,
  };
}

/** ExportTraceServiceRequest → its spans. */
export function decodeTraces(body: Uint8Array): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of sub(fields(body), 1))
    for (const ss of sub(fields(rs), 2)) for (const s of sub(fields(ss), 2)) out.push(span(s));
  return out;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  contentTypes: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Uint8Array = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      if (req.method === 'POST' && req.url === '/v1/traces') {
        contentTypes.push(String(req.headers['content-type']));
        spans.push(...decodeTraces(body));
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
