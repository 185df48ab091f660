/**
 * The one place every supplier HTTP request is seen, whatever client sends it: the adapters use fetch
 * (Stripe, Hotelbeds, Mystifly: undici), node-fetch (the Duffel client) or node:http (the Amadeus
 * client), and all of them publish on Node's diagnostics channels. While a supplier call is running
 * (`runCall`), each request it makes is counted (attempts, so retries show), its answer's status kept,
 * and, when tracing is on, the W3C `traceparent` of the call's span is added to it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';

/** One supplier call's HTTP traffic. */
export class CallTraffic {
  attempts = 0;
  status: number | null = null;
  readonly traceparent: string | undefined;
  constructor(traceparent: string | undefined) {
    this.traceparent = traceparent;
  }
}

const calls = new AsyncLocalStorage<CallTraffic>();

export function runCall<R>(traffic: CallTraffic, fn: () => R): R {
  return calls.run(traffic, fn);
}

interface NodeClientRequest {
  readonly headersSent: boolean;
  setHeader(name: string, value: string): void;
  getHeader(name: string): unknown;
}
interface UndiciRequest {
  addHeader(name: string, value: string): void;
}

let subscribed = false;
/** Responses arrive in the socket's async context, not the call's: each request remembers its call. */
const owners = new WeakMap<object, CallTraffic>();

/** Subscribes once (idempotent); channels without subscribers cost nothing. */
export function watchOutboundHttp(): void {
  if (subscribed) return;
  subscribed = true;
  subscribe('undici:request:create', (m) => {
    const t = calls.getStore();
    if (!t) return;
    const req = (m as { request: UndiciRequest }).request;
    owners.set(req, t);
    t.attempts += 1;
    if (t.traceparent) req.addHeader('traceparent', t.traceparent);
  });
  subscribe('undici:request:headers', (m) => {
    const msg = m as { request: object; response: { statusCode: number } };
    const t = owners.get(msg.request);
    if (t) t.status = msg.response.statusCode;
  });
  // `created` comes before the headers are written (`start` only once they are sent): Node 22.14+.
  subscribe('http.client.request.created', (m) => {
    const t = calls.getStore();
    if (!t) return;
    const req = (m as { request: NodeClientRequest }).request;
    owners.set(req, t);
    t.attempts += 1;
    if (t.traceparent && !req.headersSent && req.getHeader('traceparent') === undefined)
      req.setHeader('traceparent', t.traceparent);
  });
  subscribe('http.client.response.finish', (m) => {
    const msg = m as { request: object; response: { statusCode?: number } };
    const t = owners.get(msg.request);
    if (t) t.status = msg.response.statusCode ?? null;
  });
}
