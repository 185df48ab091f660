/** POST /transport/quote: the quote's availability and current price, with the total the caller saw. */
import type { ErrorCode } from '../../../kernel/errors.ts';
import type { Logger, OperationContext } from '../../../kernel/types.ts';
import { findShownOffer, recheckTransfer } from '../../../search/shown-offer.ts';
import { type CodeMap, configured, mapped } from '../../../suppliers/http-errors.ts';
import type { CallOptions } from '../../../suppliers/ports/errors.ts';
import type { TransferOffer, TransferSupplier } from '../../../suppliers/ports/transfer.ts';

import type { ReservationDomainDeps } from '../deps.ts';
import { callFor } from '../supplier-call.ts';

const QUOTE_CODES: CodeMap = {
  not_found: [404, 'quote_not_found'],
  sold_out: [404, 'quote_not_found'],
  offer_expired: [404, 'quote_not_found'],
  invalid_request: [400, 'invalid_quote'],
};

export const transferSupplier = (
  deps: ReservationDomainDeps,
  provider: string,
  code: ErrorCode,
): TransferSupplier => configured(deps.suppliers.transfer(provider), code, 'Transfer', provider);

export const quote = (
  supplier: TransferSupplier,
  quoteId: string,
  call: CallOptions,
  codes: CodeMap = QUOTE_CODES,
  log?: Logger,
): Promise<{ available: boolean; offer: TransferOffer; price_changed: boolean }> =>
  mapped(() => supplier.quote(quoteId, call), codes, log);

export async function quoteTransport(deps: ReservationDomainDeps, ctx: OperationContext<'quoteTransport'>) {
  const body = ctx.body;
  const supplier = transferSupplier(deps, body.provider, 'unsupported_provider');
  const q = await quote(supplier, body.quote_id, callFor(ctx), QUOTE_CODES, ctx.log);
  const seen = await findShownOffer(deps.db, body.provider, 'quote_id', body.quote_id, ctx.auth?.userId);
  // The port reports only that the price moved; the previous total is the one the search stored, and the
  // quote is shown in the search's currency at the rate locked with its offer (search/shown-offer.ts).
  const r = recheckTransfer(seen, q.offer, q.price_changed);
  return {
    status: 200,
    body: {
      available: q.available,
      price_changed: r.price_changed,
      previous_total_minor: r.previous_total_minor,
      price_change_cause: r.price_change_cause,
      offer: { offer_id: seen?.offer_id ?? q.offer.quote_id, search_id: seen?.search_id ?? '', ...r.offer },
    },
  };
}
