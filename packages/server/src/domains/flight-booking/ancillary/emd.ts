import { badRequest, notFound } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import type { FlightSupplier } from '../../../suppliers/ports/flight.ts';
import type { BookingDeps } from '../deps.ts';
import { isAmbiguous } from '../money-ops.ts';
import { supplierFailure } from '../suppliers.ts';
import { orderContext } from './order-context.ts';
import { recordEmds, ServicePending } from './outcomes.ts';
import { serialized } from './serialized.ts';
import { nextAncillaryStatus } from './state-machine.ts';
import { ancillaryView, listAncillaries } from './store.ts';

/** Omitted tsm_references: every held TSM. EMD numbers are those the supplier reads back. */
export async function issueEmds(d: BookingDeps, ctx: OperationContext<'issueAncillaryEmds'>) {
  const { b, supplier, orderRef } = await orderContext(d, ctx, 'ancillaries', 'ancillaries_unsupported');
  return serialized(
    d,
    ctx,
    b,
    'emd',
    async (trx) => {
      const all = await listAncillaries(trx, b.id);
      const wanted = ctx.body?.tsm_references;
      if (wanted)
        for (const t of wanted)
          if (!all.some((a) => a.tsm_reference === t))
            throw notFound('ancillary_not_found', `TSM ${t} is not on the booking.`);
      const held = all.filter(
        (a) => nextAncillaryStatus(a.status, 'issue') && (!wanted || wanted.includes(a.tsm_reference)),
      );
      if (held.length === 0)
        throw badRequest('no_pending_ancillaries', 'No held ancillary is waiting for an EMD.');
      return held;
    },
    (held) => ({ tsm_references: held.map((a) => a.tsm_reference) }),
    async (held) => {
      let emds: Awaited<ReturnType<FlightSupplier['issueEmds']>>;
      try {
        emds = await supplier.issueEmds(
          orderRef,
          held.map((a) => a.tsm_reference),
          { signal: ctx.signal },
        );
      } catch (err) {
        if (isAmbiguous(err)) throw new ServicePending(`emd: ${err.supplierCode ?? err.kind}`);
        return supplierFailure(err, { failed: 'emd_issue_failed', unsupported: 'ancillaries_unsupported' });
      }
      await d.db.transaction().execute((trx) => recordEmds(trx, held, emds, d.clock.now()));
      const after = await listAncillaries(d.db, b.id);
      return { booking_id: b.id, emds, ancillaries: after.map(ancillaryView) };
    },
  );
}
