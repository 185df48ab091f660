/**
 * The payment sub-aggregate as one object, for those that hand it around: the parent's booking service
 * and cancel (cancel.ts, cancel-settle.ts), ticketing's port and the job handlers (../routes.ts), and the
 * admin's manual refund. Each method is an operation of this folder, in the file named beside it.
 */
import type { HandlerResult, JsonResult, OperationContext, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import type { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { BookingDeps } from '../deps.ts';
import type { MoneyOp, MoveResult } from '../money-ops.ts';
import type { BookingRow } from '../store.ts';
import { answerOf, pendingAnswer } from './answers.ts';
import { type AfterAuthorize, authorize } from './authorize.ts';
import { movementEndpoint } from './capture-void-refund.ts';
import { history } from './history.ts';
import { moveWithin } from './move-within.ts';
import { callMovement, type Movement, type MovePlan, planMovement } from './movement.ts';
import { reconcile } from './reconcile.ts';
import { failMovement, recordMovement } from './record-movement.ts';
import { runMovement } from './run-movement.ts';
import type { PaymentRow } from './store.ts';

export class PaymentService {
  readonly #d: BookingDeps;
  constructor(d: BookingDeps) {
    this.#d = d;
  }

  /** authorize.ts */
  authorize(
    ctx: OperationContext<'authorizePayment'>,
    afterAuthorized?: (b: BookingRow) => Promise<AfterAuthorize | undefined>,
  ): Promise<HandlerResult> {
    return authorize(this.#d, this, ctx, afterAuthorized);
  }

  /** answers.ts */
  answerOf(db: Db, op: MoneyOp): Promise<JsonResult | null> {
    return answerOf(db, op);
  }

  /** movement.ts */
  planMovement(
    trx: Db,
    b: BookingRow,
    p: PaymentRow,
    kind: Movement,
    amount: number | undefined,
    reason: string | undefined | null,
    key: string,
  ): Promise<MovePlan> {
    return planMovement(this.#d, trx, b, p, kind, amount, reason, key);
  }

  /** movement.ts */
  callMovement(plan: MovePlan, signal?: AbortSignal): Promise<MoveResult> {
    return callMovement(this.#d, plan, signal);
  }

  /** record-movement.ts */
  recordMovement(
    trx: Db,
    bookingId: number,
    plan: MovePlan,
    r: { provider_ref: string | null; amount: number },
    now: Date,
  ): Promise<PaymentRow> {
    return recordMovement(trx, bookingId, plan, r, now);
  }

  /** record-movement.ts */
  failMovement(trx: Db, plan: MovePlan, error: SupplierError): Promise<void> {
    return failMovement(trx, plan, error);
  }

  /** run-movement.ts */
  runMovement(
    ctx: RequestContext,
    op: MoneyOp,
    bookingId: number,
    plan: MovePlan,
    after?: (trx: Db, pay: PaymentRow, pending: boolean) => Promise<void>,
  ): Promise<HandlerResult> {
    return runMovement(this.#d, ctx, op, bookingId, plan, after);
  }

  /** answers.ts */
  pendingAnswer(db: Db, op: MoneyOp): Promise<JsonResult> {
    return pendingAnswer(db, op);
  }

  /** capture-void-refund.ts */
  capture(ctx: OperationContext<'capturePayment'>): Promise<HandlerResult> {
    return movementEndpoint(this.#d, this, ctx, 'capture');
  }

  /** capture-void-refund.ts */
  void(ctx: OperationContext<'voidPayment'>): Promise<HandlerResult> {
    return movementEndpoint(this.#d, this, ctx, 'void');
  }

  /** capture-void-refund.ts */
  refund(ctx: OperationContext<'refundPayment'>): Promise<HandlerResult> {
    return movementEndpoint(this.#d, this, ctx, 'refund');
  }

  /** move-within.ts */
  moveWithin(
    op: MoneyOp,
    b: BookingRow,
    kind: Movement,
    amount: number | undefined,
    reason: string,
    key: string,
  ): Promise<(trx: Db) => Promise<PaymentRow | undefined>> {
    return moveWithin(this.#d, op, b, kind, amount, reason, key);
  }

  /** history.ts */
  history(ctx: OperationContext<'getPaymentHistory'>) {
    return history(this.#d, ctx);
  }

  /** reconcile.ts */
  reconcile(op: MoneyOp): Promise<void> {
    return reconcile(this.#d, this, op);
  }
}
