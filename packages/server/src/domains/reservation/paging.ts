import type { RequestContext } from '../../kernel/types.ts';
import type { ListFilter } from './queries.ts';

/** The list filters every booking list accepts, read from the (already validated) query. */
export function listQuery(ctx: RequestContext): ListFilter {
  const q = ctx.query;
  const s = (k: string) => (typeof q[k] === 'string' && q[k] !== '' ? (q[k] as string) : undefined);
  return {
    page: (q.page as number | undefined) ?? 1,
    pageSize: (q.page_size as number | undefined) ?? 20,
    status: s('status'),
    provider: s('provider'),
    dateFrom: s('date_from'),
    dateTo: s('date_to'),
    search: s('search'),
    sortBy: s('sort_by') as ListFilter['sortBy'],
    sortOrder: s('sort_order') as ListFilter['sortOrder'],
    ...(typeof q.starting_after === 'number' ? { startingAfter: q.starting_after } : {}),
  };
}

export const pageOf = <T>(
  items: T[],
  r: { total: number; estimated: boolean; hasMore: boolean },
  f: ListFilter,
) => ({
  items,
  total: r.total,
  total_estimated: r.estimated,
  has_more: r.hasMore,
  page: f.page ?? 1,
  page_size: f.pageSize ?? 20,
});
