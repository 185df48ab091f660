import type { JsonResult, RequestContext } from '../../kernel/types.ts';
import { inBookingCurrency } from '../../search/exchange.ts';
import type { ReservationDeps, ReservationRow } from './book.ts';
import type { CancelKind, Money } from './cancel.ts';
import { getRow } from './queries.ts';
import { nextStatus, type ReservationStatus } from './state-machine.ts';
import { moveStatus } from './status-change.ts';
import { json, parseJson, type ServiceDb } from './tables.ts';

// A cancellation the provider confirmed: recorded (cancel.ts when the request settles it, cancel-check.ts
// when the job does), and the answer its request and same-key retries get.

/** Records the cancellation (fee where known) and clears the intent; returns the row as it now is. */
export async function markCancelled(
  trx: ServiceDb,
  k: CancelKind,
  row: ReservationRow,
  clock: ReservationDeps['clock'],
  ctx: RequestContext | null,
  supplierMoney: { fee: Money; refund: Money } | null,
): Promise<ReservationRow> {
  // The provider's fee in the booking's currency, at the booking's rate (search/exchange.ts).
  const money = supplierMoney && {
    fee: inBookingCurrency(supplierMoney.fee, row),
    refund: inBookingCurrency(supplierMoney.refund, row),
  };
  const from = row.status as ReservationStatus;
  const to = from === 'cancelled' ? from : nextStatus(k.kind)(from, ctx ? 'cancel' : 'supplier_cancelled');
  await moveStatus(trx, k.kind, row, to, clock, {
    ctx,
    action: 'cancelled',
    ...(ctx ? {} : { reason: 'Reconciliation: the provider reports the booking cancelled.' }),
    // The asking request's scope stays: its same-key retry is answered with this cancellation.
    set: { cancel_requested_at: null, cancellation_fee: money ? json(money.fee) : null },
    details: {
      ...(money ? { fee: money.fee, refund: money.refund } : { fee: 'unknown' }),
      payment: noCardPayment({ currency: row.currency as string }),
    },
  });
  return (await getRow(trx, k.kind, row.id)) as ReservationRow;
}

/**
 * The money side of a cancellation (issue #18): hotel and transport bookings are not paid by card through
 * the platform (payments belong to flight bookings), so a cancellation refunds nothing here, and says so.
 */
const noCardPayment = (row: { currency: string }) => ({
  action: 'none',
  amount_minor: 0,
  currency: row.currency,
  status: 'not_charged',
});

export function cancelledAnswer(row: ReservationRow): JsonResult {
  const fee = parseJson<Money | null>(row.cancellation_fee) ?? null;
  const total = { currency: row.currency as string, amount_minor: Number(row.total_minor) };
  const body: Record<string, unknown> = {
    booking_id: row.id,
    status: row.status,
    cancelled: true,
    payment: noCardPayment({ currency: total.currency }),
  };
  if (fee) {
    body.cancellation_fee = fee;
    body.refund = {
      currency: fee.currency,
      amount_minor: Math.max(0, total.amount_minor - fee.amount_minor),
    };
  }
  return { status: 200, body };
}
