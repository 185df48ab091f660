/** What every OnePoint route needs, and the wrapper that applies latency, faults and session auth. */
import { HttpResponse, http } from 'msw';
import { applyFault, latencyOf, sleep } from '../../shared/kit.ts';
import type { EmulatorOptions } from '../../shared/options.ts';
import { realClock } from '../../shared/options.ts';
import type { MystiflyState } from './state.ts';
import { fail, readJson } from './wire.ts';

export interface MystiflyOptions extends EmulatorOptions {
  baseUrl: string;
  /** Accepted CreateSession credentials (defaults in README). */
  credentials?: { userName: string; password: string; accountNumber: string };
  /** TripDetails polls after OrderTicket before the tickets are issued; 0 issues at once. Default 2. */
  ticketingPolls?: number;
  /** Or this much clock time after OrderTicket. Default 90 s. */
  ticketingDelayMs?: number;
}

export interface Ctx {
  options: MystiflyOptions;
  state: MystiflyState;
  now: () => number;
  url: (path: string) => string;
}

export function makeCtx(options: MystiflyOptions, state: MystiflyState): Ctx {
  const clock = options.clock ?? realClock;
  const base = options.baseUrl.replace(/\/$/, '');
  return { options, state, now: clock, url: (p) => `${base}${p}` };
}

type Resolver = (args: {
  request: Request;
  params: Record<string, string>;
  body: Record<string, unknown>;
}) => Promise<Response> | Response;

function gatewayError(status: number): Response {
  return new HttpResponse(status === 504 ? 'Gateway Time-out' : 'Internal Server Error', {
    status,
    headers: { 'content-type': 'text/html' },
  });
}

/** A route: latency, then armed faults, then the session check (all but CreateSession), then the handler. */
export function route(
  ctx: Ctx,
  method: 'get' | 'post',
  path: string,
  resolver: Resolver,
  opts: { auth?: boolean } = {},
) {
  return http[method](ctx.url(path), async ({ request, params }) => {
    ctx.state.counter += 1;
    ctx.state.calls.push(`${request.method} ${new URL(request.url).pathname}`);
    await sleep(latencyOf(ctx.options, ctx.state.counter, 400), request.signal);
    const faulted = await applyFault(ctx.state.faults, request, gatewayError);
    if (faulted) return faulted;
    if (opts.auth !== false) {
      const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
      const session = token ? ctx.state.sessions.get(token) : undefined;
      if (!session || session.expiresAt <= ctx.now()) {
        return fail('ERSER002', 'Session is invalid or has expired. Please create a new session.');
      }
    }
    const body = method === 'post' ? await readJson(request) : {};
    if (!body) return fail('ERGEN001', 'Request body is not valid JSON.');
    return resolver({ request, params: params as Record<string, string>, body });
  });
}

export { gatewayError };
