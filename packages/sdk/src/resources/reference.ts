/** Airline and airport suggestions (no token needed). */
import { unwrap } from '../core/result.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import type { QueryOf } from './types.ts';

/**
 * The `reference` namespace.
 *
 * @example
 * const { items } = await travel.reference.airports({ query: 'heathrow' });
 */
export function referenceResource(ctx: ClientContext) {
  return {
    airlines: (query: QueryOf<'/api/v1/airlines/search', 'get'>, options?: RequestOptions) =>
      unwrap(ctx.raw.GET('/api/v1/airlines/search', { params: { query }, ...ctx.init(options) })),
    airports: (query: QueryOf<'/api/v1/airports/search', 'get'>, options?: RequestOptions) =>
      unwrap(ctx.raw.GET('/api/v1/airports/search', { params: { query }, ...ctx.init(options) })),
  };
}
