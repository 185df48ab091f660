/**
 * Cancels a hotel booking at the provider, written ahead (../cancel.ts): the intent is
 * committed first, then a SIMULATION (the fee the provider will keep) and the cancellation itself; the
 * status moves through the state machine with the fee, audited. A lost answer is 502
 * `cancellation_pending`, settled by asking the provider.
 */
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

export const hotelCancellations = (deps: ReservationDomainDeps): CancelKind => {
  const supplierOf = (row: Record<string, unknown>) => deps.suppliers.hotel(row.provider as string);
  return {
    kind: HOTEL_KIND,
    hook: 'hotelCancel',
    reachable: (row) => supplierOf(row) !== undefined,
    async cancel(row, signal) {
      const supplier = supplierOf(row);
      const ref = row.supplier_booking_ref as string;
      if (!supplier) throw new Error(`hotel provider ${row.provider} is not configured`);
      const quote = await supplier.cancel(ref, true, { signal });
      const done = await supplier.cancel(ref, false, { signal });
      deps.logger?.info(
        { booking_id: row.id, quoted_fee: quote.fee, fee: done.fee },
        'hotel booking cancelled at provider',
      );
      return done;
    },
    async status(row, signal) {
      const supplier = supplierOf(row);
      if (!supplier) throw new Error(`hotel provider ${row.provider} is not configured`);
      return (await supplier.getBooking(row.supplier_booking_ref as string, { signal })).status;
    },
    feeAt: (row, at) =>
      policyFeeAt(parseJson<{ from: string; fee: Money }[]>(row.cancellation_policies) ?? [], at, {
        currency: row.currency as string,
        amount_minor: Number(row.total_minor),
      }),
  };
};
