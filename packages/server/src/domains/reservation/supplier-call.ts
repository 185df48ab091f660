/** The options of a reservation's supplier call for one request (hotel and transport alike). */
import type { RequestContext } from '../../kernel/types.ts';
import type { CallOptions } from '../../suppliers/ports/errors.ts';
import { refOwner } from '../../suppliers/signed-refs.ts';

/** Its signal, and the tenant the signed references (rate_key, quote_id) are bound to (issue 28). */
export const callFor = (ctx: Pick<RequestContext, 'signal' | 'auth'>): CallOptions => ({
  signal: ctx.signal,
  ...(ctx.auth ? { owner: refOwner(ctx.auth) } : {}),
});
