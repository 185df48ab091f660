/**
 * Cancels a transfer at the provider, written ahead (../cancel.ts): the intent
 * is committed first, then the provider's cancellation; the fee it keeps is recorded (the rest is the
 * refund). A lost answer is 502 `cancellation_pending`, settled by asking the provider.
 */
import type { TransferSupplier } from '../../../suppliers/ports.ts';
import type { CancelKind } from '../cancel.ts';
import type { ReservationDomainDeps } from '../deps.ts';
import { TRANSPORT_KIND } from '../kind.ts';

export const transportCancellations = (deps: ReservationDomainDeps): CancelKind<TransferSupplier> => ({
  kind: TRANSPORT_KIND,
  hook: 'transportCancel',
  supplier: (provider) => deps.suppliers.transfer(provider),
  async cancel(supplier, row, signal) {
    const ref = row.supplier_booking_ref as string;
    const done = await supplier.cancel(ref, (row.confirmation_number as string | null) ?? ref, { signal });
    // In the provider's currency, as its fee is (the booking's own currency may differ: 0090).
    const total = Number(row.supplier_total_minor ?? row.total_minor);
    const refund = {
      currency: done.fee.currency,
      amount_minor: Math.max(0, total - done.fee.amount_minor),
    };
    return { cancelled: done.cancelled, fee: done.fee, refund };
  },
  // A transfer booking keeps no cancellation policy: a fee the provider's lost answer named is unknown.
  feeAt: () => null,
});
