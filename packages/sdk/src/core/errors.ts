/**
 * One error hierarchy for every failed call. `createApiError` is the only place that decides which class a
 * response becomes: by the stable `code` first (what the server promises programs can branch on), by status
 * second (for codes this SDK version does not know yet).
 */

import type { ErrorCode } from '@travel/contract';

export type { ErrorCode };

/** One entry of a 422 `HTTPValidationError.detail` list. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** What every error carries besides its message. */
export interface ApiErrorInit {
  status: number;
  code: string;
  detail: unknown;
  requestId?: string | undefined;
  idempotencyKey?: string | undefined;
  body?: unknown;
  /** Seconds from `Retry-After`, when the server sent one. */
  retryAfter?: number | undefined;
  cause?: unknown;
}

/** Base class: `status` (0 when no response arrived), stable `code`, `requestId`, `idempotencyKey`, `detail`. */
export class TravelApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: unknown;
  readonly requestId: string | undefined;
  readonly idempotencyKey: string | undefined;
  /** The parsed response body, for fields this SDK does not model. */
  readonly body: unknown;

  constructor(init: ApiErrorInit) {
    super(messageOf(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.idempotencyKey = init.idempotencyKey;
    this.body = init.body;
  }
}

/** `loc: msg` per issue (at most three, then how many more), so a message alone names the field(s). */
function issuesText(issues: unknown[]): string | undefined {
  const lines = issues.flatMap((i) => {
    const issue = i as Partial<ValidationIssue> | null;
    if (!issue || typeof issue.msg !== 'string') return [];
    const loc = Array.isArray(issue.loc) ? issue.loc.join('.') : '';
    return [loc ? `${loc}: ${issue.msg}` : issue.msg];
  });
  if (lines.length === 0) return undefined;
  const more = lines.length > 3 ? `; and ${lines.length - 3} more` : '';
  return lines.slice(0, 3).join('; ') + more;
}

function messageOf(init: ApiErrorInit): string {
  const fields = Array.isArray(init.detail) ? issuesText(init.detail) : undefined;
  const detail =
    typeof init.detail === 'string' ? init.detail : fields ? `${init.code}: ${fields}` : init.code;
  const id = init.requestId ? ` (request ${init.requestId})` : '';
  return init.status ? `${init.status} ${detail}${id}` : `${detail}${id}`;
}

/** No response arrived: DNS, reset, timeout. `status` is 0; `timedOut` says whether our timeout fired. */
export class ConnectionError extends TravelApiError {
  readonly timedOut: boolean;
  constructor(
    init: Omit<ApiErrorInit, 'status' | 'code' | 'detail'> & { timedOut?: boolean; message?: string },
  ) {
    const timedOut = init.timedOut ?? false;
    super({
      ...init,
      status: 0,
      code: timedOut ? 'timeout' : 'connection_error',
      detail: init.message ?? (timedOut ? 'request timed out' : 'connection failed'),
    });
    this.timedOut = timedOut;
  }
}

/** 422: `issues` is the `HTTPValidationError.detail` list (`loc`, `msg`, `type`). */
export class ValidationError extends TravelApiError {
  get issues(): ValidationIssue[] {
    return Array.isArray(this.detail) ? (this.detail as ValidationIssue[]) : [];
  }
}
/** 401: no token, a bad one or an expired one; a revoked, expired or unknown API key. */
export class AuthenticationError extends TravelApiError {}
/**
 * The session cannot be renewed: the server refused the refresh token (revoked by a logout or a reuse,
 * expired). `code` is the server's (`invalid_refresh_token`). Log in again; later calls fail with this
 * error without a request until then.
 */
export class SessionEndedError extends AuthenticationError {}
/** 403: authenticated but not allowed (role, tenant, suspended). */
export class PermissionError extends TravelApiError {}
/** 404 or 410: not there, or (search sessions) no longer there. */
export class NotFoundError extends TravelApiError {}
/** 409: never retried by the SDK; in travel it can mean the fare is gone or the same key is still running. */
export class ConflictError extends TravelApiError {}
/** 429: `retryAfter` in seconds when the server sent `Retry-After`. */
export class RateLimitError extends TravelApiError {
  readonly retryAfter: number | undefined;
  constructor(init: ApiErrorInit) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}
/** 501: the supplier behind this booking does not offer the operation. */
export class NotSupportedError extends TravelApiError {}
/** Any other 5xx. */
export class ServerError extends TravelApiError {}

/** 502 pending confirmation: the booking exists; poll `bookingId`, never retry the create. */
export class BookingPendingError extends TravelApiError {
  get bookingId(): number | undefined {
    return numberField(this.body, 'booking_id');
  }
}
/** The price moved between search and booking; `oldTotal`/`newTotal` are in minor units. */
export class PriceChangedError extends TravelApiError {
  get oldTotal(): number | undefined {
    return numberField(this.body, 'previous_total_minor') ?? numberField(this.body, 'old_total_minor');
  }
  get newTotal(): number | undefined {
    return numberField(this.body, 'new_total_minor') ?? numberField(this.body, 'total_minor');
  }
}
/** The offer (or the search that produced it) expired; search again. */
export class OfferExpiredError extends TravelApiError {}
/** The payment provider declined the authorization. */
export class PaymentDeclinedError extends TravelApiError {}
/** A supplier failed or refused; `retryable` says whether trying again later can help. */
export class SupplierError extends TravelApiError {
  get supplier(): string | undefined {
    const body = this.body as { supplier?: unknown; provider?: unknown } | undefined;
    const value = body?.supplier ?? body?.provider;
    return typeof value === 'string' ? value : undefined;
  }
  get retryable(): boolean {
    return RETRYABLE_SUPPLIER_CODES.has(this.code) || this.status === 503 || this.status === 504;
  }
}

// A rejection or a sold-out room stays so; an outage may pass. (A supplier timeout is answered as
// `supplier_unavailable` or, when the supplier may have acted, as a pending booking.)
const RETRYABLE_SUPPLIER_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'supplier_error',
  'supplier_unavailable',
  'no_supplier_available',
]);

function numberField(body: unknown, key: string): number | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[key];
  return typeof value === 'number' ? value : undefined;
}

type ErrorClass = new (init: ApiErrorInit) => TravelApiError;

// Codes the contract lists in `x-error-codes` (a key the contract does not declare does not compile);
// unknown codes fall through to the status table.
const CLASS_OF_CODE = {
  booking_pending: BookingPendingError,
  price_changed: PriceChangedError,
  offer_expired: OfferExpiredError,
  offer_not_found: OfferExpiredError,
  sold_out: OfferExpiredError,
  search_expired: NotFoundError,
  search_not_found: NotFoundError,
  payment_declined: PaymentDeclinedError,
  supplier_error: SupplierError,
  supplier_rejected: SupplierError,
  supplier_unavailable: SupplierError,
  no_supplier_available: SupplierError,
  not_supported_by_provider: NotSupportedError,
  rate_limited: RateLimitError,
  idempotency_in_progress: ConflictError,
  idempotency_key_reused: ValidationError,
  validation_error: ValidationError,
} satisfies Partial<Record<ErrorCode, ErrorClass>>;
const BY_CODE: Partial<Record<string, ErrorClass>> = CLASS_OF_CODE;

const BY_STATUS: Record<number, ErrorClass> = {
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  410: NotFoundError,
  422: ValidationError,
  429: RateLimitError,
  501: NotSupportedError,
};

/** What the factory needs from a failed response. */
export interface ErrorSource {
  status: number;
  body: unknown;
  headers?: Headers | undefined;
  idempotencyKey?: string | undefined;
}

/**
 * The one factory: turns a non-2xx response into the right `TravelApiError` subclass.
 *
 * @example
 * const err = createApiError({ status: 400, body: { detail: 'Declined', code: 'payment_declined', request_id: 'r1' } });
 * err instanceof PaymentDeclinedError; // true
 */
export function createApiError(source: ErrorSource): TravelApiError {
  const body = (source.body ?? {}) as { detail?: unknown; code?: unknown; request_id?: unknown };
  const code =
    typeof body.code === 'string'
      ? body.code
      : source.status === 422
        ? 'validation_error'
        : `http_${source.status}`;
  const Class =
    BY_CODE[code] ?? BY_STATUS[source.status] ?? (source.status >= 500 ? ServerError : TravelApiError);
  const requestId =
    typeof body.request_id === 'string'
      ? body.request_id
      : (source.headers?.get('x-request-id') ?? undefined);
  return new Class({
    status: source.status,
    code,
    detail: body.detail ?? (typeof source.body === 'string' ? source.body : undefined),
    requestId,
    idempotencyKey: source.idempotencyKey,
    body: source.body,
    retryAfter: parseRetryAfterSeconds(source.headers),
  });
}

/** `Retry-After` as seconds (it may be delta-seconds or an HTTP date). */
export function parseRetryAfterSeconds(headers: Headers | undefined, now = Date.now()): number | undefined {
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
