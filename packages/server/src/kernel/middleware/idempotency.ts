import { createHash } from 'node:crypto';
import type { IdempotencyStore, StoredResponse } from '../../idempotency/idempotency-store.ts';
import type { Middleware } from '../compose.ts';
import { conflict, HttpError, ValidationError } from '../errors.ts';
import type { HandlerResult, RequestContext } from '../types.ts';

import { renderError } from './error-handler.ts';

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** Stable JSON: object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The key's scope: caller + operation + key, hashed (the primary key of `idempotency_keys`). */
export function idempotencyScope(caller: string, operationId: string, key: string): string {
  return createHash('sha256').update(`${caller}\u0000${operationId}\u0000${key}`).digest('hex');
}

const callerOf = (ctx: Pick<RequestContext, 'auth' | 'ip'>) =>
  ctx.auth ? `user:${ctx.auth.userId}` : `ip:${ctx.ip}`;

/** The hash of what the request asks for (params, query, body), as the middleware compares it. */
export const requestHash = (ctx: Pick<RequestContext, 'params' | 'query' | 'body'>) =>
  createHash('sha256')
    .update(canonical({ params: ctx.params, query: ctx.query, body: ctx.body }))
    .digest('hex');

/** The scope and request hash the middleware computed for a request, so its handler need not hash again. */
const hashed = new WeakMap<object, { key: string; body: unknown; scope: string; hash: string }>();

/**
 * A name for this request's effect that every retry of it (same caller, operation, key and request)
 * derives again: the reference a handler writes ahead and hands to the supplier, so a retry after a
 * crash finds the effect instead of repeating it. Undefined without an Idempotency-Key.
 */
export function effectReference(
  ctx: Pick<RequestContext, 'auth' | 'ip' | 'operationId' | 'headers' | 'params' | 'query' | 'body'>,
): { scope: string; digest: string } | undefined {
  const key = ctx.headers['idempotency-key'];
  if (!key) return undefined;
  const claimed = hashed.get(ctx);
  const same = claimed?.key === key && claimed.body === ctx.body;
  const scope = same ? claimed.scope : idempotencyScope(callerOf(ctx), ctx.operationId, key);
  const hash = same ? claimed.hash : requestHash(ctx);
  const digest = createHash('sha256').update(`effect\u0000${scope}\u0000${hash}`).digest('hex');
  return { scope, digest };
}

/** The claim each request holds on its key while it runs (the middleware's `ex.idempotency`). */
const claims = new WeakMap<object, { scope: string; stored: boolean }>();

/**
 * For a handler that stores its answer itself, in the statement that makes its effect (so both commit
 * together without a transaction around them): the key's scope, and `stored()` to call once that
 * statement committed, so the middleware does not store it again. Undefined when the request holds no
 * claim (no Idempotency-Key). The stored answer must be exactly what the handler returns.
 */
export function ownAnswer(ctx: object): { scope: string; stored(): void } | undefined {
  const claim = claims.get(ctx);
  if (!claim || claim.stored) return undefined;
  return {
    scope: claim.scope,
    stored: () => {
      claim.stored = true;
    },
  };
}

/** An outcome that is a real answer and is stored; anything else (an internal failure) releases the key. */
const storable = (status: number) => status < 500 || status === 502;

/** The stored form of a handler's result, or undefined when it must not be stored (streams, failures). */
export function storedForm(r: HandlerResult): StoredResponse | undefined {
  if ('sse' in r || 'raw' in r || !storable(r.status)) return undefined;
  return { status: r.status, body: r.body, headers: r.headers ?? {} };
}

/**
 * Contracts section 3. The key is scoped to caller + operation. The first response is stored (in the
 * handler's transaction when it uses `ctx.transaction`, else right after) and replayed with
 * `Idempotent-Replayed: true`. Same key, other request: 422 `idempotency_key_reused`. Same key while the
 * first is running: 409 `idempotency_in_progress`; the claim is a lease renewed by a heartbeat while the
 * request runs, so a key whose process died is free again within one lease (`IDEMPOTENCY_LEASE_SECONDS`). An internal failure (5xx other than 502) releases it.
 */
export function idempotency(opts: { store: IdempotencyStore }): Middleware {
  return async function idempotencyMiddleware(ex, next) {
    const op = ex.operation;
    const key = ex.request.headers.get('idempotency-key');
    const applies = op && (op.idempotency !== undefined || op.method === 'POST' || op.method === 'PATCH');
    if (!op || !applies) return next();
    if (!key) {
      if (op.idempotency === 'required') {
        throw new ValidationError([
          { loc: ['header', 'idempotency-key'], msg: 'Field required', type: 'missing' },
        ]);
      }
      return next();
    }
    if (!KEY_RE.test(key)) {
      throw new ValidationError([
        {
          loc: ['header', 'idempotency-key'],
          msg: 'must be 1 to 255 visible ASCII characters',
          type: 'value_error',
        },
      ]);
    }
    const caller = callerOf(ex.ctx);
    const scope = idempotencyScope(caller, op.operationId, key);
    const hash = requestHash(ex.ctx);
    hashed.set(ex.ctx, { key, body: ex.ctx.body, scope, hash });
    const outcome = await opts.store.claim({ scope, caller, operationId: op.operationId, key, hash });
    if (outcome.kind === 'mismatch') {
      throw new ValidationError(
        [
          {
            loc: ['header', 'idempotency-key'],
            msg: 'This Idempotency-Key was used with a different request.',
            type: 'idempotency_key_reused',
          },
        ],
        'idempotency_key_reused',
      );
    }
    if (outcome.kind === 'in_progress') {
      throw conflict('idempotency_in_progress', 'A request with this Idempotency-Key is still in progress.');
    }
    if (outcome.kind === 'replay') {
      const r = outcome.response;
      ex.result = {
        status: r.status,
        body: r.body,
        headers: { ...r.headers, 'idempotent-replayed': 'true' },
      };
      return;
    }

    const claim = { scope, stored: false };
    const owner = outcome.owner;
    ex.idempotency = claim;
    claims.set(ex.ctx, claim);
    // The lease lives as long as this request: renewed while it runs, so a crash frees the key in one lease.
    const heartbeat = setInterval(() => {
      opts.store.renew(scope, owner).catch((err: unknown) => {
        ex.ctx.log.warn({ err }, 'idempotency lease renewal failed');
      });
    }, opts.store.heartbeatMs);
    heartbeat.unref();
    try {
      await next();
    } catch (err) {
      if (!claim.stored) {
        const rendered =
          err instanceof HttpError || err instanceof ValidationError
            ? renderError(err, ex.ctx.requestId)
            : undefined;
        if (rendered && storable(rendered.status)) {
          await opts.store.complete(scope, rendered);
          claim.stored = true;
        } else {
          await opts.store.release(scope, owner);
        }
      }
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
    if (claim.stored) return;
    const stored = ex.result && storedForm(ex.result);
    if (stored) {
      await opts.store.complete(scope, stored);
      claim.stored = true;
    } else {
      await opts.store.release(scope, owner);
    }
  };
}
