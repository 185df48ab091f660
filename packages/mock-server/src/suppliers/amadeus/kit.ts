import { type HttpHandler, http } from 'msw';
import { connectionReset, hang } from '../../shared/faults.ts';
import { applyLatency } from '../../shared/latency.ts';
import type { AmadeusState, FaultKind } from './state.ts';
import { AmadeusError, errorResponse, systemError } from './wire.ts';

/**
 * Route plumbing shared by every Amadeus handler: latency, armed faults, the Bearer-token check Amadeus
 * applies to every API call, and rendering of `AmadeusError`.
 */

export interface RouteContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  /** client_id the token was issued to. */
  clientId: string;
}

export type RouteFn = (ctx: RouteContext) => Promise<Response> | Response;
type Method = 'get' | 'post' | 'delete' | 'patch';

/** Amadeus' own 401 bodies for the three token failures (codes 38191, 38190, 38192). */
function authError(code: number, title: string, detail: string): AmadeusError {
  return new AmadeusError(401, code, title, detail);
}

export function authenticate(state: AmadeusState, request: Request): string {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match?.[1])
    throw authError(
      38191,
      'Invalid HTTP header',
      'Missing or invalid format for mandatory Authorization header',
    );
  const token = state.tokens.get(match[1]);
  if (!token)
    throw authError(
      38190,
      'Invalid access token',
      'The access token provided in the Authorization header is invalid',
    );
  if (token.expiresAt <= state.now())
    throw authError(38192, 'Access token expired', 'The access token is expired');
  return token.clientId;
}

export function makeRouter(state: AmadeusState, baseUrl: string) {
  const base = baseUrl.replace(/\/$/, '');
  const wrap =
    (fn: RouteFn, authed: boolean) =>
    async ({
      request,
      params,
    }: {
      request: Request;
      params: Record<string, string | readonly string[] | undefined>;
    }) => {
      const url = new URL(request.url);
      await applyLatency(state.options, url.pathname);
      const fault = state.takeFault(url.pathname);
      const fail = (kind: FaultKind) =>
        kind === 'reset'
          ? connectionReset()
          : kind === 'timeout'
            ? hang(request)
            : errorResponse(systemError());
      if (fault?.when === 'before') return fail(fault.kind);
      let response: Response;
      try {
        const clientId = authed ? authenticate(state, request) : '';
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(params)) if (typeof v === 'string') flat[k] = v;
        response = await fn({ request, url, params: flat, clientId });
      } catch (e) {
        if (e instanceof AmadeusError) return errorResponse(e);
        return errorResponse(systemError());
      }
      // Acted, then the answer is lost.
      return fault ? fail(fault.kind) : response;
    };
  const add =
    (method: Method, authed = true) =>
    (path: string, fn: RouteFn): HttpHandler =>
      http[method](`${base}${path}`, wrap(fn, authed));
  return {
    get: add('get'),
    post: add('post'),
    delete: add('delete'),
    patch: add('patch'),
    publicGet: add('get', false),
    publicPost: add('post', false),
  };
}
export type Router = ReturnType<typeof makeRouter>;
