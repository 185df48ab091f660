import { randomUUID } from 'node:crypto';
import { type HttpHandler, HttpResponse, http } from 'msw';
import { connectionReset, hang } from '../../shared/faults.ts';
import { applyLatency, sleep } from '../../shared/latency.ts';
import { type EmulatorOptions, realClock } from '../../shared/options.ts';
import { apiError, StripeHttpError } from './errors.ts';
import { canonicalParams, type FormObject, parseStripeForm } from './form.ts';
import { expand } from './params.ts';
import {
  cancelIntent,
  captureIntent,
  confirmIntent,
  createIntent,
  getIntent,
  listIntents,
  type OpContext,
  type OpResult,
  renderIntent,
  searchIntents,
} from './payment-intents.ts';
import { createRefund, getRefund, listRefunds } from './refunds.ts';
import { createStripeState, type IdempotencyRecord, type StripeState } from './state.ts';

export interface StripeEmulatorOptions extends EmulatorOptions {
  /** e.g. `http://127.0.0.1:12111`; requests are matched under `${baseUrl}/v1/…`. */
  baseUrl: string;
  /** Accept only this secret key (default: any `sk_test_…` / `rk_test_…` key). */
  apiKey?: string;
}

/** Stripe keeps idempotency keys for at least 24 hours. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

type Params = Record<string, string | readonly string[] | undefined>;
type Operation = (ctx: OpContext, params: FormObject, path: Params) => OpResult;

const ok = (body: unknown): OpResult => ({ status: 200, body });

/**
 * Stripe PaymentIntents emulator (manual capture, refunds, idempotency, card errors) as MSW handlers.
 * See README.md for the test tokens.
 */
export function stripeHandlers(options: StripeEmulatorOptions): {
  handlers: HttpHandler[];
  state: StripeState;
} {
  const base = options.baseUrl.replace(/\/+$/, '');
  const clock = options.clock ?? realClock;
  const state = createStripeState(options.seed);
  const ctx: OpContext = { state, nowSec: () => Math.floor(clock() / 1000) };

  const route = (method: 'get' | 'post', path: string, op: Operation): HttpHandler =>
    http[method](`${base}${path}`, async ({ request, params }) => {
      await applyLatency(options, `stripe ${method} ${path}`);
      return handle(request, params as Params, op);
    });

  async function handle(request: Request, pathParams: Params, op: Operation): Promise<Response> {
    const headers: Record<string, string> = {
      'Request-Id': `req_${randomUUID().replaceAll('-', '').slice(0, 14)}`,
      'Stripe-Version': request.headers.get('stripe-version') ?? '2025-01-27.acacia',
    };
    const apiKey = authenticate(request, options.apiKey);
    if (typeof apiKey !== 'string') return json(apiKey.status, { error: apiKey.body }, headers);

    let params: FormObject;
    try {
      params = await readParams(request);
    } catch (err) {
      return errorResponse(err, headers);
    }
    const idemKey = request.method === 'POST' ? request.headers.get('idempotency-key') : null;
    if (idemKey === null) {
      const result = await run(op, params, pathParams, headers);
      return finish(request, result);
    }
    headers['Idempotency-Key'] = idemKey;
    const scoped = `${apiKey}\u0000${idemKey}`;
    const path = new URL(request.url).pathname;
    const fingerprint = canonicalParams(params);
    const existing = state.idempotency.get(scoped);
    if (existing && clock() - existing.createdAt < IDEMPOTENCY_TTL_MS) {
      if (existing.method !== request.method || existing.path !== path || existing.params !== fingerprint) {
        return json(
          400,
          {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
            },
          },
          headers,
        );
      }
      if (existing.response === null) {
        return json(
          409,
          {
            error: {
              type: 'invalid_request_error',
              code: 'idempotency_key_in_use',
              doc_url: 'https://stripe.com/docs/error-codes/idempotency-key-in-use',
              message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${idemKey}. Please try again later.`,
            },
          },
          headers,
        );
      }
      const stored = existing.response;
      return finish(request, {
        response: json(stored.status, stored.body, {
          ...stored.headers,
          'Request-Id': headers['Request-Id'] as string,
          'Original-Request': stored.headers['Request-Id'] ?? '',
          'Idempotent-Replayed': 'true',
        }),
        fault: existing.fault,
      });
    }
    // Claim the key before running, so a concurrent duplicate sees it in flight.
    const record: IdempotencyRecord = {
      method: request.method,
      path,
      params: fingerprint,
      response: null,
      createdAt: clock(),
    };
    state.idempotency.set(scoped, record);
    const result = await run(op, params, pathParams, headers);
    if (!result.store) {
      state.idempotency.delete(scoped);
    } else {
      record.response = {
        status: result.response.status,
        body: result.body,
        headers: { ...headers },
      };
      record.fault = result.fault;
    }
    return finish(request, result);
  }

  interface RunResult {
    response: Response;
    body?: unknown;
    store?: boolean;
    fault?: OpResult['fault'];
  }

  async function run(
    op: Operation,
    params: FormObject,
    pathParams: Params,
    headers: Record<string, string>,
  ): Promise<RunResult> {
    try {
      const result = op(ctx, params, pathParams);
      // A slow answer keeps the idempotency key in flight for its duration.
      if (result.delayMs) await sleep(result.delayMs);
      return {
        response: json(result.status, result.body, headers),
        body: result.body,
        store: true,
        fault: result.fault,
      };
    } catch (err) {
      const response = errorResponse(err, headers);
      const stored = err instanceof StripeHttpError && err.stored;
      return { response, body: stored ? { error: err.body } : undefined, store: stored };
    }
  }

  /** Apply an "after the effect" fault: the result is stored, but this caller never learns it. */
  async function finish(request: Request, result: RunResult): Promise<Response> {
    if (result.fault === 'connection_reset') return connectionReset();
    if (result.fault === 'timeout') return hang(request);
    if (result.fault === 'api_error') {
      const err = apiError();
      return json(err.status, { error: err.body }, { 'Stripe-Should-Retry': 'false' });
    }
    return result.response;
  }

  const id = (p: Params): string => String(p.id ?? '');
  const handlers: HttpHandler[] = [
    route('post', '/v1/payment_intents', (c, p) => createIntent(c, p)),
    route('get', '/v1/payment_intents', (c, p) => ok(listIntents(c, p))),
    route('get', '/v1/payment_intents/search', (c, p) => ok(searchIntents(c, p))),
    route('get', '/v1/payment_intents/:id', (c, p, pp) =>
      ok(renderIntent(c, getIntent(c, id(pp)), expand(p))),
    ),
    route('post', '/v1/payment_intents/:id/confirm', (c, p, pp) => confirmIntent(c, id(pp), p)),
    route('post', '/v1/payment_intents/:id/capture', (c, p, pp) => captureIntent(c, id(pp), p)),
    route('post', '/v1/payment_intents/:id/cancel', (c, p, pp) => cancelIntent(c, id(pp), p)),
    route('post', '/v1/refunds', (c, p) => createRefund(c, p)),
    route('get', '/v1/refunds', (c, p) => ok(listRefunds(c, p))),
    route('get', '/v1/refunds/:id', (c, p, pp) => ok(getRefund(c, id(pp), p))),
    route('get', '/v1/charges/:id', (c, _p, pp) => {
      const charge = c.state.charges.get(id(pp));
      if (!charge)
        throw new StripeHttpError(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such charge: '${id(pp)}'`,
          param: 'id',
        });
      return ok(charge);
    }),
    // Anything else under the base URL answers as Stripe does for an unknown route.
    http.all(`${base}/*`, ({ request }) => stripeNotFound(request)),
  ];
  return { handlers, state };
}

/** Stripe's answer for a URL it does not know. */
export function stripeNotFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return json(404, {
    error: {
      message: `Unrecognized request URL (${request.method}: ${pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      type: 'invalid_request_error',
    },
  });
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return HttpResponse.json(body as Record<string, unknown>, { status, headers });
}

function errorResponse(err: unknown, headers: Record<string, string>): Response {
  if (err instanceof StripeHttpError)
    return json(err.status, { error: err.body }, { ...headers, ...err.headers });
  const e = apiError();
  return json(e.status, { error: e.body }, headers);
}

/** Stripe reads params from the query string on GET and from a form body on POST. */
async function readParams(request: Request): Promise<FormObject> {
  if (request.method === 'GET' || request.method === 'DELETE') {
    return parseStripeForm(new URL(request.url).search.slice(1));
  }
  const body = await request.text();
  const type = request.headers.get('content-type') ?? '';
  if (body !== '' && !type.startsWith('application/x-www-form-urlencoded')) {
    throw new StripeHttpError(400, {
      type: 'invalid_request_error',
      message: `Invalid request: unsupported Content-Type ${type.split(';')[0]}. If error persists and you need assistance, please contact support@stripe.com.`,
    });
  }
  return parseStripeForm(body);
}

/** Bearer (what the official clients send) or Basic with the key as user name (curl -u sk_test_…:). */
function authenticate(request: Request, only: string | undefined): string | StripeHttpError {
  const header = request.headers.get('authorization') ?? '';
  let key = '';
  if (header.startsWith('Bearer ')) key = header.slice(7).trim();
  else if (header.startsWith('Basic ')) {
    key = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')[0] ?? '';
  }
  if (key === '') {
    return new StripeHttpError(401, {
      type: 'invalid_request_error',
      message:
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    });
  }
  const valid = only === undefined ? /^(sk|rk)_test_[A-Za-z0-9_]{4,}$/.test(key) : key === only;
  if (!valid) {
    // Stripe masks the key in the message: never echo a credential.
    const masked = key.length > 16 ? `${key.slice(0, 8)}****${key.slice(-4)}` : '****';
    return new StripeHttpError(401, {
      type: 'invalid_request_error',
      code: 'api_key_invalid',
      message: `Invalid API Key provided: ${masked}`,
    });
  }
  return key;
}
