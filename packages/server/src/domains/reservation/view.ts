/** What every reservation view shows alike: the request, the money, the owner and the timestamps. */
import { bookingFx } from '../../search/exchange.ts';
import { iso, type MoneyValue, parseJson } from './tables.ts';

export function reservationFields(r: Record<string, unknown>) {
  return {
    special_requests: (r.special_requests as string | null) ?? null,
    total: { currency: r.currency as string, amount_minor: Number(r.total_minor) },
    ...bookingFx(r),
    cancellation_fee: parseJson<MoneyValue | null>(r.cancellation_fee) ?? null,
    user_id: r.user_id as string,
    company_id: (r.company_id as number | null) ?? null,
    created_at: iso(r.created_at as Date),
    updated_at: iso(r.updated_at as Date),
  };
}
