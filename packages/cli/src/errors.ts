/**
 * CLI-side errors and the one mapping from any error to an exit code and a one-line message. Commands throw;
 * only bin.ts turns the result into a process exit.
 */
import {
  AuthenticationError,
  BookingPendingError,
  ConflictError,
  ConnectionError,
  type ErrorCode,
  NotFoundError,
  PermissionError,
  RateLimitError,
  REDACTED,
  redact,
  TravelApiError,
  ValidationError,
} from '@travel/sdk';
import { ExitCode, type ExitCodeValue } from './exit-codes.ts';

/** Wrong or missing flags: exit 2, with the flag to pass named in the message. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A failure the CLI itself decided on (not logged in, a smoke step failed, a pending booking). */
export class CliError extends Error {
  override name = 'CliError';
  readonly exitCode: ExitCodeValue;
  constructor(message: string, exitCode: ExitCodeValue = ExitCode.failed) {
    super(message);
    this.exitCode = exitCode;
  }
}

// 400 codes that mean "not from this state": the request was understood and refused. Typed against the
// contract's codes, so a code the contract renames or drops does not compile here.
const REFUSED_TRANSITION: ReadonlySet<string> = new Set<ErrorCode>([
  'invalid_booking_state',
  'not_cancellable',
  'invalid_payment_state',
  'already_captured',
  'not_captured',
  'already_ticketed',
  'not_ticketed',
  'invalid_company_state',
  'not_reconcilable',
  'confirmation_required',
]);

/** The exit code for anything a command may throw. */
export function exitCodeFor(error: unknown): ExitCodeValue {
  if (error instanceof UsageError) return ExitCode.usage;
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof AuthenticationError || error instanceof PermissionError)
    return ExitCode.authentication;
  if (error instanceof BookingPendingError) return ExitCode.supplierPending;
  if (error instanceof ConflictError) return ExitCode.conflict;
  if (error instanceof TravelApiError && REFUSED_TRANSITION.has(error.code)) return ExitCode.conflict;
  if (error instanceof NotFoundError) return ExitCode.notFound;
  if (error instanceof TravelApiError && error.code.endsWith('_not_found')) return ExitCode.notFound;
  return ExitCode.failed;
}

const SERVERS = new WeakMap<object, string>();

/** Remembers which server a run was talking to when `error` happened (formatError names it). */
export function noteServer(error: unknown, baseUrl: string): void {
  if (error instanceof ConnectionError) SERVERS.set(error, baseUrl);
}

/** One line: what happened, the code, the request id; the server for a connection failure, the wait for a 429. */
export function formatError(error: unknown): string {
  if (error instanceof ConnectionError) {
    const server = SERVERS.get(error);
    const what = error.timedOut ? 'no answer in time from' : 'cannot reach';
    return [
      `error: ${what} ${server ?? 'the server'} (${describe(error)})`,
      `code=${error.code}`,
      server ? 'check --base-url / TRAVEL_BASE_URL and that the server is running' : '',
    ]
      .filter(Boolean)
      .join('  ');
  }
  if (error instanceof RateLimitError) {
    const wait =
      error.retryAfter !== undefined ? `try again in ${Math.ceil(error.retryAfter)}s` : 'try again later';
    const parts = [
      `error: rate limited: ${describe(error)}; ${wait}`,
      `code=${error.code}`,
      `status=${error.status}`,
    ];
    if (error.requestId) parts.push(`request_id=${error.requestId}`);
    return parts.join('  ');
  }
  if (error instanceof TravelApiError) {
    const parts = [`error: ${describe(error)}`, `code=${error.code}`];
    if (error.status) parts.push(`status=${error.status}`);
    if (error.requestId) parts.push(`request_id=${error.requestId}`);
    return parts.join('  ');
  }
  if (error instanceof UsageError) return `usage: ${error.message}`;
  if (error instanceof Error) return `error: ${error.message}`;
  return `error: ${String(error)}`;
}

function describe(error: TravelApiError): string {
  if (error instanceof ValidationError && error.issues.length > 0) {
    return error.issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; ');
  }
  if (typeof error.detail === 'string') return error.detail;
  return error.message;
}

/** For --verbose: the response body of a failed call, with secrets redacted. */
export function verboseDetail(error: unknown): string | undefined {
  if (!(error instanceof TravelApiError)) return error instanceof Error ? error.stack : undefined;
  const lines = [`  status: ${error.status}`];
  if (error.idempotencyKey) lines.push(`  idempotency-key: ${error.idempotencyKey}`);
  if (error.body !== undefined) lines.push(`  body: ${JSON.stringify(redact(error.body))}`);
  return lines.join('\n');
}

/** Removes bearer tokens and API keys from any text we print (verbose logs). */
export function redactTokens(text: string): string {
  return text
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, `$1${REDACTED}`)
    .replace(/\b(tk_(?:test|live)_)[A-Za-z0-9_-]+/g, `$1${REDACTED}`);
}
