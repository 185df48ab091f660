/**
 * Hotelbeds APItude request gate, shared by the hotel and transfer emulators: the `Api-key` header and
 * `X-Signature` = hex SHA-256 of apiKey + secret + Unix seconds, accepted within a few minutes of the
 * emulator clock (as APItude tolerates clock skew). Errors use Hotelbeds' `{ error: { code, message } }`.
 */
import { createHash } from 'node:crypto';
import { HttpResponse, http } from 'msw';
import { applyFault, type Faults, latencyOf, sleep } from '../../shared/kit.ts';
import type { EmulatorOptions } from '../../shared/options.ts';
import { realClock } from '../../shared/options.ts';

export interface HotelbedsCredentials {
  apiKey: string;
  secret: string;
}
export const DEFAULT_CREDENTIALS: HotelbedsCredentials = {
  apiKey: 'hb_test_api_key',
  secret: 'hb_test_secret',
};
const SKEW_S = 300;

export function signature(apiKey: string, secret: string, unixSeconds: number): string {
  return createHash('sha256').update(`${apiKey}${secret}${unixSeconds}`).digest('hex');
}

export function hbError(status: number, code: string, message: string): Response {
  return HttpResponse.json({ error: { code, message } }, { status });
}

export function auditData(now: number) {
  return {
    processTime: '37',
    timestamp: new Date(now).toISOString().replace('T', ' ').slice(0, 19),
    requestHost: '10.0.0.1',
    serverId: 'emulator',
    environment: '[int]',
    release: '1.0',
  };
}

/** Checks Api-key and X-Signature; a Response when the request is refused. */
export function checkAuth(request: Request, creds: HotelbedsCredentials, now: number): Response | undefined {
  const key = request.headers.get('api-key');
  const sig = request.headers.get('x-signature')?.toLowerCase();
  if (!key || !sig)
    return hbError(401, 'AUTHENTICATION_REQUIRED', 'Api-key and X-Signature headers are required.');
  if (key !== creds.apiKey) return hbError(401, 'INVALID_API_KEY', 'The Api-key is not valid.');
  const t = Math.floor(now / 1000);
  for (let s = t - SKEW_S; s <= t + SKEW_S; s++) {
    if (signature(creds.apiKey, creds.secret, s) === sig) return undefined;
  }
  return hbError(401, 'INVALID_SIGNATURE', 'Request signature verification failed.');
}

export interface GateCtx {
  options: EmulatorOptions & { baseUrl: string; credentials?: HotelbedsCredentials };
  faults: Faults;
  calls: string[];
  counter: { n: number };
}

export function clockOf(options: EmulatorOptions): () => number {
  return options.clock ?? realClock;
}

type Resolver = (args: {
  request: Request;
  params: Record<string, string | undefined>;
}) => Promise<Response> | Response;

/** A route with latency, armed faults and the signature check in front of the handler. */
export function gated(ctx: GateCtx, method: 'get' | 'post' | 'delete', path: string, resolver: Resolver) {
  const base = ctx.options.baseUrl.replace(/\/$/, '');
  return http[method](`${base}${path}`, async ({ request, params }) => {
    ctx.counter.n += 1;
    ctx.calls.push(`${request.method} ${new URL(request.url).pathname}`);
    await sleep(latencyOf(ctx.options, ctx.counter.n, 300), request.signal);
    const faulted = await applyFault(ctx.faults, request, (status) =>
      hbError(status, 'SYSTEM_ERROR', 'Internal error. Please try again later.'),
    );
    if (faulted) return faulted;
    const refused = checkAuth(
      request,
      ctx.options.credentials ?? DEFAULT_CREDENTIALS,
      clockOf(ctx.options)(),
    );
    if (refused) return refused;
    return resolver({ request, params: params as Record<string, string | undefined> });
  });
}

export async function readBody(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const b = (await request.json()) as unknown;
    return b && typeof b === 'object' ? (b as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A booking request's JSON body, or the Hotelbeds 400 a body that is not JSON gets. */
export async function bookingBody(request: Request): Promise<Record<string, unknown> | Response> {
  return (await readBody(request)) ?? hbError(400, 'INVALID_REQUEST', 'Body must be JSON.');
}

/**
 * The surname triggers answered before a booking is stored (README): REJECT (409, in `rejectedBy`'s
 * words), SERVERERROR (500) and RESET (the connection drops). Undefined: go on and store it.
 */
export function refusedBooking(trigger: string | undefined, rejectedBy: string): Response | undefined {
  if (trigger === 'REJECT') return hbError(409, 'PRODUCT_ERROR', `Booking not confirmed by ${rejectedBy}.`);
  if (trigger === 'SERVERERROR')
    return hbError(500, 'SYSTEM_ERROR', 'Internal error. Please try again later.');
  if (trigger === 'RESET') return HttpResponse.error();
  return undefined;
}

/**
 * The triggers answered after a booking is stored, the ambiguous failures: created, but the caller never
 * hears so (PENDING: a 504; TIMEOUT: no answer for two minutes, then a dropped connection).
 */
export async function lostAnswer(
  trigger: string | undefined,
  signal: AbortSignal,
): Promise<Response | undefined> {
  if (trigger === 'PENDING') return hbError(504, 'SYSTEM_ERROR', 'Gateway timeout.');
  if (trigger === 'TIMEOUT') {
    await sleep(120_000, signal);
    return HttpResponse.error();
  }
  return undefined;
}

/** Fee owed if cancelled at `now`: the largest policy amount already in force. */
export function feeAt(policies: { amount: string; from: string }[], now: number): number {
  return policies.filter((p) => Date.parse(p.from) <= now).reduce((m, p) => Math.max(m, Number(p.amount)), 0);
}

/** Surname triggers shared by hotel and transfer bookings (README). */
export function surnameTrigger(names: string[]): string | undefined {
  const set = new Set(names.map((n) => n.toUpperCase()));
  return ['REJECT', 'PENDING', 'TIMEOUT', 'SERVERERROR', 'RESET'].find((t) => set.has(t));
}
