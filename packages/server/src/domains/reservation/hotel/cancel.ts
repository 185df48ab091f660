/**
 * Cancels a hotel booking at the provider, written ahead (../cancel.ts): the intent is
 * committed first, then a SIMULATION (the fee the provider will keep) and the cancellation itself; the
 * status moves through the state machine with the fee, audited. A lost answer is 502
 * `cancellation_pending`, settled by asking the provider.
 */
import { badRequest } from '../../../kernel/errors.ts';
import type { OperationContext, ResultOf } from '../../../kernel/types.ts';
import { inBookingCurrency } from '../../../search/exchange.ts';
import { supplierHttpError } from '../../../suppliers/http-errors.ts';
import type { HotelSupplier } from '../../../suppliers/ports/hotel.ts';
import { visibleOrNotFound } from '../access.ts';
import { CANCEL_REFUSALS, type CancelKind, type Money } from '../cancel.ts';
import type { ReservationDomainDeps } from '../deps.ts';
import { HOTEL_KIND } from '../kind.ts';
import { getRow } from '../queries.ts';
import { nextStatus } from '../state-machine.ts';
import { parseJson, serviceDb } from '../tables.ts';
import { rowStatus } from '../view.ts';

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

/**
 * `quoteHotelCancellation`: the provider's cancellation SIMULATION for a booking the caller may cancel,
 * converted like a real cancellation's fee (the booking's currency, at its rate). Writes nothing.
 */
export async function quoteHotelCancellation(
  deps: ReservationDomainDeps,
  ctx: OperationContext<'quoteHotelCancellation'>,
): Promise<ResultOf<'quoteHotelCancellation'>> {
  const id = Number(ctx.params.booking_id);
  const row = visibleOrNotFound(ctx, HOTEL_KIND, await getRow(serviceDb(deps.db), HOTEL_KIND, id), 'any');
  // A booking that cannot be cancelled from its status has nothing to quote (400 invalid_booking_state).
  nextStatus(HOTEL_KIND)(row.status as Parameters<ReturnType<typeof nextStatus>>[0], 'cancel');
  const supplier = deps.suppliers.hotel(row.provider as string);
  const ref = row.supplier_booking_ref as string | null;
  if (!supplier || !ref)
    throw badRequest(
      'cancellation_failed',
      'The provider booking cannot be reached for a cancellation quote.',
    );
  let quote: Awaited<ReturnType<typeof supplier.cancel>>;
  try {
    quote = await supplier.cancel(ref, true, { signal: ctx.signal });
  } catch (err) {
    throw supplierHttpError(err, CANCEL_REFUSALS, deps.logger);
  }
  return {
    status: 200,
    body: {
      booking_id: id,
      status: rowStatus(row),
      cancellation_fee: inBookingCurrency(quote.fee, row),
      refund: inBookingCurrency(quote.refund, row),
      source: 'supplier_simulation',
    },
  };
}
