/**
 * The `money.reconcile` job for paid service changes whose supplier answer was lost (a crash, a timeout,
 * a reset or a 5xx after the request reached the supplier). It reads the order back from the supplier
 * (`orderServices`: its seats and service elements with their EMDs) and records what it finds, exactly as
 * the request would have recorded the answer:
 * - seats issue: the op's pending seats that the supplier now holds confirmed are confirmed (with EMDs);
 * - ancillary purchase: the service elements on the order that were not there before the purchase (a
 *   snapshot taken after the intent, while the op held the booking) are this purchase's and are held;
 * - EMD: the op's TSMs that now carry an EMD number are issued.
 * Nothing found after RECONCILE_NOTHING_LOOKS looks, or after one once the call window is over (the owner
 * being gone): nothing happened at the supplier; the op is failed with
 * an audit entry and the stored pending answer dropped, so a same-key retry runs anew. Found: the op is
 * done and the stored pending answer becomes the settled 200.
 */
import { writeAudit } from '../../../audit/audit-log.ts';
import type { Db } from '../../../storage/schema.ts';
import type {
  AncillaryPurchaseProduct,
  OrderServices,
  SeatRequestResult,
} from '../../../suppliers/ports/flight.ts';
import type { BookingDeps } from '../deps.ts';
import {
  callWindowOver,
  countLook,
  findOp,
  type MoneyOp,
  rewritePendingAnswer,
  settleOp,
} from '../money-ops.ts';
import { type BookingRow, findBooking } from '../store.ts';
import { flightSupplierOf } from '../suppliers.ts';
import {
  alias,
  purchaseBody,
  recordEmds,
  recordPurchase,
  type ServiceOpKind,
  seatIssueBody,
} from './outcomes.ts';
import { ancillaryView, listAncillaries, saveSeats } from './store.ts';

/** Looks that find nothing before the job concludes the supplier never acted. */
export const RECONCILE_NOTHING_LOOKS = 3;

type Answer = { status: number; body: unknown };
/** What one look found: the write and answer when the supplier acted, null when it shows nothing yet. */
type Found = { write: (trx: Db, now: Date) => Promise<Answer>; outcome: string } | null;

export async function reconcileServiceOp(d: BookingDeps, op: MoneyOp): Promise<void> {
  const { db } = d;
  const b = await findBooking(db, op.booking_id);
  const supplier = b?.supplier_order_ref ? flightSupplierOf(d.suppliers, b.supplier) : undefined;
  if (!b || !supplier?.orderServices) {
    await conclude(d, op, b, null, 'the supplier order cannot be read back');
    return;
  }
  const read = await supplier.orderServices(b.supplier_order_ref as string);
  const looks = await countLook(db, op);
  const kind = op.kind as ServiceOpKind;
  const found =
    kind === 'seats_issue'
      ? foundSeats(b, op, read)
      : kind === 'ancillary_purchase'
        ? await foundPurchase(db, b, op, read)
        : await foundEmds(db, b, op, read);
  // Its owner is gone: once the call window is over, one look that finds nothing is final.
  if (!found && looks < RECONCILE_NOTHING_LOOKS && !callWindowOver(op, d.clock.now()))
    throw new Error(`${kind}: nothing at the supplier yet (look ${looks})`);
  await conclude(d, op, b, found, `nothing at the supplier after ${looks} looks`);
}

async function conclude(d: BookingDeps, op: MoneyOp, b: BookingRow | undefined, found: Found, why: string) {
  await d.db.transaction().execute(async (trx) => {
    const fresh = await findOp(trx, op.id, true);
    if (!fresh || (fresh.status !== 'requested' && fresh.status !== 'pending')) return;
    const now = d.clock.now();
    if (found) {
      const answer = await found.write(trx, now);
      await settleOp(trx, op.id, 'done', now, { outcome: `reconciled: ${found.outcome}` });
      await rewritePendingAnswer(trx, fresh, answer);
      return;
    }
    await writeAudit(trx, null, {
      entity: 'booking',
      entityId: op.booking_id,
      action: `${op.kind}_unconfirmed`,
      reason: `reconciled: ${why} (${op.outcome ?? 'request died'})`,
      changes: { op_id: op.id },
      companyId: b?.company_id ?? null,
    });
    await settleOp(trx, op.id, 'failed', now, { outcome: `reconciled: ${why}` });
    await rewritePendingAnswer(trx, fresh, null);
  });
}

const seatKey = (x: { segment_id: string; passenger_id: string; seat_number: string }) =>
  `${x.segment_id}|${x.passenger_id}|${x.seat_number}`;

/** The op's pending seats the supplier now holds confirmed. */
function foundSeats(b: BookingRow, op: MoneyOp, read: OrderServices): Found {
  const wanted = new Set(((op.detail.seats as SeatRequestResult[] | undefined) ?? []).map(seatKey));
  const issue = op.detail.issue !== false;
  const done = read.seats.filter((x) => wanted.has(seatKey(x)) && x.status === 'confirmed');
  if (done.length === 0) return null;
  const priced: SeatRequestResult[] = done.map(({ tsm_reference: _t, emd_number: _e, ...x }) => x);
  const emds = done.flatMap((x) =>
    x.emd_number ? [{ tsm_reference: x.tsm_reference ?? '', emd_number: x.emd_number }] : [],
  );
  return {
    outcome: `${done.length} seat(s) confirmed at the supplier`,
    write: async (trx, now) => {
      await saveSeats(trx, b.id, priced, now);
      return { status: 200, body: seatIssueBody(b.id, issue, priced, emds) };
    },
  };
}

/** Service elements on the order that were not there before the purchase (nor on the booking). */
async function foundPurchase(db: Db, b: BookingRow, op: MoneyOp, read: OrderServices): Promise<Found> {
  const products = (op.detail.products as AncillaryPurchaseProduct[] | undefined) ?? [];
  const known = new Set([
    ...((op.detail.before as string[] | undefined) ?? []),
    ...(await listAncillaries(db, b.id)).map((a) => a.tsm_reference),
  ]);
  // Without a snapshot (taken right after the intent) only our own rows tell what was there before.
  const created = read.services.filter((x) => x.status === 'active' && !known.has(x.tsm_reference));
  if (created.length === 0) return null;
  const bought = created.map((x, i) => ({
    tsm_reference: x.tsm_reference,
    // Duffel names the created service anew: the code asked for is the product at the same place.
    code: x.code === x.tsm_reference ? (products[i]?.code ?? alias(x.code)) : alias(x.code),
    passenger_ids: x.passenger_ids,
    segment_ids: x.segment_ids,
    price: x.price,
  }));
  return {
    outcome: `${created.length} service element(s) found at the supplier`,
    write: async (trx, now) => ({
      status: 200,
      body: purchaseBody(b.id, await recordPurchase(trx, b, products, bought, now)),
    }),
  };
}

/** The op's TSMs that now carry an EMD at the supplier. */
async function foundEmds(db: Db, b: BookingRow, op: MoneyOp, read: OrderServices): Promise<Found> {
  const wanted = new Set((op.detail.tsm_references as string[] | undefined) ?? []);
  const emds = read.services
    .filter((x) => wanted.has(x.tsm_reference) && x.emd_number)
    .map((x) => ({ tsm_reference: x.tsm_reference, emd_number: x.emd_number as string }));
  if (emds.length === 0) return null;
  const held = (await listAncillaries(db, b.id)).filter((a) => wanted.has(a.tsm_reference));
  return {
    outcome: `${emds.length} EMD(s) found at the supplier`,
    write: async (trx, now) => {
      await recordEmds(trx, held, emds, now);
      const after = await listAncillaries(trx, b.id);
      return { status: 200, body: { booking_id: b.id, emds, ancillaries: after.map(ancillaryView) } };
    },
  };
}
