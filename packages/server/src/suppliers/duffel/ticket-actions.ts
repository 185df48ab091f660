import type { Duffel } from '@duffel/api';
import type { Order, OrderChangeOffer } from '@duffel/api/types';
import { type CallOptions, SupplierError } from '../ports/errors.ts';
import type { TicketAction, TicketActionResult } from '../ports/flight.ts';
import { asCurrency, toMinor } from './mapper.ts';

/**
 * Void, refund and reissue on Duffel. Void and refund are both an order cancellation (quote, then
 * confirm): a quote that gives back the whole total is a void (Duffel voids inside the airline's void
 * window), less is a refund. Reissue is an order change. A "no" is a determination, never a throw.
 */

interface Runner {
  order(orderRef: string, opts?: CallOptions): Promise<Order>;
  run<T>(opts: CallOptions | undefined, fn: (d: Duffel) => Promise<T>, create?: boolean): Promise<T>;
}

const refused = (action: TicketAction, determination: string, message: string): TicketActionResult => ({
  action,
  confirmed: false,
  permitted: false,
  determination,
  message,
});

export async function ticketAction(
  a: Runner,
  orderRef: string,
  action: TicketAction,
  confirm: boolean,
  note: string | undefined,
  opts?: CallOptions,
): Promise<TicketActionResult> {
  const order = await a.order(orderRef, opts);
  if (order.cancelled_at) return refused(action, 'already_cancelled', 'The order is already cancelled');
  if (order.payment_status.awaiting_payment)
    return refused(action, 'not_ticketed', 'The order is not ticketed yet');
  return action === 'reissue'
    ? reissue(a, order, confirm, note, opts)
    : cancel(a, order, action, confirm, opts);
}

async function cancel(a: Runner, order: Order, action: TicketAction, confirm: boolean, opts?: CallOptions) {
  const currency = asCurrency(order.total_currency);
  const total = toMinor(order.total_amount, currency);
  const quote = (await a.run(opts, (d) => d.orderCancellations.create({ order_id: order.id }))).data;
  // A refund Duffel cannot quote (`refund_amount` null: the airline gave none) or quotes in another currency
  // than the order's (its billing currency may differ) has no amount this order's money can be compared
  // with: it is not a void, and a confirmed refund carries no amount (the payment goes to an operator).
  const refundCurrency = quote.refund_currency ?? order.total_currency;
  if (quote.refund_amount === null || refundCurrency !== order.total_currency) {
    const why =
      quote.refund_amount === null
        ? 'the airline gave no refund amount'
        : `the refund is quoted in ${refundCurrency} (${quote.refund_amount}), not in the order's ${currency}`;
    if (action === 'void') return refused('void', 'refund_quote_unavailable', `Not a void: ${why}`);
    if (confirm) return unquoted(a, quote.id, why, opts);
    return { ...QUOTE_ONLY, action, message: `Quote only; ${why}: an operator settles the amount` };
  }
  const refund = toMinor(quote.refund_amount, currency);
  const isVoid = refund === total;
  if (action === 'void' && !isVoid)
    return refused('void', 'void_window_expired', 'The void window has passed');
  if (action === 'refund' && refund === 0 && !order.conditions.refund_before_departure?.allowed) {
    return refused('refund', 'non_refundable', 'The fare is non-refundable');
  }
  const money = {
    refund: { currency, amount_minor: refund },
    fee: { currency, amount_minor: total - refund },
  };
  if (!confirm) {
    return {
      action,
      confirmed: false,
      permitted: true,
      determination: 'ok',
      message: 'Quote only',
      ...money,
    };
  }
  await a.run(opts, (d) => d.orderCancellations.confirm(quote.id), true);
  return {
    action,
    confirmed: true,
    permitted: true,
    determination: 'ok',
    message: isVoid ? 'Voided' : 'Refunded',
    ...money,
    coupon_status: isVoid ? ('VOID' as const) : ('REFUNDED' as const),
  };
}

const QUOTE_ONLY = { confirmed: false, permitted: true, determination: 'ok' } as const;

/** Confirms a refund with no comparable amount (see `cancel`): raised, with no money (an operator decides). */
async function unquoted(
  a: Runner,
  quoteId: string,
  why: string,
  opts?: CallOptions,
): Promise<TicketActionResult> {
  await a.run(opts, (d) => d.orderCancellations.confirm(quoteId), true);
  return {
    action: 'refund',
    confirmed: true,
    permitted: true,
    determination: 'ok',
    message: `Refunded; ${why}: an operator settles the amount`,
    coupon_status: 'REFUNDED',
  };
}

async function reissue(
  a: Runner,
  order: Order,
  confirm: boolean,
  note: string | undefined,
  opts?: CallOptions,
) {
  if (!order.conditions.change_before_departure?.allowed) {
    return refused('reissue', 'not_changeable', 'The fare does not allow changes');
  }
  const slice = order.slices[0];
  if (!slice) return refused('reissue', 'no_slices', 'The order has no slices');
  // The note may carry the new date (YYYY-MM-DD); without one the same flight date is re-quoted.
  const date =
    /\d{4}-\d{2}-\d{2}/.exec(note ?? '')?.[0] ?? slice.segments[0]?.departing_at.slice(0, 10) ?? '';
  const cabin = slice.segments[0]?.passengers[0]?.cabin_class ?? 'economy';
  const body = {
    order_id: order.id,
    slices: {
      remove: [{ slice_id: slice.id }],
      add: [
        {
          origin: slice.origin.iata_code,
          destination: slice.destination.iata_code,
          departure_date: date,
          cabin_class: cabin,
        },
      ],
    },
  };
  let request: Awaited<ReturnType<Duffel['orderChangeRequests']['create']>>['data'];
  try {
    request = (await a.run(opts, (d) => d.orderChangeRequests.create(body as never))).data;
  } catch (err) {
    if (err instanceof SupplierError && err.kind === 'invalid_request') {
      return refused('reissue', err.supplierCode ?? 'not_permitted', err.message);
    }
    throw err;
  }
  const offers = (request.order_change_offers ?? []) as OrderChangeOffer[];
  const best = [...offers].sort((x, y) => Number(x.change_total_amount) - Number(y.change_total_amount))[0];
  if (!best) return refused('reissue', 'no_change_offers', 'No change offers');
  const currency = asCurrency(best.change_total_currency);
  const fee = { currency, amount_minor: toMinor(best.change_total_amount, currency) };
  if (!confirm) {
    return {
      action: 'reissue' as const,
      confirmed: false,
      permitted: true,
      determination: 'ok',
      message: 'Quote only',
      fee,
      servicing_request_id: request.id,
    };
  }
  const change = (
    await a.run(opts, (d) => d.orderChanges.create({ selected_order_change_offer: best.id }), true)
  ).data;
  const payment = { type: 'balance', amount: best.change_total_amount, currency: best.change_total_currency };
  await a.run(opts, (d) => d.orderChanges.confirm(change.id, { payment } as never), true);
  return {
    action: 'reissue' as const,
    confirmed: true,
    permitted: true,
    determination: 'ok',
    message: 'Reissued',
    fee,
    servicing_request_id: request.id,
    coupon_status: 'EXCHANGED' as const,
  };
}
