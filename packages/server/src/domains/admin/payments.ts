/**
 * Admin: payments across tenants, the settlement report and manual refunds. A manual refund is a money
 * operation like any other: decided under the booking lock with its intent written ahead, then the
 * provider (keyed by the request's Idempotency-Key so a retry never refunds twice), then one transaction
 * records it, audits it and stores the idempotent response (202 pending when the answer was lost).
 */
import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { Routes } from '../../kernel/types.ts';
import { keysetBody } from '../../storage/keyset-list.ts';
import { dayRange, num, ok, paging, periodRange } from '../accounts/index.ts';
import { answerRetry, beginOp, bookingDb, findBooking, idemKey } from '../flight-booking/index.ts';
import {
  findPayment,
  findPaymentById,
  listPaymentRows,
  movementDetail,
  PaymentService,
  paymentsWithTransactions,
} from '../flight-booking/payment/index.ts';
import type { AdminDeps } from './deps.ts';

export function adminPaymentRoutes(d: AdminDeps): Routes {
  const { db, clock } = d;
  const service = d.suppliers
    ? new PaymentService({ db, clock, mailer: d.mailer, suppliers: d.suppliers })
    : undefined;
  return {
    adminListPayments: async (ctx) => {
      const p = paging(ctx);
      const q = ctx.query;
      const { from, to } = dayRange(q);
      const r = await listPaymentRows(db, {
        ...(q.payment_state ? { state: q.payment_state } : {}),
        ...(q.provider_name ? { provider: q.provider_name } : {}),
        ...(q.company_id !== undefined ? { companyId: q.company_id } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        sortBy: q.sort_by,
        sortOrder: q.sort_order,
        page: p.page,
        page_size: p.page_size,
        ...(q.starting_after ? { startingAfter: q.starting_after } : {}),
      });
      return ok(keysetBody(await paymentsWithTransactions(db, r.items), r, p));
    },

    adminGetSettlementReport: async (ctx) => {
      const r = periodRange(String(ctx.query.period ?? '30d'), clock.now());
      const rows = await bookingDb(db)
        .selectFrom('booking_payments')
        .select([
          'currency',
          sql<number>`count(*)`.as('payments'),
          sql<number>`coalesce(sum(amount_minor) filter (where state not in ('PENDING', 'FAILED')), 0)`.as(
            'authorized',
          ),
          sql<number>`coalesce(sum(captured_minor), 0)`.as('captured'),
          sql<number>`coalesce(sum(refunded_minor), 0)`.as('refunded'),
          sql<number>`coalesce(sum(captured_minor) filter (where state in ('SETTLED')), 0)`.as('settled'),
        ])
        .where('created_at', '>=', r.from)
        .where('created_at', '<=', r.to)
        .groupBy('currency')
        .orderBy('currency')
        .execute();
      return ok({
        period: r.period,
        from: r.from.toISOString(),
        to: r.to.toISOString(),
        items: rows.map((x) => ({
          currency: String(x.currency).trim(),
          payments: num(x.payments),
          authorized_minor: num(x.authorized),
          captured_minor: num(x.captured),
          refunded_minor: num(x.refunded),
          settled_minor: num(x.settled),
          net_minor: num(x.captured) - num(x.refunded),
        })),
      });
    },

    adminManualRefund: async (ctx) => {
      const body = ctx.body;
      const p = await findPayment(db, ctx.params.payment_id);
      if (!p) throw notFound('payment_not_found', 'Payment not found.');
      if (body.currency !== p.currency)
        throw badRequest('currency_mismatch', `The payment is in ${p.currency}.`);
      const b = await findBooking(db, p.booking_id);
      if (!b) throw notFound('payment_not_found', 'Payment not found.');
      if (!service) throw badRequest('refund_failed', 'No payment provider is configured.');
      const key = `pay${p.id}:manual-refund:${idemKey(ctx)}`;
      // A same-key retry of a request that died (its key's lease lapsed before an answer was stored) is
      // answered from the op it wrote ahead, never re-decided (which could refund a second time).
      const prior = await answerRetry({
        db,
        ctx,
        bookingId: b.id,
        kind: 'manual_refund',
        settle: (op) => service.reconcile(op),
        answer: (d, op) => service.answerOf(d, op),
        pending: (d, op) => service.pendingAnswer(d, op),
      });
      if (prior && 'answer' in prior) return prior.answer;
      // Serialized with every other money operation of the booking, written ahead (flight-booking/money-ops.ts).
      const { op, result: plan } = await beginOp({
        db,
        clock,
        bookingId: b.id,
        kind: 'manual_refund',
        key,
        requestId: ctx.requestId,
        ctx,
        check: async (trx, locked) => {
          const fresh = await findPaymentById(trx, p.id, true);
          if (!fresh) throw notFound('payment_not_found', 'Payment not found.');
          return service.planMovement(trx, locked, fresh, 'refund', body.amount_minor, body.reason, key);
        },
        detail: (pl) => ({ payment_id: pl.payment.id, detail: movementDetail(pl) }),
      });
      return service.runMovement(ctx, op, b.id, plan, async (trx, pay, pending) => {
        await writeAudit(trx, ctx, {
          entity: 'payment',
          entityId: p.id,
          action: 'manual_refund',
          reason: body.reason,
          changes: {
            booking_id: b.id,
            amount_minor: body.amount_minor,
            currency: body.currency,
            from: p.state,
            to: pay.state,
            ...(pending ? { outcome: 'pending' } : {}),
          },
          companyId: b.company_id,
        });
      });
    },
  };
}
