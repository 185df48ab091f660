/** PAYMENT_FIRST bookings: the supplier order placed once the payment is authorized (payment/routes.ts). */

import { HttpError } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import type { BagSelection, PassengerInput, SupplierFlightOffer } from '../../suppliers/ports/flight.ts';
import { bagsOncePaid, bookedBags, saveBookedBags } from './bags.ts';
import type { BookingDeps } from './deps.ts';
import type { AfterAuthorize } from './payment/index.ts';
import { type Outcome, placeOrder } from './place-order.ts';
import { applyOrder, queueReconcile } from './reconcile.ts';
import { type BookingRow, transition } from './store.ts';

/** PAYMENT_FIRST: the authorization exists; now the supplier order is placed. */
export async function afterAuthorized(
  d: BookingDeps,
  ctx: RequestContext,
  b: BookingRow,
): Promise<AfterAuthorize | undefined> {
  if (b.payment_mode !== 'PAYMENT_FIRST' || b.supplier_order_ref) return undefined;
  const { bag_selections, ...stored } = b.offer as { bag_selections?: BagSelection[] };
  const offer = { ...stored, supplier_ref: b.supplier_ref } as SupplierFlightOffer;
  let outcome: Outcome;
  try {
    outcome = await placeOrder(
      d,
      b,
      offer,
      {
        passengers: b.passengers as unknown as PassengerInput[],
        contact: b.contact,
        bags: bag_selections ?? [],
      },
      ctx.signal,
    );
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 400) throw err;
    return {
      voided: true,
      error: { code: err.code, detail: err.message },
      apply: (trx, bk, now) => transition(trx, bk, 'pnr_rejected', now),
    };
  }
  const later = outcome.bagsLater;
  const keepBags = (trx: Db, bk: BookingRow, now: Date) =>
    later ? saveBookedBags(trx, bk, bagsOncePaid(bookedBags(bk)), now) : bk;
  if (outcome.kind === 'unknown') {
    return {
      apply: async (trx, bk, now) => {
        const after = await transition(trx, bk, 'pnr_unknown', now);
        await queueReconcile(trx, bk.id, d.clock);
        return keepBags(trx, after, now);
      },
    };
  }
  const order = outcome.order;
  return { apply: async (trx, bk, now) => keepBags(trx, await applyOrder(trx, bk, order, now), now) };
}
