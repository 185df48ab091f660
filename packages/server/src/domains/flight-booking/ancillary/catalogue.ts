import type { OperationContext } from '../../../kernel/types.ts';
import type { BookingDeps } from '../deps.ts';
import { supplierFailure } from '../suppliers.ts';
import { orderContext } from './order-context.ts';
import { alias } from './outcomes.ts';

export async function ancillaryCatalogue(d: BookingDeps, ctx: OperationContext<'getAncillaryCatalogue'>) {
  const { b, supplier, orderRef } = await orderContext(d, ctx, 'ancillaries', 'ancillaries_unsupported');
  const group = ctx.query.service_group ?? '';
  try {
    const items = await supplier.ancillaryCatalogue(orderRef, group, { signal: ctx.signal });
    return {
      booking_id: b.id,
      service_group: group,
      items: items.map((i) => ({ ...i, code: alias(i.code) })),
    };
  } catch (err) {
    return supplierFailure(err, { failed: 'catalogue_failed', unsupported: 'ancillaries_unsupported' });
  }
}
