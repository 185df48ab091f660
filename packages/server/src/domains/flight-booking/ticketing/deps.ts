import type { RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import type { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { BookingDeps } from '../deps.ts';
import type { MoneyOp, MoveResult } from '../money-ops.ts';
import type { BookingRow } from '../store.ts';

/** Who moves the booking: the caller of a read endpoint, or the follow-up job (null: system). */
export type Actor = RequestContext | null;

/** The booking's payment as ticketing sees it: its state, to decide whether a capture is due. */
interface TicketPayment {
  id: number;
  state: string;
}

/** A capture decided under the booking lock (payment/movement.ts `MovePlan`). */
interface CapturePlan {
  payment: { id: number };
  amount: number;
  key: string;
}

/**
 * What ticketing asks of the payment sub-aggregate. Ticketing never imports payment/: ../routes.ts wires
 * PaymentService and the payment store in (the capture that a ticket request takes, and the payment shown
 * in its answer).
 */
export interface TicketPayments {
  latest(db: Db, bookingId: number, forUpdate?: boolean): Promise<TicketPayment | undefined>;
  view(db: Db, p: TicketPayment): Promise<unknown>;
  planCapture(trx: Db, b: BookingRow, p: TicketPayment, key: string): Promise<CapturePlan>;
  callMovement(plan: CapturePlan, signal?: AbortSignal): Promise<MoveResult>;
  failMovement(trx: Db, plan: CapturePlan, error: SupplierError): Promise<unknown>;
  recordMovement(
    trx: Db,
    bookingId: number,
    plan: CapturePlan,
    r: Extract<MoveResult, { ok: true }>,
    now: Date,
  ): Promise<unknown>;
  /** Settles a payment op (authorize, capture, void, refund, manual refund, cancel) by asking the provider. */
  reconcile(op: MoneyOp): Promise<void>;
  /**
   * Gives the money back for a booking a confirmed void or refund left in TICKET_SETTLES, once; what it did,
   * for the answer (payment/ticket-settlement.ts).
   */
  settleTicketChange(bookingId: number, ctx?: RequestContext | null): Promise<unknown>;
  /** Refunds the whole capture of a booking left `paid` without a ticket (payment/unticketed-refund.ts). */
  refundUnticketed(bookingId: number, reason: string): Promise<unknown>;
  /** What a confirmed action the consolidator still works on will give back (nothing moved yet). */
  projectedSettlement(
    db: Db,
    b: BookingRow,
    quote: {
      refund?: { amount_minor: number; currency: string } | undefined;
      fee?: { amount_minor: number; currency: string } | undefined;
    },
  ): Promise<unknown>;
  /** The backstop job of a settlement, queued in the transaction that moves the booking. */
  queueTicketSettlement(trx: Db, bookingId: number): Promise<void>;
}

/** What the ticketing operations are built from; ../routes.ts wires it. */
export interface TicketingDeps {
  d: BookingDeps;
  payments: TicketPayments;
  /** Settles the ancillary sub-aggregate's ops (SERVICE_OP_KINDS) met by the money job. */
  reconcileService: (op: MoneyOp) => Promise<void>;
}
