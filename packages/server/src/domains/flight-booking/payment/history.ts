import type { OperationContext } from '../../../kernel/types.ts';
import type { BookingDeps } from '../deps.ts';
import { loadBooking } from '../store.ts';
import { listPayments, paymentView, transactionsOf } from './store.ts';

/** GET …/payment/history: every payment of the booking with its transactions. */
export async function history(d: BookingDeps, ctx: OperationContext<'getPaymentHistory'>) {
  const b = await loadBooking(d.db, ctx, ctx.params.booking_id);
  const txs = await transactionsOf(d.db, b.id);
  const payments = (await listPayments(d.db, b.id)).map((p) => paymentView(p, txs));
  return { booking_id: b.id, payments, transactions: txs };
}
