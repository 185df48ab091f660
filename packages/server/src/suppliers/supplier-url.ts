/**
 * The one guard every hand-built supplier request passes: the URL is resolved with `new URL` against the
 * configured base, and refused unless it stays on the base's origin and under its path, and no path
 * segment is (or decodes, once or twice, to) `.` or `..`. Whatever a value interpolated into a path
 * holds, it cannot move a request (with our credentials) to another host, port, scheme or API.
 *
 * Used by the Hotelbeds and Mystifly clients (fetch), the Amadeus client (its node:http hook), the Duffel
 * client (its request method) and the Stripe client (its fetch).
 */
import { SupplierError, type SupplierName } from './ports/errors.ts';

/** Raised when a request would leave the supplier: a bug or an attack, never a supplier answer. */
export const UNSAFE_URL = 'unsafe_supplier_url';

function refuse(supplier: SupplierName, why: string): never {
  throw new SupplierError(supplier, 'invalid_request', `Refused a ${supplier} request: ${why}`, {
    supplierCode: UNSAFE_URL,
  });
}

/** Decoded forms of one segment: as sent, decoded once, decoded twice (double-encoded traversal). */
function decodings(supplier: SupplierName, segment: string): string[] {
  const out = [segment];
  let cur = segment;
  for (let i = 0; i < 2 && cur.includes('%'); i++) {
    try {
      cur = decodeURIComponent(cur);
    } catch {
      refuse(supplier, 'malformed percent-encoding in the path');
    }
    out.push(cur);
  }
  return out;
}

/** A control character (C0 or DEL), which no value of ours carries. */
const hasControl = (v: string): boolean => [...v].some((c) => c.charCodeAt(0) < 0x20 || c === '\x7f');

function checkPath(supplier: SupplierName, pathname: string): void {
  // Control characters, spaces and backslashes are never part of a path we build.
  if (hasControl(pathname) || /[ \\]/.test(pathname)) refuse(supplier, 'unexpected character in the path');
  for (const segment of pathname.split('/')) {
    for (const d of decodings(supplier, segment)) {
      // An encoded slash is fine (some supplier ids carry one); a dot segment behind it is not.
      if (d.split(/[/\\]/).some((part) => part === '.' || part === '..'))
        refuse(supplier, 'dot segment in the path');
    }
  }
}

/** The base as an origin and a path prefix ending in `/`. */
function baseOf(supplier: SupplierName, base: string): { origin: string; prefix: string } {
  let b: URL;
  try {
    b = new URL(base);
  } catch {
    refuse(supplier, 'the configured base URL is not a URL');
  }
  if (b.protocol !== 'https:' && b.protocol !== 'http:') refuse(supplier, 'the base URL is not http(s)');
  return { origin: b.origin, prefix: b.pathname.endsWith('/') ? b.pathname : `${b.pathname}/` };
}

function assertUnder(supplier: SupplierName, url: URL, origin: string, prefix: string): void {
  if (url.origin !== origin) refuse(supplier, 'the URL leaves the supplier origin');
  if (url.username || url.password) refuse(supplier, 'credentials in the URL');
  if (!`${url.pathname}/`.startsWith(prefix)) refuse(supplier, 'the URL leaves the supplier base path');
}

/**
 * `path` resolved under `base`. An absolute path (`/hotel-api/…`) is appended to the base path (as the
 * clients always did: a base of `http://host/prefix` keeps its prefix); a relative one (`air/orders/…`,
 * Duffel's style) is resolved against it. A query may follow the path.
 */
export function supplierUrl(supplier: SupplierName, base: string, path: string): URL {
  const { origin, prefix } = baseOf(supplier, base);
  const q = path.search(/[?#]/);
  const pathname = q === -1 ? path : path.slice(0, q);
  if (path.includes('#')) refuse(supplier, 'a fragment in the path');
  if (pathname.startsWith('//')) refuse(supplier, 'a network-path reference');
  // `host:18299/x` or `https:evil` would parse as a scheme, not as a path; `.attacker.example/x` is what
  // would extend the host when concatenated. A relative path starts with a plain name (`air/orders`).
  if (!pathname.startsWith('/') && (/^[^/]*:/.test(pathname) || !/^[A-Za-z0-9_]/.test(pathname)))
    refuse(supplier, 'not a path on the supplier');
  checkPath(supplier, pathname);
  const joined = pathname.startsWith('/') ? `${prefix.slice(0, -1)}${path}` : `${prefix}${path}`;
  let url: URL;
  try {
    url = new URL(joined, origin);
  } catch {
    refuse(supplier, 'the path does not form a URL');
  }
  assertUnder(supplier, url, origin, prefix);
  return url;
}

/**
 * For clients that build the whole URL themselves (Stripe): the URL as they will send it must be on the
 * base's origin and under its path, with no dot segment in its raw (unnormalised) path.
 */
export function assertSupplierUrl(supplier: SupplierName, base: string, raw: string | URL): URL {
  const { origin, prefix } = baseOf(supplier, base);
  const text = String(raw);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    refuse(supplier, 'not a URL');
  }
  const start = text.indexOf('/', text.indexOf('//') + 2);
  const rawPath = start === -1 ? '/' : text.slice(start).split(/[?#]/)[0] || '/';
  checkPath(supplier, rawPath);
  assertUnder(supplier, url, origin, prefix);
  return url;
}

/**
 * One value put into a path segment by an adapter (a booking reference, a place name): refused when it
 * could not be a single segment (a slash, a dot segment, a control character), then percent-encoded.
 */
export function pathSegment(supplier: SupplierName, value: string): string {
  if (value === '' || value === '.' || value === '..' || /[/\\]/.test(value) || hasControl(value))
    refuse(supplier, 'a reference that is not a single path segment');
  return encodeURIComponent(value);
}
