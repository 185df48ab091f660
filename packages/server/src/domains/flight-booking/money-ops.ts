/**
 * Intent rows of money and ticket-state operations (migration 0060, `booking_money_ops`).
 *
 * Every operation that moves money or changes a booking's payment or ticket state runs in three steps:
 * 1. `beginOp`: one short transaction locks the booking row (`SELECT … FOR UPDATE`), refuses a booking with
 *    an operation already in flight (409 `operation_in_progress`), runs the operation's own checks on the
 *    locked row (its 400s), and commits the intent row (`requested`) with its deterministic `reference`
 *    (the provider's Idempotency-Key), the idempotency lease of the request that owns it (`owner_scope`),
 *    and a `money.reconcile` job due after `moneyReconcileDelayMs()` (a few seconds).
 * 2. The provider or supplier call, outside any transaction (PGlite is one connection; see its dialect).
 * 3. `settleOp` in the transaction that records the outcome (`done` / `failed`), or `markPending` when the
 *    outcome is unknown: the job is re-armed to run at once and settles it by asking the provider.
 * A crash between 1 and 3 leaves the row `requested` and its job due: the job settles it the same way.
 * The job leaves an op alone while its owner is alive (the request's idempotency lease is held: its
 * heartbeat renews it, see idempotency-store.ts; a request without a key counts as alive for
 * KEYLESS_OWNER_MS); once the lease lapses (the process died) it settles the op at once, and a request that
 * meets the op pulls its job forward. So a booking answers 409 `operation_in_progress` for at most about one
 * lease (IDEMPOTENCY_LEASE_SECONDS) plus the job's poll after its owner died.
 * The partial unique index `booking_money_ops_one_in_flight` backs the lock: one in-flight op per booking.
 *
 * One file per step under money-ops/: ops.ts (the rows and their reads), begin.ts (1), settle.ts (3),
 * answers.ts (what a settled op answers) and retry.ts (a same-key retry); this file is their one import.
 */

export { recordAnswer, recordedAnswer, rewritePendingAnswer } from './money-ops/answers.ts';
export { beginOp, ownerAlive } from './money-ops/begin.ts';
export {
  callWindowOver,
  countLook,
  findOp,
  IN_PROGRESS,
  idemKey,
  inFlightOp,
  isAmbiguous,
  MONEY_RECONCILE_QUEUE,
  type MoneyOp,
  type MoveResult,
  type OpKind,
  opsDb,
  opsOf,
  referenceOf,
  SERVICE_OP_KINDS,
} from './money-ops/ops.ts';
export { answerRetry } from './money-ops/retry.ts';
export { failOp, markPending, settleOp } from './money-ops/settle.ts';
