/** Adapts a typed list call to the pagination iterator. */
import { type Page, type PageIterator, paginate } from '../core/pagination.ts';
import type { ItemOf } from './types.ts';

/**
 * Walks a `{ items, total, page, page_size }` list starting at `first`.
 *
 * @example
 * const users = listPages((page) => unwrap(ctx.raw.GET('/api/v1/admin/users', { params: { query: { page } } })));
 */
export function listPages<TPage>(
  fetchPage: (page: number) => Promise<TPage>,
  first = 1,
): PageIterator<ItemOf<TPage>> {
  return paginate((page) => fetchPage(page) as Promise<unknown> as Promise<Page<ItemOf<TPage>>>, first);
}
