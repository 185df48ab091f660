/**
 * Hotel rate keys and transfer quote ids travel through the client (search results, check-rate, quote,
 * book), so every one the registry's adapters hand out is signed (`internal/signed-ref.ts`) and every one
 * they take back is verified before the adapter sees it. A key we did not issue, or issued for another
 * provider or field, is refused here: the supplier is never called with it.
 */
import type { RefSigner } from '../internal/signed-ref.ts';
import { type CallOptions, SupplierError, type SupplierName } from './ports/errors.ts';
import type { HotelOffer, HotelSupplier } from './ports/hotel.ts';
import type { TransferOffer, TransferSupplier } from './ports/transfer.ts';

/** `SupplierError.supplierCode` of a refused reference; the domains answer it with their own code. */
export const INVALID_REFERENCE = 'invalid_reference';

function unwrap(signer: RefSigner, supplier: SupplierName, field: string, token: string): string {
  const value = signer.verify(`${supplier}:${field}`, token);
  if (value === undefined)
    throw new SupplierError(supplier, 'invalid_request', `${field} was not issued by this service`, {
      supplierCode: INVALID_REFERENCE,
    });
  return value;
}

export function signedHotelSupplier(inner: HotelSupplier, signer: RefSigner): HotelSupplier {
  const name = inner.name;
  const sign = (o: HotelOffer): HotelOffer => ({
    ...o,
    rate_key: signer.sign(`${name}:rate_key`, o.rate_key),
  });
  const key = (token: string) => unwrap(signer, name, 'rate_key', token);
  return {
    name,
    search: async (q, opts) => (await inner.search(q, opts)).map(sign),
    async checkRate(rateKey: string, opts?: CallOptions) {
      const check = await inner.checkRate(key(rateKey), opts);
      return { ...check, offer: sign(check.offer) };
    },
    book: (input, opts) => inner.book({ ...input, rate_key: key(input.rate_key) }, opts),
    getBooking: (ref, opts) => inner.getBooking(ref, opts),
    findBookingByClientReference: (ref, opts) => inner.findBookingByClientReference(ref, opts),
    cancel: (ref, simulate, opts) => inner.cancel(ref, simulate, opts),
  };
}

export function signedTransferSupplier(inner: TransferSupplier, signer: RefSigner): TransferSupplier {
  const name = inner.name;
  const sign = (o: TransferOffer): TransferOffer => ({
    ...o,
    quote_id: signer.sign(`${name}:quote_id`, o.quote_id),
  });
  const key = (token: string) => unwrap(signer, name, 'quote_id', token);
  return {
    name,
    search: async (q, opts) => (await inner.search(q, opts)).map(sign),
    async quote(quoteId: string, opts?: CallOptions) {
      const q = await inner.quote(key(quoteId), opts);
      return { ...q, offer: sign(q.offer) };
    },
    book: (input, opts) => inner.book({ ...input, quote_id: key(input.quote_id) }, opts),
    getBooking: (ref, opts) => inner.getBooking(ref, opts),
    findBookingByClientReference: (ref, opts) => inner.findBookingByClientReference(ref, opts),
    cancel: (ref, confirmation, opts) => inner.cancel(ref, confirmation, opts),
  };
}
