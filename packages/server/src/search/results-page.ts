/** GET …/results/{id}: the offers so far, filtered, sorted and paginated in memory (one search is small). */
import { fromMinor } from '../internal/money.ts';
import type { StoredOffer } from './batch-reader.ts';

export interface ResultsQuery {
  page: number;
  page_size: number;
  min_price?: number;
  max_price?: number;
  min_stars?: number;
  transfer_type?: string;
  vehicle_category?: string;
  sort_by?: string;
}

type O = Record<string, any>;

const price = (o: StoredOffer): number =>
  fromMinor(o.total_minor, String((o.offer as O).price?.currency ?? 'USD'));

const SORTS: Record<string, (a: StoredOffer, b: StoredOffer) => number> = {
  price_asc: (a, b) => a.total_minor - b.total_minor,
  price_desc: (a, b) => b.total_minor - a.total_minor,
  star_rating: (a, b) =>
    ((b.offer as O).hotel?.star_rating ?? 0) - ((a.offer as O).hotel?.star_rating ?? 0) ||
    a.total_minor - b.total_minor,
  distance: (a, b) =>
    ((a.offer as O).hotel?.distance_km ?? Number.POSITIVE_INFINITY) -
      ((b.offer as O).hotel?.distance_km ?? Number.POSITIVE_INFINITY) || a.total_minor - b.total_minor,
  duration: (a, b) =>
    ((a.offer as O).duration_minutes ?? Number.POSITIVE_INFINITY) -
      ((b.offer as O).duration_minutes ?? Number.POSITIVE_INFINITY) || a.total_minor - b.total_minor,
  vehicle_category: (a, b) =>
    String((a.offer as O).vehicle?.category ?? '').localeCompare(
      String((b.offer as O).vehicle?.category ?? ''),
    ) || a.total_minor - b.total_minor,
};

export function resultsPage(all: StoredOffer[], q: ResultsQuery): { items: unknown[]; total: number } {
  const eq = (a: unknown, b: string) => String(a ?? '').toLowerCase() === b.toLowerCase();
  const matching = all.filter((o) => {
    const x = o.offer as O;
    if (q.min_price !== undefined && price(o) < q.min_price) return false;
    if (q.max_price !== undefined && price(o) > q.max_price) return false;
    if (q.min_stars !== undefined && (x.hotel?.star_rating ?? 0) < q.min_stars) return false;
    if (q.transfer_type && !eq(x.transfer_type, q.transfer_type)) return false;
    if (q.vehicle_category && !eq(x.vehicle?.category, q.vehicle_category)) return false;
    return true;
  });
  // Sorting is stable, so ties keep arrival order.
  matching.sort(SORTS[q.sort_by ?? 'price_asc'] ?? SORTS.price_asc);
  const start = (q.page - 1) * q.page_size;
  return { items: matching.slice(start, start + q.page_size).map((o) => o.offer), total: matching.length };
}
