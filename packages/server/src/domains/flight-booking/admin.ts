/** Admin surface of flight bookings: list, detail with audit trail, status override, reconciliation. */
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { OperationContext, RequestContext } from '../../kernel/types.ts';
import { ancillaryView, listAncillaries } from './ancillary/index.ts';
import type { BookingDeps } from './deps.ts';
import { keysetBody, listBookings } from './list-query.ts';
import { listPayments, paymentView, transactionsOf } from './payment/index.ts';
import { itemView, queueReconcile, reconcileQueuePage } from './reconcile.ts';
import { type BookingRow, findBooking, setStatus } from './store.ts';
import { bookingDb, parseJson } from './tables.ts';
import { storedTickets } from './ticketing/index.ts';
import { bookingView } from './view.ts';

export class BookingAdmin {
  readonly #d: BookingDeps;
  constructor(d: BookingDeps) {
    this.#d = d;
  }

  /** A super_admin sees every company; the `company_id` filter narrows. */
  async #load(ctx: RequestContext): Promise<BookingRow> {
    const b = await findBooking(this.#d.db, String(ctx.params.booking_id));
    const a = ctx.auth;
    if (!b || !a || (a.role !== 'super_admin' && b.company_id !== a.companyId))
      throw notFound('booking_not_found', 'Booking not found.');
    return b;
  }

  async list(ctx: OperationContext<'adminListBookings'>) {
    const q = ctx.query;
    const own = ctx.auth?.role === 'super_admin' ? (q.company_id ?? null) : ctx.auth?.companyId;
    const page = q.page ?? 1;
    const pageSize = q.page_size ?? 20;
    const r = await listBookings(this.#d.db, {
      ...q,
      page,
      page_size: pageSize,
      company_id: own ?? null,
    });
    return keysetBody(r, { page, page_size: pageSize });
  }

  async detail(ctx: OperationContext<'adminGetBooking'>) {
    const b = await this.#load(ctx);
    const db = this.#d.db;
    const txs = await transactionsOf(db, b.id);
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_type', '=', 'booking')
      .where('entity_id', '=', String(b.id))
      .orderBy('id')
      .execute();
    return {
      ...bookingView(b),
      payments: (await listPayments(db, b.id)).map((p) => paymentView(p, txs)),
      tickets: await storedTickets(db, b.id),
      ancillaries: (await listAncillaries(db, b.id)).map(ancillaryView),
      audit_trail: audit.map((e) => ({
        audit_id: Number(e.id),
        event: `booking.${e.action}`,
        actor_user_id: e.actor_id,
        impersonator_id: e.impersonator_id,
        company_id: e.company_id,
        target_type: e.entity_type,
        target_id: e.entity_id,
        details: {
          ...(parseJson<Record<string, unknown> | null>(e.changes) ?? {}),
          ...(e.reason ? { reason: e.reason } : {}),
        },
        ip: e.ip,
        request_id: e.request_id,
        created_at: new Date(e.at).toISOString(),
      })),
    };
  }

  /** The spec's escape hatch: any listed status, a reason, an audit row, and mail when asked. */
  async override(ctx: OperationContext<'adminOverrideBookingStatus'>) {
    const b = await this.#load(ctx);
    const body = ctx.body;
    const after = await this.#d.db.transaction().execute(async (trx) => {
      // Under the booking row lock, like every operation that moves the booking's money or tickets.
      const locked = (await findBooking(trx, b.id, { forUpdate: true })) ?? b;
      const a = await setStatus(trx, locked, body.new_status, this.#d.clock.now(), {}, 'override');
      await writeAudit(trx, ctx, {
        entity: 'booking',
        entityId: b.id,
        action: 'status_overridden',
        reason: body.reason,
        changes: { from: b.status, to: a.status, notify_customer: !!body.notify_customer },
        companyId: b.company_id,
      });
      return a;
    });
    if (body.notify_customer) {
      await this.#d.mailer.send({
        to: b.contact.email,
        subject: `Your booking ${b.pnr ?? b.id} is now ${after.status}`,
        text: `The status of your flight booking ${b.pnr ?? b.id} changed from ${b.status} to ${after.status}.\n\nReason: ${body.reason}\n`,
      });
    }
    return bookingView(after);
  }

  /** Queues the booking; without force only a booking still waiting for its supplier outcome. */
  async reconcile(ctx: OperationContext<'adminReconcileBooking'>) {
    const b = await this.#load(ctx);
    const force = ctx.body?.force === true;
    if (!force && b.status !== 'pending_pnr' && b.status !== 'initiated') {
      throw badRequest(
        'not_reconcilable',
        `A booking in status ${b.status} has nothing to reconcile; use force.`,
      );
    }
    await this.#d.db.transaction().execute(async (trx) => {
      await queueReconcile(trx, b.id, this.#d.clock, { force });
      await writeAudit(trx, ctx, {
        entity: 'booking',
        entityId: b.id,
        action: 'reconcile_queued',
        changes: { force },
        companyId: b.company_id,
      });
    });
    const row = await bookingDb(this.#d.db)
      .selectFrom('booking_reconciliation_queue')
      .selectAll()
      .where('booking_id', '=', b.id)
      .executeTakeFirstOrThrow();
    return itemView(row);
  }

  async queue(ctx: OperationContext<'adminGetReconciliationQueue'>) {
    return reconcileQueuePage(this.#d.db, ctx.query.page ?? 1, ctx.query.page_size ?? 20);
  }
}
