/**
 * The CORS policy (contracts §9): which browser origins may call the API. Bearer tokens travel in the
 * `Authorization` header, never in cookies, so `Access-Control-Allow-Credentials` is never sent and an
 * allowed origin is always echoed by name (a `*` entry answers `*`, which browsers never combine with
 * credentials). A disallowed origin gets no CORS header at all; the browser then refuses the response.
 */

/** Request headers a browser client may send (the SDK's, plus the standard ones). */
export const CORS_ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Last-Event-ID',
  'X-API-Key',
  'X-Request-Id',
].join(', ');

/** Response headers a browser client may read besides the CORS-safelisted ones. */
export const CORS_EXPOSE_HEADERS = [
  'Retry-After',
  'Idempotent-Replayed',
  'X-Request-Id',
  'WWW-Authenticate',
  'API-Version',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
].join(', ');

const NO_HEADERS: readonly string[] = Object.freeze([]);

/** How long a browser may cache a preflight answer (seconds). */
const MAX_AGE = '600';

export interface CorsPolicy {
  /** The `Access-Control-Allow-Origin` value for this `Origin` header, or undefined (no CORS headers). */
  allowOrigin(origin: string | null): string | undefined;
  /** Headers for an actual (non-preflight) response to a request with this `Origin`. */
  responseHeaders(origin: string | null): Record<string, string> | undefined;
  /** The same headers as a flat `[name, value, ...]` list (shared between requests: never write to it). */
  responseHeaderList(origin: string | null): readonly string[];
  /** Headers answering a preflight for a path that answers `methods`. */
  preflightHeaders(origin: string | null, methods: string[]): Record<string, string> | undefined;
}

/**
 * `origins`: exact origins (`https://app.example.com`), `*`, or a scheme and host with any port
 * (`http://localhost:*`). An empty list allows no cross-origin caller.
 */
export function corsPolicy(origins: readonly string[]): CorsPolicy {
  const exact = new Set<string>();
  const anyPort: string[] = [];
  let wildcard = false;
  for (const raw of origins) {
    const o = raw.trim().replace(/\/$/, '');
    if (o === '') continue;
    if (o === '*') wildcard = true;
    else if (o.endsWith(':*')) anyPort.push(o.slice(0, -2).toLowerCase());
    else exact.add(o.toLowerCase());
  }
  const enabled = wildcard || exact.size > 0 || anyPort.length > 0;

  const allowOrigin = (origin: string | null): string | undefined => {
    if (!enabled || !origin || origin === 'null') return undefined;
    const o = origin.toLowerCase();
    if (exact.has(o)) return origin;
    for (const base of anyPort) {
      if (o === base) return origin;
      if (o.startsWith(`${base}:`) && /^\d{1,5}$/.test(o.slice(base.length + 1))) return origin;
    }
    return wildcard ? '*' : undefined;
  };

  const varyOnly: readonly string[] = Object.freeze(['vary', 'Origin']);
  /** Per allowed value (an origin the policy admits, or `*`); bounded, since ports vary. */
  const allowedLists = new Map<string, readonly string[]>();

  return {
    allowOrigin,
    responseHeaderList(origin): readonly string[] {
      if (!enabled) return NO_HEADERS;
      const allowed = allowOrigin(origin);
      if (!allowed) return varyOnly;
      let list = allowedLists.get(allowed);
      if (!list) {
        list = Object.freeze([
          'vary',
          'Origin',
          'access-control-allow-origin',
          allowed,
          'access-control-expose-headers',
          CORS_EXPOSE_HEADERS,
        ]);
        if (allowedLists.size >= 1000) allowedLists.clear();
        allowedLists.set(allowed, list);
      }
      return list;
    },
    responseHeaders(origin): Record<string, string> | undefined {
      if (!enabled) return undefined;
      const allowed = allowOrigin(origin);
      // Vary on every response once a policy exists: a shared cache must not hand one origin's answer
      // (with or without the allow header) to another.
      if (!allowed) return { vary: 'Origin' };
      return {
        vary: 'Origin',
        'access-control-allow-origin': allowed,
        'access-control-expose-headers': CORS_EXPOSE_HEADERS,
      };
    },
    preflightHeaders(origin, methods): Record<string, string> | undefined {
      const allowed = allowOrigin(origin);
      const vary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
      if (!allowed) return enabled ? { vary } : undefined;
      return {
        vary,
        'access-control-allow-origin': allowed,
        'access-control-allow-methods': methods.join(', '),
        'access-control-allow-headers': CORS_ALLOW_HEADERS,
        'access-control-max-age': MAX_AGE,
      };
    },
  };
}
