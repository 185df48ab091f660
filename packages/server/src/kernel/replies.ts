import type { Exchange } from './context.ts';
import type { RequestsInFlight } from './in-flight.ts';
import type { Reply } from './kernel-api.ts';
import { constantJson } from './reply.ts';
import { HYGIENE_HEADERS, type KernelExchange } from './request-context.ts';
import { SSE_HEADERS } from './sse.ts';
import type { HandlerResult } from './types.ts';

// A handler's result as its transport's answer: `toReply` for the node adapter (flat headers, the body
// written at once, a stream the transport writes itself), `toResponse` for a web `Response`.

const jsonHeaders = { 'content-type': 'application/json' };
/** The first reply headers, flat: hygiene, and before it the JSON content type for a JSON body. */
const HYGIENE_LIST: readonly string[] = Object.entries(HYGIENE_HEADERS).flat();
const JSON_HEAD: readonly string[] = ['content-type', 'application/json', ...HYGIENE_LIST];

const isHttpSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Response headers as a web `Headers` would send them: names lower-cased, names differing only in case
 * joined with `, `, values trimmed of HTTP whitespace.
 */
function normalizeHeaders(merged: Record<string, unknown>): Record<string, string> {
  let out: Record<string, string> | undefined;
  for (const k in merged) {
    const raw = merged[k];
    const v = typeof raw === 'string' ? raw : String(raw);
    const lk = k.toLowerCase();
    if (
      lk !== k ||
      v !== raw ||
      (v.length > 0 && (isHttpSpace(v.charCodeAt(0)) || isHttpSpace(v.charCodeAt(v.length - 1))))
    ) {
      out ??= {};
      break;
    }
  }
  if (!out) return merged as Record<string, string>;
  for (const k in merged) {
    const raw = merged[k];
    const v = (typeof raw === 'string' ? raw : String(raw)).replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
    const lk = k.toLowerCase();
    const prev = out[lk];
    out[lk] = prev === undefined ? v : `${prev}${lk === 'cookie' ? '; ' : ', '}${v}`;
  }
  return out;
}

const isEmpty = (o: object) => {
  for (const _ in o) return false;
  return true;
};

/**
 * The reply's headers, flat: the JSON content type (for a body), hygiene, CORS, request id, then the
 * result's own headers over them (a web `Headers`' normalization), then the content length. Without
 * headers of the result's own, the list is made straight from the kernel's, which need no
 * normalization (lower-case names, trimmed values).
 */
function replyHeaders(ex: KernelExchange, result: HandlerResult, json: boolean, length?: string): string[] {
  const extra = result.headers;
  if (!ex.responseHeadersMade && (extra === undefined || isEmpty(extra))) {
    const h = (json ? JSON_HEAD : HYGIENE_LIST).slice();
    const cors = ex.corsHeaders;
    for (let i = 0; i < cors.length; i++) h.push(cors[i] as string);
    h.push('x-request-id', ex.ctx.requestId);
    if (length !== undefined) h.push('content-length', length);
    return h;
  }
  const merged = normalizeHeaders(
    json
      ? { ...jsonHeaders, ...ex.responseHeaders, ...(extra ?? {}) }
      : { ...ex.responseHeaders, ...(extra ?? {}) },
  );
  if (length !== undefined) merged['content-length'] = length;
  const h: string[] = [];
  for (const k in merged) h.push(k, merged[k] as string);
  return h;
}

/** The two answer makers of one kernel; streams are counted in `inFlight`. */
export function replyMakers(inFlight: RequestsInFlight): {
  toReply: (ex: KernelExchange, result: HandlerResult) => Reply;
  toResponse: (ex: Exchange, result: HandlerResult) => Response;
} {
  function toResponse(ex: Exchange, result: HandlerResult): Response {
    const headers: Record<string, string> = { ...ex.responseHeaders, ...(result.headers ?? {}) };
    const head = ex.request.method === 'HEAD';
    if ('sse' in result) {
      const sseHeaders = { ...ex.responseHeaders, ...SSE_HEADERS, ...(result.headers ?? {}) };
      if (head) {
        // HEAD: the stream's headers, and the stream itself is never started.
        void result.sse[Symbol.asyncIterator]()
          .return?.()
          ?.catch(() => {});
        return new Response(null, { status: result.status, headers: sseHeaders });
      }
      const body = inFlight.webStream(ex, result.sse);
      return new Response(body, { status: result.status, headers: sseHeaders });
    }
    if ('raw' in result) {
      const nullBody = head || result.status === 204 || result.status === 304;
      return new Response(nullBody ? null : (result.raw as ConstructorParameters<typeof Response>[0]), {
        status: result.status,
        headers,
      });
    }
    if (result.status === 204 || result.status === 304 || result.body === undefined) {
      return new Response(null, { status: result.status, headers });
    }
    const text = JSON.stringify(result.body);
    if (head) {
      return new Response(null, {
        status: result.status,
        headers: { ...jsonHeaders, ...headers, 'content-length': String(Buffer.byteLength(text)) },
      });
    }
    return new Response(text, { status: result.status, headers: { ...jsonHeaders, ...headers } });
  }

  /** The answer as the node adapter writes it: JSON at once, anything else as a `Response`. */
  function toReply(ex: KernelExchange, result: HandlerResult): Reply {
    const status = result.status;
    // A stream is written by the transport itself, after these headers (no web stream in between).
    if ('sse' in result && ex.request.method !== 'HEAD') {
      const source = result.sse;
      return {
        status: result.status,
        headers: normalizeHeaders({ ...ex.responseHeaders, ...SSE_HEADERS, ...(result.headers ?? {}) }),
        stream: (transport) => inFlight.openStream(ex.ctx.requestId, source, transport),
      };
    }
    // HEAD of a stream, non-JSON bodies and statuses a web Response would refuse keep the Response path.
    if ('sse' in result || 'raw' in result || status < 200 || status > 599 || status === 205) {
      return { response: toResponse(ex, result) };
    }
    if (status === 204 || status === 304 || result.body === undefined) {
      return { status, headers: replyHeaders(ex, result, false), body: null };
    }
    const body = result.body;
    // A `constantResult`'s body was serialized once; any other is serialized now.
    const constant = typeof body === 'object' && body !== null ? constantJson(body) : undefined;
    if (constant) {
      const headers = replyHeaders(ex, result, true, constant.length);
      return { status, headers, body: ex.request.method === 'HEAD' ? null : constant.text };
    }
    const text = JSON.stringify(body) as string | undefined;
    if (text === undefined) return { status, headers: replyHeaders(ex, result, true), body: null };
    const headers = replyHeaders(ex, result, true, String(Buffer.byteLength(text)));
    return { status, headers, body: ex.request.method === 'HEAD' ? null : text };
  }

  return { toReply, toResponse };
}
