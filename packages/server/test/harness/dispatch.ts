/**
 * One request to an app without a socket, as the server tests send them: a JSON body on POST and PATCH
 * (`{}` when none is given), a bearer token, an Idempotency-Key, an X-API-Key, extra headers. The answer
 * keeps the status, the headers, the raw text and the body parsed as JSON (the text when it is not JSON).
 */
import type { Kernel } from '../../src/kernel/kernel.ts';

export interface DispatchOptions {
  /** Sent as Authorization: Bearer (an access token or an API key). */
  token?: string;
  /** Sent as Idempotency-Key. */
  key?: string;
  /** Sent as X-API-Key. */
  apiKey?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Dispatched {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function dispatch(
  app: Pick<Kernel, 'handle'>,
  method: string,
  path: string,
  o: DispatchOptions = {},
): Promise<Dispatched> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.key) headers['idempotency-key'] = o.key;
  if (o.apiKey) headers['x-api-key'] = o.apiKey;
  let body: string | undefined;
  if (method === 'POST' || method === 'PATCH') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.body ?? {});
  }
  const res = await app.handle(new Request(`http://travel.test${path}`, { method, headers, body }));
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: parseBody(text), text };
}

/** A response body as JSON; the text as it came when it is not JSON; undefined when empty. */
export function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
