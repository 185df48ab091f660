import type { CallOptions, Currency } from '../ports/errors.ts';
import type { TicketAction, TicketActionResult } from '../ports/flight.ts';
import { guard, OnePointError, toSupplierError } from './client.ts';
import { type OpMoney, type OpPtr, toMinor } from './mapper.ts';

/**
 * Void, refund and reissue on Mystifly: a consolidator reverses tickets by post-ticketing request (PTR),
 * always quoted first, then raised on the quote and processed asynchronously. A "no" is a determination,
 * never a throw.
 */

/** Raises a PTR of `type` on the order (the adapter's one OnePoint call for it). */
type RaisePtr = (
  orderRef: string,
  type: string,
  note: string | undefined,
  opts: CallOptions | undefined,
) => Promise<OpPtr>;

/** Determinations OnePoint reports as PTR errors: results of the ticket action, not failures. */
const DETERMINATION: Record<string, string> = {
  ERPTR003: 'void_window_expired',
  ERPTR004: 'non_refundable',
  ERPTR005: 'not_changeable',
  ERPTR010: 'not_ticketed',
  ERPTR008: 'request_already_open',
};
const QUOTE_TYPE: Record<TicketAction, string> = {
  void: 'VoidQuote',
  refund: 'RefundQuote',
  reissue: 'ReIssueQuote',
};

export async function ticketAction(
  raisePtr: RaisePtr,
  orderRef: string,
  action: TicketAction,
  confirm: boolean,
  note: string | undefined,
  opts?: CallOptions,
): Promise<TicketActionResult> {
  if (action === 'reissue' && confirm) {
    return {
      action,
      confirmed: false,
      permitted: false,
      determination: 'quote_only',
      message: 'Reissue is quote-only: raise the change with the consolidator offline.',
    };
  }
  let quote: OpPtr;
  try {
    // A consolidator reverses tickets by request: always quote first, then raise the request on it.
    quote = await raisePtr(orderRef, QUOTE_TYPE[action], note, opts);
  } catch (e) {
    const determination = e instanceof OnePointError ? DETERMINATION[e.code] : undefined;
    if (determination && e instanceof OnePointError) {
      return { action, confirmed: false, permitted: false, determination, message: e.message };
    }
    if (e instanceof OnePointError) throw toSupplierError(e);
    throw e;
  }
  const money = (m: OpMoney | undefined) =>
    m ? { currency: m.CurrencyCode as Currency, amount_minor: toMinor(m) } : undefined;
  const amounts = {
    ...(action !== 'reissue' && quote.Quote?.TotalRefundAmount
      ? { refund: money(quote.Quote.TotalRefundAmount) }
      : {}),
    ...(quote.Quote?.TotalFeeAmount ? { fee: money(quote.Quote.TotalFeeAmount) } : {}),
  } as Pick<TicketActionResult, 'refund' | 'fee'>;
  if (!confirm) {
    return {
      action,
      confirmed: false,
      permitted: true,
      determination: 'ok',
      message: `${quote.PTRType} ${quote.PTRId}: quote only, nothing changed.`,
      servicing_request_id: quote.PTRId,
      ...amounts,
    };
  }
  const request = await guard(() => raisePtr(orderRef, action === 'void' ? 'Void' : 'Refund', note, opts));
  return {
    action,
    confirmed: true,
    permitted: true,
    determination: 'request_raised',
    message: `${request.PTRType} request ${request.PTRId} raised; the consolidator processes it asynchronously.`,
    servicing_request_id: request.PTRId,
    ...amounts,
  };
}
