import { badRequest } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import type { FlightSupplier } from '../../../suppliers/ports/flight.ts';
import type { BookingDeps } from '../deps.ts';
import { isAmbiguous } from '../money-ops.ts';
import { supplierFailure } from '../suppliers.ts';
import { orderContext } from './order-context.ts';
import { ServicePending, seatIssueBody } from './outcomes.ts';
import { serialized } from './serialized.ts';
import { pendingSeats, saveSeats } from './store.ts';

export async function issueSeats(d: BookingDeps, ctx: OperationContext<'issueSeats'>) {
  const { b, supplier, orderRef } = await orderContext(d, ctx, 'seats', 'paid_seats_unavailable');
  const issue = ctx.query.issue_emd_documents !== false;
  return serialized(
    d,
    ctx,
    b,
    'seats_issue',
    async (trx) => {
      const pending = await pendingSeats(trx, b.id);
      if (pending.length === 0)
        throw badRequest('no_pending_seats', 'No chargeable seat is waiting to be priced.');
      return pending.map((x) => ({
        segment_id: x.segment_id,
        passenger_id: x.passenger_id,
        seat_number: x.seat_number,
      }));
    },
    (seats) => ({ issue, seats }),
    async () => {
      let r: Awaited<ReturnType<FlightSupplier['issueSeats']>>;
      try {
        r = await supplier.issueSeats(orderRef, issue, { signal: ctx.signal });
      } catch (err) {
        if (isAmbiguous(err)) throw new ServicePending(`seats_issue: ${err.supplierCode ?? err.kind}`);
        return supplierFailure(err, {
          failed: 'seat_pricing_failed',
          unsupported: 'paid_seats_unavailable',
        });
      }
      await saveSeats(d.db, b.id, r.priced, d.clock.now(), 'issued');
      return seatIssueBody(b.id, issue, r.priced, r.emds);
    },
  );
}
