/** What every reservation view shows alike: the request, the money, the owner and the timestamps. */
import { SERVICE_BOOKING_STATUSES } from '@travel/contract';
import { storedCurrency } from '../../internal/money.ts';
import { oneOf, stringOr, timestampText } from '../../internal/narrow.ts';
import { bookingFx } from '../../search/exchange.ts';
import { type MoneyValue, parseJson } from './tables.ts';

/** The row's status (a check constraint of 0040: the contract's hotel and transport booking statuses). */
export const rowStatus = (r: Record<string, unknown>) =>
  oneOf(SERVICE_BOOKING_STATUSES, r.status, 'reservation status');

export function reservationFields(r: Record<string, unknown>) {
  const fee = parseJson<MoneyValue | null>(r.cancellation_fee) ?? null;
  return {
    special_requests: stringOr(r.special_requests, null),
    total: { currency: storedCurrency(String(r.currency)), amount_minor: Number(r.total_minor) },
    ...bookingFx(r),
    cancellation_fee: fee && { currency: storedCurrency(fee.currency), amount_minor: fee.amount_minor },
    user_id: String(r.user_id),
    company_id: typeof r.company_id === 'number' ? r.company_id : null,
    created_at: timestampText(r.created_at, 'created_at'),
    updated_at: timestampText(r.updated_at, 'updated_at'),
  };
}
