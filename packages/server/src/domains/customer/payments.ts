/** Customer: own payments and receipts. Another customer's payment is exactly a missing one. */
import { storedCurrency } from '../../internal/money.ts';
import { notFound } from '../../kernel/errors.ts';
import type { Routes } from '../../kernel/types.ts';
import { keysetBody } from '../../storage/keyset-list.ts';
import { type AccountsDeps, ok, paging } from '../accounts/index.ts';
import { findBooking } from '../flight-booking/index.ts';
import { findPayment, listPaymentRows, paymentsWithTransactions } from '../flight-booking/payment/index.ts';

export function customerPaymentRoutes(d: AccountsDeps): Routes {
  const { db } = d;
  return {
    customerListPayments: async (ctx) => {
      const p = paging(ctx);
      // Newest first; the cursor is read among the customer's own payments.
      const r = await listPaymentRows(db, {
        userId: ctx.auth?.userId as string,
        page: p.page,
        page_size: p.page_size,
        ...(ctx.query.starting_after ? { startingAfter: ctx.query.starting_after } : {}),
      });
      return ok(keysetBody(await paymentsWithTransactions(db, r.items), r, p));
    },

    customerGetReceipt: async (ctx) => {
      const missing = () => notFound('payment_not_found', 'Payment not found.');
      const pay = await findPayment(db, ctx.params.payment_id);
      if (!pay) throw missing();
      const b = await findBooking(db, pay.booking_id);
      if (!b || b.user_id !== ctx.auth?.userId) throw missing();
      const u = await db
        .selectFrom('users')
        .select(['full_name', 'email'])
        .where('id', '=', b.user_id)
        .executeTakeFirstOrThrow();
      const pr = b.pricing;
      const lines = [
        { description: 'Base fare', amount_minor: Number(pr.base_minor ?? 0) },
        { description: 'Taxes and fees', amount_minor: Number(pr.taxes_minor ?? 0) },
        { description: 'Service fee', amount_minor: Number(pr.markup_minor ?? 0) },
        { description: 'Baggage', amount_minor: Number(pr.bags_minor ?? 0) },
      ].filter((l) => l.amount_minor !== 0);
      return ok({
        receipt_number: `RCPT-${String(pay.id).padStart(8, '0')}`,
        payment_id: pay.id,
        booking_id: b.id,
        pnr: b.pnr,
        state: pay.state,
        amount_minor: pay.amount_minor,
        captured_minor: pay.captured_minor,
        refunded_minor: pay.refunded_minor,
        currency: storedCurrency(pay.currency),
        line_items: lines,
        customer: { full_name: u.full_name, email: u.email },
        issued_at: pay.updated_at.toISOString(),
      });
    },
  };
}
