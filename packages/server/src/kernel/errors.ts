/**
 * The error hierarchy. Throw these from anywhere; exactly one place (the error-handler middleware) turns
 * them into the contract's body: `{ detail, code, request_id }`, or `HTTPValidationError` for 422.
 * Anything else thrown becomes a bare 500 `internal_error`, logged with its stack, never sent.
 *
 * A `code` is an `ErrorCode`: one the contract declares in some `x-error-codes` (generated into
 * `@travel/contract`), so a code clients cannot know about does not compile.
 */
import type { ErrorCode } from '@travel/contract';

export type { ErrorCode };

export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;
  /** Extra top-level fields for the body (e.g. `booking_id` on a 502 pending confirmation). */
  readonly extra: Record<string, unknown>;
  constructor(
    status: number,
    code: ErrorCode,
    detail: string,
    opts: { headers?: Record<string, string>; extra?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(detail, { cause: opts.cause });
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.headers = opts.headers ?? {};
    this.extra = opts.extra ?? {};
  }
}

export const badRequest = (code: ErrorCode, detail: string, extra?: Record<string, unknown>) =>
  new HttpError(400, code, detail, { extra });
export const unauthorized = (code: ErrorCode, detail: string) =>
  new HttpError(401, code, detail, { headers: { 'www-authenticate': 'Bearer' } });
export const forbidden = (code: ErrorCode, detail: string) => new HttpError(403, code, detail);
export const notFound = (code: ErrorCode, detail: string) => new HttpError(404, code, detail);
export const conflict = (code: ErrorCode, detail: string, extra?: Record<string, unknown>) =>
  new HttpError(409, code, detail, { extra });
export const gone = (code: ErrorCode, detail: string) => new HttpError(410, code, detail);
export const notSupported = (code: ErrorCode, detail: string) => new HttpError(501, code, detail);
export const tooManyRequests = (retryAfterSeconds: number, detail = 'Rate limit exceeded; retry later.') =>
  new HttpError(429, 'rate_limited', detail, {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });

/**
 * The client went away before its request was read (a body cut off mid-stream). Not a server failure:
 * logged at info, counted as 499 (the status nginx uses for it), and nothing is written back.
 */
export class ClientClosedRequest extends Error {
  readonly status = 499;
  constructor(cause?: unknown) {
    super('The client closed the connection before the request was read.', { cause });
    this.name = 'ClientClosedRequest';
  }
}

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** 422 with an HTTPValidationError body: `{ detail: ValidationIssue[] }` (plus `code` when given). */
export class ValidationError extends Error {
  readonly status = 422;
  readonly issues: ValidationIssue[];
  readonly code: ErrorCode | undefined;
  constructor(issues: ValidationIssue[], code?: ErrorCode) {
    super(issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.name = 'ValidationError';
    this.issues = issues;
    this.code = code;
  }
}
