import { isConnectionError, retryAfterOf } from '../../storage/connection-errors.ts';
import { isStorageFull, STORAGE_FULL_RETRY_AFTER_SECONDS } from '../../storage/storage-faults.ts';
import { LIVE_SUPPLIER_REF_INDEXES, uniqueViolation } from '../../storage/unique-violation.ts';
import { HttpError, ValidationError } from '../errors.ts';

export interface RenderedError {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** The contract's error bodies: `HTTPValidationError` for 422, `{detail, code, request_id}` otherwise. */
export function renderError(err: HttpError | ValidationError, requestId: string): RenderedError {
  if (err instanceof ValidationError) {
    const body: Record<string, unknown> = { detail: err.issues };
    if (err.code) body.code = err.code;
    return { status: 422, body, headers: {} };
  }
  return {
    status: err.status,
    body: { ...err.extra, detail: err.message, code: err.code, request_id: requestId },
    headers: err.headers,
  };
}

/**
 * An error the contract has an answer for, or undefined for a bug. The database being unreachable (a
 * restart, a dropped connection: ECONNREFUSED, 57P01/57P02/57P03, 08xxx, "Connection terminated") is
 * not a bug: 503 `database_unavailable` with Retry-After; a transaction it cut was rolled back by the server.
 * Nor is a full disk: 503 `storage_full` with Retry-After.
 */
export function knownError(err: unknown): HttpError | ValidationError | undefined {
  if (err instanceof HttpError || err instanceof ValidationError) return err;
  // No room to write (53100, ENOSPC): the statement failed, so its transaction rolled back.
  if (isStorageFull(err)) {
    return new HttpError(
      503,
      'storage_full',
      'The database has no disk space left to write; nothing was saved. Retry after Retry-After seconds (with the same Idempotency-Key).',
      { headers: { 'retry-after': String(STORAGE_FULL_RETRY_AFTER_SECONDS) }, cause: err },
    );
  }
  if (isConnectionError(err)) {
    const seconds = retryAfterOf(err);
    return new HttpError(
      503,
      'database_unavailable',
      'The database is unreachable right now; retry after Retry-After seconds (with the same Idempotency-Key).',
      { headers: { 'retry-after': String(seconds) }, cause: err },
    );
  }
  const constraint = uniqueViolation(err);
  if (constraint !== undefined && LIVE_SUPPLIER_REF_INDEXES.includes(constraint)) {
    // The supplier answered with a reference (PNR) another live booking of ours already holds: nothing was
    // written (the statement rolled back); the supplier's order needs an operator.
    return new HttpError(
      409,
      'duplicate_supplier_reference',
      'The supplier answered with a booking reference (PNR) that another live booking already holds; nothing was recorded. An operator must check this order with the supplier.',
      { cause: err },
    );
  }
  return undefined;
}
