import { badRequest, notFound } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { BookingDeps } from '../deps.ts';
import { recordServicing } from '../servicing-events.ts';
import { orderContext } from './order-context.ts';
import { nextAncillaryStatus } from './state-machine.ts';
import { listAncillaries, updateAncillary } from './store.ts';

/** Per item: issued EMD voided, unissued service removed; cancelled or refunded ones skipped. */
export async function cancelAncillaries(d: BookingDeps, ctx: OperationContext<'cancelAncillaries'>) {
  const { b, supplier, orderRef } = await orderContext(d, ctx, 'ancillaries', 'unsupported_provider');
  const all = await listAncillaries(d.db, b.id);
  const ids = ctx.body?.ancillary_ids;
  if (ids)
    for (const id of ids)
      if (!all.some((a) => a.id === id))
        throw notFound('ancillary_not_found', `Ancillary ${id} is not on the booking.`);
  const chosen = ids ? all.filter((a) => ids.includes(a.id)) : all;
  const results: {
    ancillary_id: number;
    outcome: 'voided' | 'removed' | 'skipped' | 'failed';
    reason: string | null;
  }[] = [];
  for (const a of chosen) {
    const next = nextAncillaryStatus(a.status, 'cancel');
    if (!next) {
      results.push({ ancillary_id: a.id, outcome: 'skipped', reason: `already ${a.status}` });
      continue;
    }
    try {
      const r = await supplier.cancelAncillary(
        orderRef,
        { tsm_reference: a.tsm_reference, emd_number: a.emd_number },
        { signal: ctx.signal },
      );
      const outcome = r.outcome === 'voided' ? 'voided' : 'removed';
      // Each item is stored as soon as the supplier answers for it, with its own event.
      await d.db.transaction().execute(async (trx) => {
        const now = d.clock.now();
        await updateAncillary(trx, a.id, { status: outcome }, now);
        await recordServicing(trx, b.id, { kind: 'ancillaries', action: outcome, ids: [a.id] }, now);
      });
      results.push({ ancillary_id: a.id, outcome: r.outcome, reason: null });
    } catch (err) {
      d.logger?.warn({ err, ancillary: a.id }, 'ancillary cancellation failed at the supplier');
      if (err instanceof SupplierError && err.kind === 'unsupported' && chosen.length === 1) {
        throw badRequest('unsupported_provider', 'The supplier does not cancel this ancillary.');
      }
      const reason =
        err instanceof SupplierError
          ? `The supplier did not cancel it (${err.kind}${err.supplierCode ? ` ${err.supplierCode}` : ''}).`
          : 'The supplier did not cancel it.';
      results.push({ ancillary_id: a.id, outcome: 'failed', reason });
    }
  }
  return { booking_id: b.id, results };
}
