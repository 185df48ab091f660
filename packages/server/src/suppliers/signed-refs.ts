/**
 * Hotel rate keys and transfer quote ids travel through the client (search results, check-rate, quote,
 * book), so every one the registry's adapters hand out is signed (`internal/signed-ref.ts`) and every one
 * they take back is verified before the adapter sees it. A key we did not issue, or issued for another
 * provider, field or tenant (`CallOptions.owner`, `refOwner`), is refused here: the supplier is never
 * called with it.
 */
import type { RefSigner } from '../internal/signed-ref.ts';
import { type CallOptions, SupplierError, type SupplierName } from './ports/errors.ts';
import type { HotelOffer, HotelSupplier } from './ports/hotel.ts';
import type { TransferOffer, TransferSupplier } from './ports/transfer.ts';

/** `SupplierError.supplierCode` of a refused reference; the domains answer it with their own code. */
export const INVALID_REFERENCE = 'invalid_reference';

/**
 * The tenant a reference is bound to: the caller's company, or the user for a caller without one (a
 * traveller). A rate_key from one company's search is not another company's to check or book.
 */
export const refOwner = (caller: { companyId: number | null; userId: string }): string =>
  caller.companyId !== null ? `company:${caller.companyId}` : `user:${caller.userId}`;

/** The MAC scope: supplier, field and, when the call names one, the owner. */
const scope = (supplier: SupplierName, field: string, opts?: CallOptions) =>
  opts?.owner ? `${supplier}:${field}@${opts.owner}` : `${supplier}:${field}`;

function unwrap(
  signer: RefSigner,
  supplier: SupplierName,
  field: string,
  token: string,
  opts?: CallOptions,
): string {
  // A reference signed for an owner verifies only for that owner. One signed without an owner (a search
  // made straight on the registry: the conformance kits and test worlds; the engine always names the
  // searcher, so no client ever receives one) verifies for anyone. Stripping or swapping the owner
  // changes the MAC, so a bound reference cannot be turned into an unbound one.
  const value =
    signer.verify(scope(supplier, field, opts), token) ??
    (opts?.owner ? signer.verify(scope(supplier, field), token) : undefined);
  if (value === undefined)
    throw new SupplierError(supplier, 'invalid_request', `${field} was not issued by this service`, {
      supplierCode: INVALID_REFERENCE,
    });
  return value;
}

export function signedHotelSupplier(inner: HotelSupplier, signer: RefSigner): HotelSupplier {
  const name = inner.name;
  const sign = (o: HotelOffer, opts?: CallOptions): HotelOffer => ({
    ...o,
    rate_key: signer.sign(scope(name, 'rate_key', opts), o.rate_key),
  });
  const key = (token: string, opts?: CallOptions) => unwrap(signer, name, 'rate_key', token, opts);
  return {
    name,
    search: async (q, opts) => (await inner.search(q, opts)).map((o) => sign(o, opts)),
    async checkRate(rateKey: string, opts?: CallOptions) {
      const check = await inner.checkRate(key(rateKey, opts), opts);
      return { ...check, offer: sign(check.offer, opts) };
    },
    book: (input, opts) => inner.book({ ...input, rate_key: key(input.rate_key, opts) }, opts),
    getBooking: (ref, opts) => inner.getBooking(ref, opts),
    findBookingByClientReference: (ref, opts) => inner.findBookingByClientReference(ref, opts),
    cancel: (ref, simulate, opts) => inner.cancel(ref, simulate, opts),
  };
}

export function signedTransferSupplier(inner: TransferSupplier, signer: RefSigner): TransferSupplier {
  const name = inner.name;
  const sign = (o: TransferOffer, opts?: CallOptions): TransferOffer => ({
    ...o,
    quote_id: signer.sign(scope(name, 'quote_id', opts), o.quote_id),
  });
  const key = (token: string, opts?: CallOptions) => unwrap(signer, name, 'quote_id', token, opts);
  return {
    name,
    search: async (q, opts) => (await inner.search(q, opts)).map((o) => sign(o, opts)),
    async quote(quoteId: string, opts?: CallOptions) {
      const q = await inner.quote(key(quoteId, opts), opts);
      return { ...q, offer: sign(q.offer, opts) };
    },
    book: (input, opts) => inner.book({ ...input, quote_id: key(input.quote_id, opts) }, opts),
    getBooking: (ref, opts) => inner.getBooking(ref, opts),
    findBookingByClientReference: (ref, opts) => inner.findBookingByClientReference(ref, opts),
    cancel: (ref, confirmation, opts) => inner.cancel(ref, confirmation, opts),
  };
}
