/**
 * Cancels a hotel booking at the provider, written ahead (../cancel.ts): the intent is
 * committed first, then a SIMULATION (the fee the provider will keep) and the cancellation itself; the
 * status moves through the state machine with the fee, audited. A lost answer is 502
 * `cancellation_pending`, settled by asking the provider.
 */
import type { HotelSupplier } from '../../../suppliers/ports.ts';
import type { CancelKind, Money } from '../cancel.ts';
import type { ReservationDomainDeps } from '../deps.ts';
import { HOTEL_KIND } from '../kind.ts';
import { parseJson } from '../tables.ts';

/** The fee the booking's cancellation policy sets at `at`: the last policy step begun by then. */
export function policyFeeAt(policies: { from: string; fee: Money }[], at: Date, total: Money) {
  let fee: Money = { currency: total.currency, amount_minor: 0 };
  for (const p of policies) {
    if (Date.parse(p.from) <= at.getTime() && p.fee.amount_minor >= fee.amount_minor) fee = p.fee;
  }
  const amount = Math.min(fee.amount_minor, total.amount_minor);
  return {
    fee: { currency: fee.currency, amount_minor: amount },
    refund: { currency: total.currency, amount_minor: total.amount_minor - amount },
  };
}

export const hotelCancellations = (deps: ReservationDomainDeps): CancelKind<HotelSupplier> => ({
  kind: HOTEL_KIND,
  hook: 'hotelCancel',
  supplier: (provider) => deps.suppliers.hotel(provider),
  async cancel(supplier, row, signal) {
    const ref = row.supplier_booking_ref as string;
    // The simulation first: the fee the provider will keep, logged beside the one it kept.
    const quote = await supplier.cancel(ref, true, { signal });
    const done = await supplier.cancel(ref, false, { signal });
    deps.logger?.info(
      { booking_id: row.id, quoted_fee: quote.fee, fee: done.fee },
      'hotel booking cancelled at provider',
    );
    return done;
  },
  feeAt: (row, at) =>
    policyFeeAt(parseJson<{ from: string; fee: Money }[]>(row.cancellation_policies) ?? [], at, {
      currency: row.currency as string,
      amount_minor: Number(row.total_minor),
    }),
});
