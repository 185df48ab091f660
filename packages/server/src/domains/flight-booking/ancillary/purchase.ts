import { badRequest } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { FlightSupplier } from '../../../suppliers/ports/flight.ts';
import type { BookingDeps } from '../deps.ts';
import { isAmbiguous } from '../money-ops.ts';
import { supplierFailure } from '../suppliers.ts';
import { orderContext } from './order-context.ts';
import { alias, isAlias, patchOpDetail, purchaseBody, recordPurchase, ServicePending } from './outcomes.ts';
import { serialized } from './serialized.ts';

export async function purchaseAncillaries(d: BookingDeps, ctx: OperationContext<'purchaseAncillaries'>) {
  const { b, supplier, orderRef } = await orderContext(d, ctx, 'ancillaries', 'ancillaries_unsupported');
  const products = ctx.body.products;
  for (const p of products) {
    for (const id of p.customer_ref_ids)
      if (!b.passengers.some((x) => x.passenger_id === id))
        throw badRequest('invalid_product', `Passenger ${id} is not on the booking.`);
    for (const s of p.segment_ref_ids.split(/\s+/).filter(Boolean))
      if (!b.flights.some((f) => f.segment_id === s))
        throw badRequest('invalid_product', `Segment ${s} is not on the booking.`);
  }
  return serialized(
    d,
    ctx,
    b,
    'ancillary_purchase',
    async () => null,
    () => ({ products }),
    async (_none, op) => {
      // What the order holds before the purchase: the job tells this purchase's services apart by it.
      if (supplier.orderServices) {
        const before = await supplier.orderServices(orderRef, { signal: ctx.signal }).catch((err) => {
          throw supplierFailure(err, { failed: 'purchase_failed', unsupported: 'ancillaries_unsupported' });
        });
        await patchOpDetail(d.db, op.id, {
          products,
          before: before.services.map((x) => x.tsm_reference),
        });
      }
      let bought: Awaited<ReturnType<FlightSupplier['purchaseAncillaries']>>;
      try {
        const catalogue = products.some((p) => isAlias(p.code))
          ? await supplier.ancillaryCatalogue(orderRef, '', { signal: ctx.signal })
          : [];
        const real = products.map((p) => ({
          ...p,
          code: catalogue.find((i) => alias(i.code) === p.code)?.code ?? p.code,
        }));
        bought = (await supplier.purchaseAncillaries(orderRef, real, { signal: ctx.signal })).map((x) => ({
          ...x,
          code: alias(x.code),
        }));
      } catch (err) {
        if (isAmbiguous(err)) throw new ServicePending(`ancillary_purchase: ${err.supplierCode ?? err.kind}`);
        if (err instanceof SupplierError && err.kind === 'invalid_request') {
          // Our words; the supplier's own text goes to the log only.
          ctx.log.warn({ err, booking: b.id }, 'supplier refused the ancillary products');
          throw badRequest(
            'invalid_product',
            'The supplier does not sell one of these products for this booking.',
          );
        }
        return supplierFailure(err, { failed: 'purchase_failed', unsupported: 'ancillaries_unsupported' });
      }
      const rows = await d.db
        .transaction()
        .execute((trx) => recordPurchase(trx, b, products, bought, d.clock.now()));
      return purchaseBody(b.id, rows);
    },
  );
}
