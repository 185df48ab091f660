/**
 * Walks `{ items, total, page, page_size }` list endpoints page by page, lazily: nothing is fetched until
 * the loop asks for the next item, and breaking out of the loop stops fetching.
 */

/** One page as every list endpoint returns it. */
export interface Page<TItem> {
  items: TItem[];
  total: number;
  page: number;
  page_size: number;
  /** Keyset lists: whether a page follows (then `total` is no stop signal of its own). */
  has_more?: boolean;
  /** Keyset lists: `total` is the server's estimate (beyond its exact bound), not a count. */
  total_estimated?: boolean;
}

/** An async iterable of items that can also hand out whole pages. */
export interface PageIterator<TItem> extends AsyncIterable<TItem> {
  /** The same walk, one page at a time (for "showing 21-40 of 312"). */
  pages(): AsyncIterable<Page<TItem>>;
}

/**
 * Turns a page fetcher into an item iterator. Stops at `has_more: false`, at an empty page, at a short
 * page, or at `total` when the list says it is exact (an estimated total may be lower than the real count).
 *
 * @example
 * const all = paginate((page) => fetchBookings({ page, page_size: 50 }));
 * for await (const booking of all) console.log(booking.booking_id);
 */
export function paginate<TItem>(
  fetchPage: (page: number) => Promise<Page<TItem>>,
  firstPage = 1,
): PageIterator<TItem> {
  async function* pages(): AsyncGenerator<Page<TItem>> {
    let seen = 0;
    for (let page = firstPage; ; page++) {
      const current = await fetchPage(page);
      yield current;
      seen += current.items.length;
      const short = current.page_size > 0 && current.items.length < current.page_size;
      const counted = current.total_estimated !== true && current.has_more === undefined;
      if (
        current.items.length === 0 ||
        short ||
        current.has_more === false ||
        (counted && seen + (firstPage - 1) * current.page_size >= current.total)
      )
        return;
    }
  }
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
  };
}
