/** POST /hotel/check-rate: the rate's availability and current price, with the old total when it moved. */
import type { ErrorCode } from '../../../kernel/errors.ts';
import type { Logger, OperationContext } from '../../../kernel/types.ts';
import { recordRateCheck } from '../../../search/rate-checks.ts';
import { findShownOffer, recheckHotel } from '../../../search/shown-offer.ts';
import { type CodeMap, configured, mapped } from '../../../suppliers/http-errors.ts';
import type { CallOptions } from '../../../suppliers/ports/errors.ts';
import type { HotelRateCheck, HotelSupplier } from '../../../suppliers/ports/hotel.ts';
import type { ReservationDomainDeps } from '../deps.ts';
import { callFor } from '../supplier-call.ts';

const CHECK_CODES: CodeMap = {
  not_found: [404, 'rate_not_found'],
  sold_out: [404, 'rate_not_found'],
  offer_expired: [404, 'rate_not_found'],
  invalid_request: [400, 'invalid_rate_key'],
};

export const hotelSupplier = (
  deps: ReservationDomainDeps,
  provider: string,
  code: ErrorCode,
): HotelSupplier => configured(deps.suppliers.hotel(provider), code, 'Hotel', provider);

export const checkRate = (
  supplier: HotelSupplier,
  rateKey: string,
  call: CallOptions,
  codes: CodeMap = CHECK_CODES,
  log?: Logger,
): Promise<HotelRateCheck> => mapped(() => supplier.checkRate(rateKey, call), codes, log);

/** The contract's `HotelRateCheck`: the offer as re-checked, `previous_total_minor` what it was. */
export async function checkHotelRate(deps: ReservationDomainDeps, ctx: OperationContext<'checkHotelRate'>) {
  const body = ctx.body;
  const supplier = hotelSupplier(deps, body.provider, 'unsupported_provider');
  const check = await checkRate(supplier, body.rate_key, callFor(ctx), CHECK_CODES, ctx.log);
  const seen = await findShownOffer(deps.db, body.provider, 'rate_key', body.rate_key, ctx.auth?.userId);
  // In the currency the search showed, at the rate locked with its offer (search/shown-offer.ts).
  const r = recheckHotel(seen, check.offer, check.previous_total_minor, check.price_changed);
  // The key this answer hands out books (and checks again) at what this answer showed.
  if (seen) {
    const keys = [body.rate_key, check.offer.rate_key];
    await recordRateCheck(deps.db, body.provider, keys, ctx.auth?.userId, seen, r.offer);
  }
  return {
    status: 200,
    body: {
      available: check.available,
      price_changed: r.price_changed,
      previous_total_minor: r.previous_total_minor,
      price_change_cause: r.price_change_cause,
      offer: {
        offer_id: seen?.offer_id ?? check.offer.rate_key,
        search_id: seen?.search_id ?? '',
        ...r.offer,
      },
    },
  };
}
