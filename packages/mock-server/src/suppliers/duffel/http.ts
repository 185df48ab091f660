import { HttpResponse, http } from 'msw';
import { connectionReset, hang } from '../../shared/faults.ts';
import { applyLatency, sleep } from '../../shared/latency.ts';
import { moneyText, textToMinor } from '../../shared/money.ts';
import type { EmulatorOptions } from '../../shared/options.ts';
import type { DuffelState, Wire } from './state.ts';
import { takeFault } from './triggers.ts';

/**
 * Duffel's wire conventions, shared by every handler: bearer token + `Duffel-Version: v2`, `{ data }`
 * envelopes, `{ errors, meta }` error bodies, cursor pagination. Handlers throw `DuffelHttpError` and the
 * route wrapper renders it.
 */

export const DOCS_URL = 'https://duffel.com/docs/api/overview/errors';

export class DuffelHttpError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly title: string;
  readonly source: Wire | undefined;
  constructor(status: number, type: string, code: string, title: string, message: string, source?: Wire) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.title = title;
    this.source = source;
  }
}

export const notFound = (what: string): DuffelHttpError =>
  new DuffelHttpError(404, 'invalid_request_error', 'not_found', 'Not found', `The ${what} was not found`);

export const invalid = (field: string, message: string): DuffelHttpError =>
  new DuffelHttpError(422, 'validation_error', 'validation_required', 'Required field', message, {
    field,
    pointer: `/${field.replaceAll('.', '/')}`,
  });

export const invalidState = (code: string, title: string, message: string): DuffelHttpError =>
  new DuffelHttpError(422, 'invalid_state_error', code, title, message);

function requestIdFor(state: DuffelState): string {
  return state.nextId('req').slice(4, 24);
}

export function errorResponse(state: DuffelState, e: DuffelHttpError): Response {
  const requestId = requestIdFor(state);
  const error: Wire = {
    type: e.type,
    title: e.title,
    message: e.message,
    code: e.code,
    documentation_url: DOCS_URL,
  };
  if (e.source) error.source = e.source;
  return HttpResponse.json(
    { errors: [error], meta: { status: e.status, request_id: requestId } },
    { status: e.status, headers: { 'x-request-id': requestId } },
  );
}

export function dataResponse(state: DuffelState, data: unknown, status = 200, meta?: Wire): Response {
  const body: Wire = { data };
  if (meta) body.meta = meta;
  return HttpResponse.json(body, { status, headers: { 'x-request-id': requestIdFor(state) } });
}

/** Cursor pagination as Duffel does it: `limit` (default 50, max 200), opaque `after` / `before`. */
export function paginate(state: DuffelState, items: Wire[], url: URL): Response {
  const limit = Math.min(200, Math.max(1, Number(url.searchParams.get('limit') ?? 50) || 50));
  const after = url.searchParams.get('after');
  const before = url.searchParams.get('before');
  let start = 0;
  if (after) start = Number(Buffer.from(after, 'base64url').toString()) || 0;
  else if (before) start = Math.max(0, (Number(Buffer.from(before, 'base64url').toString()) || 0) - limit);
  const page = items.slice(start, start + limit);
  const cursor = (n: number): string => Buffer.from(String(n)).toString('base64url');
  return dataResponse(state, page, 200, {
    limit,
    after: start + limit < items.length ? cursor(start + limit) : null,
    before: start > 0 ? cursor(start) : null,
  });
}

/** Checks what Duffel checks on every call before routing: the token and the API version. */
function checkHeaders(request: Request): DuffelHttpError | null {
  const auth = request.headers.get('authorization') ?? '';
  if (!auth.startsWith('Bearer ')) {
    return new DuffelHttpError(
      401,
      'authentication_error',
      'missing_authorization_header',
      'Missing authorization header',
      'The Authorization header is missing or not a Bearer token',
    );
  }
  if (!/^Bearer duffel_(test|live)_\S+$/.test(auth)) {
    return new DuffelHttpError(
      401,
      'authentication_error',
      'invalid_access_token',
      'Invalid access token',
      'The access token you provided is not valid',
    );
  }
  const version = request.headers.get('duffel-version');
  if (!version) {
    return new DuffelHttpError(
      400,
      'invalid_request_error',
      'missing_version',
      'Missing Duffel-Version header',
      'The Duffel-Version header is required',
    );
  }
  if (version !== 'v2') {
    return new DuffelHttpError(
      400,
      'invalid_request_error',
      'unsupported_version',
      'Unsupported version',
      `The Duffel-Version ${version} is not supported; use v2`,
    );
  }
  return null;
}

/** Parses `{ data: … }`; a body without the envelope is what Duffel rejects with 422. */
export async function readData(request: Request): Promise<Wire> {
  const text = await request.text();
  if (!text) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DuffelHttpError(
      400,
      'invalid_request_error',
      'malformed_json',
      'Malformed JSON',
      'Malformed JSON',
    );
  }
  const data = (body as { data?: unknown })?.data;
  if (!data || typeof data !== 'object') throw invalid('data', 'The request body must be wrapped in `data`');
  return data as Wire;
}

export interface RouteContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
}

type RouteFn = (ctx: RouteContext) => Promise<Response> | Response;

function faultResponse(state: DuffelState, kind: string, request: Request): Promise<Response> | Response {
  if (kind === 'reset') return connectionReset();
  if (kind === 'hang') return hang(request, state.hangMs);
  const status = kind === 'http_502' ? 502 : kind === 'http_503' ? 503 : 500;
  return errorResponse(
    state,
    new DuffelHttpError(
      status,
      'api_error',
      'internal_server_error',
      'Internal server error',
      'Something went wrong',
    ),
  );
}

export function makeRouter(state: DuffelState, options: EmulatorOptions, baseUrl: string) {
  const base = baseUrl.replace(/\/+$/, '');
  const prefixPath = new URL(base).pathname.replace(/\/+$/, '');
  const wrap =
    (method: string, fn: RouteFn) =>
    async ({ request, params }: { request: Request; params: Record<string, unknown> }): Promise<Response> => {
      const url = new URL(request.url);
      const path = url.pathname.slice(prefixPath.length);
      await applyLatency(options, `${method} ${path}`);
      const headerError = checkHeaders(request);
      if (headerError) return errorResponse(state, headerError);
      const fault = takeFault(state.faults, method, path);
      if (fault && fault.when !== 'after') return faultResponse(state, fault.kind, request);
      let response: Response;
      try {
        response = await fn({ request, url, params: params as Record<string, string> });
      } catch (e) {
        if (e instanceof DuffelHttpError) return errorResponse(state, e);
        throw e;
      }
      if (fault) return faultResponse(state, fault.kind, request);
      return response;
    };
  // The official client posts offer requests to `air/offer_requests/` (trailing slash): match both.
  const paths = (p: string): string[] => [`${base}${p}`, `${base}${p}/`];
  return {
    get: (p: string, fn: RouteFn) => paths(p).map((u) => http.get(u, wrap('GET', fn))),
    post: (p: string, fn: RouteFn) => paths(p).map((u) => http.post(u, wrap('POST', fn))),
    patch: (p: string, fn: RouteFn) => paths(p).map((u) => http.patch(u, wrap('PATCH', fn))),
  };
}

/** Shared by every create that must act and then fail (PENDING: 500 after creating; TIMEOUT: late). */
export async function ambiguousAfterCreate(
  state: DuffelState,
  trigger: 'PENDING' | 'TIMEOUT',
  request: Request,
  created: () => Response,
): Promise<Response> {
  if (trigger === 'PENDING') {
    return errorResponse(
      state,
      new DuffelHttpError(
        500,
        'api_error',
        'internal_server_error',
        'Internal server error',
        'Something went wrong',
      ),
    );
  }
  // TIMEOUT: the answer arrives only after `hangMs`, long past any adapter deadline.
  await sleep(state.hangMs, request.signal).catch(() => undefined);
  return created();
}

export function money(minor: number, currency: string): string {
  return moneyText(minor, currency);
}

export function minor(amount: string | number | null | undefined, currency: string): number {
  return textToMinor(amount, currency);
}

export const iso = (ms: number): string => new Date(ms).toISOString();
