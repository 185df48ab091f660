/**
 * Supplier failures on check, book and cancel, mapped to the operation's stable codes. A supplier that
 * cannot be reached when nothing was done answers 503 `supplier_unavailable` (not stored under an
 * Idempotency-Key, so a retry runs anew).
 */
import { HttpError } from '../../../kernel/errors.ts';
import { SupplierError, type SupplierErrorKind } from '../../../suppliers/ports.ts';

export type CodeMap = Partial<Record<SupplierErrorKind, [number, string]>>;

export function supplierHttpError(err: unknown, codes: CodeMap): Error {
  if (!(err instanceof SupplierError)) return err as Error;
  const hit = codes[err.kind];
  if (hit)
    return new HttpError(hit[0], hit[1], `The supplier answered: ${err.message}`, {
      extra: pickDetails(err),
    });
  if (err.retryable || err.kind === 'unknown_outcome' || err.kind === 'auth_failed') {
    return new HttpError(
      503,
      'supplier_unavailable',
      'The supplier is not reachable right now; try again shortly.',
      {
        headers: { 'retry-after': '5' },
      },
    );
  }
  return new HttpError(400, 'supplier_rejected', `The supplier refused: ${err.message}`);
}

function pickDetails(err: SupplierError): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['previous_total_minor', 'new_total_minor', 'old_total_minor']) {
    if (typeof err.details[k] === 'number') out[k] = err.details[k];
  }
  return out;
}
