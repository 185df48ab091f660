/**
 * Supplier failures on check, book and cancel, mapped to the operation's stable codes and answered in
 * our own words: a supplier's message (which may echo paths, ids or internals of its API) goes to the
 * log, never to the caller. A supplier that cannot be reached when nothing was done answers 503
 * `supplier_unavailable` (not stored under an Idempotency-Key, so a retry runs anew).
 */

import type { Logger } from '../internal/logger.ts';
import { badRequest, type ErrorCode, HttpError } from '../kernel/errors.ts';
import { SupplierError, type SupplierErrorKind } from './ports/errors.ts';

export type CodeMap = Partial<Record<SupplierErrorKind, [number, ErrorCode]>>;

/** What each of our codes tells the caller. */
const SENTENCES: Record<string, string> = {
  invalid_rate_key: 'The rate_key is not valid for this provider; take it from search results or check-rate.',
  rate_not_found: 'The rate is no longer available; search again.',
  invalid_quote: 'The quote_id is not valid for this provider; take it from search results.',
  quote_not_found: 'The quote is no longer available; search again.',
  sold_out: 'The offer is no longer available.',
  offer_expired: 'The offer has expired; search again.',
  price_changed: 'The price changed since the offer was made; check it again and book the new price.',
  supplier_rejected: 'The supplier rejected the request.',
  not_cancellable: 'The provider does not allow this booking to be cancelled.',
  cancellation_failed: 'The provider did not cancel the booking.',
};

/** Our sentence for one of our codes. */
export const sentenceFor = (code: string): string =>
  SENTENCES[code] ?? 'The supplier could not complete the request.';

/** The supplier's own words, for the log only. */
export function logSupplierError(log: Logger | undefined, err: SupplierError, code: string): void {
  log?.warn(
    {
      supplier: err.supplier,
      kind: err.kind,
      supplier_code: err.supplierCode,
      supplier_message: err.message,
      code,
    },
    'supplier refused the request',
  );
}

export function supplierHttpError(err: unknown, codes: CodeMap, log?: Logger): Error {
  if (!(err instanceof SupplierError)) return err as Error;
  const hit = codes[err.kind];
  if (hit) {
    logSupplierError(log, err, hit[1]);
    return new HttpError(hit[0], hit[1], sentenceFor(hit[1]), { extra: pickDetails(err) });
  }
  if (err.retryable || err.kind === 'unknown_outcome' || err.kind === 'auth_failed') {
    logSupplierError(log, err, 'supplier_unavailable');
    return new HttpError(
      503,
      'supplier_unavailable',
      'The supplier is not reachable right now; try again shortly.',
      {
        headers: { 'retry-after': '5' },
      },
    );
  }
  logSupplierError(log, err, 'supplier_rejected');
  return new HttpError(400, 'supplier_rejected', sentenceFor('supplier_rejected'));
}

function pickDetails(err: SupplierError): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['previous_total_minor', 'new_total_minor', 'old_total_minor']) {
    if (typeof err.details[k] === 'number') out[k] = err.details[k];
  }
  return out;
}

/** A configured provider's port; otherwise 400 `code` naming the provider. */
export function configured<S>(port: S | undefined, code: ErrorCode, what: string, provider: string): S {
  if (!port) throw badRequest(code, `${what} provider ${provider} is not available.`);
  return port;
}

/** A supplier call whose refusals answer in our codes (`supplierHttpError`). */
export async function mapped<T>(call: () => Promise<T>, codes: CodeMap, log?: Logger): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw supplierHttpError(err, codes, log);
  }
}
