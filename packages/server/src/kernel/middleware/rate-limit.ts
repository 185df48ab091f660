import type { RateRule } from '../../internal/config.ts';
import { QuotaLeases } from '../../rate-limit/quota-leases.ts';
import type { RateLimitStore } from '../../rate-limit/rate-limit-store.ts';
import type { Middleware } from '../compose.ts';
import type { Operation } from '../contract.ts';
import { tooManyRequests } from '../errors.ts';

export type RateClass = 'search' | 'stream';

/** `x-rate-limit` names the class; `x-rate-limited: true` means search (or stream when SSE). */
export function rateClassOf(op: Operation): RateClass | undefined {
  // The auth domain limits its own operations (per account and per address).
  if (op.path.startsWith('/api/v1/auth/')) return undefined;
  const declared = op.raw['x-rate-limit'];
  if (declared === 'search' || declared === 'stream') return declared;
  if (op.sse) return 'stream';
  if (op.raw['x-rate-limited'] === true) return 'search';
  if (op.method === 'POST' && (/search/i.test(op.operationId) || /\/search(\/|$)/.test(op.path)))
    return 'search';
  return undefined;
}

/**
 * Per caller (user id, else client address) and class; 429 with Retry-After when over. The hits come from
 * blocks reserved in the shared counters (`QuotaLeases`): a caller far below its limit is answered without
 * a statement, and no more than the limit is granted per window across all processes. Every answer of a
 * limited operation says the budget: `RateLimit-Limit`, `-Remaining`, `-Reset` (seconds) and `-Policy`.
 */
export function rateLimit(opts: { store: RateLimitStore; rules: Record<RateClass, RateRule> }): Middleware {
  const leases = new QuotaLeases(opts.store);
  return async function rateLimitMiddleware(ex, next) {
    const cls = ex.operation && rateClassOf(ex.operation);
    if (cls) {
      const who = ex.ctx.auth ? `user:${ex.ctx.auth.userId}` : `ip:${ex.ctx.ip}`;
      const rule = opts.rules[cls];
      const d = await leases.hit(`${cls}:${who}`, rule);
      // On success and on 429 alike (the contract declares them on both): the caller's budget.
      const h = ex.responseHeaders;
      h['ratelimit-limit'] = String(rule.limit);
      h['ratelimit-remaining'] = String(d.remaining);
      h['ratelimit-reset'] = String(d.resetSeconds);
      h['ratelimit-policy'] = `${rule.limit};w=${rule.windowSeconds}`;
      if (!d.allowed) throw tooManyRequests(d.retryAfterSeconds);
    }
    await next();
  };
}
