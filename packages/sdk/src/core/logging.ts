/**
 * Debug logging of every HTTP attempt. Secrets and personal data are redacted by field name, so a log line
 * can be pasted into a ticket: tokens, card tokens, passwords, passport/document numbers, dates of birth,
 * emails and phone numbers never leave the process.
 */

import { CONTRACT_SENSITIVE_FIELDS } from '../generated/sensitive-fields.ts';

/** One attempt, as handed to `logger.debug`. */
export interface LogRecord {
  method: string;
  /** Path plus redacted query string. */
  path: string;
  status: number | undefined;
  latencyMs: number;
  requestId: string | undefined;
  attempt: number;
  idempotencyKey?: string | undefined;
  /** The JSON request body with sensitive fields replaced by `[redacted]`. */
  body?: unknown;
  error?: string | undefined;
}

/** Anything with a `debug(message, record)` method; `console` works. */
export interface Logger {
  debug(message: string, record: LogRecord): void;
}

/** The placeholder that replaces a sensitive value. */
export const REDACTED = '[redacted]';

// Normalised (lower case, no separators) name fragments. Substring matches catch `contact_email`,
// `notification_phone`, `passport_number`, `refresh_token`...
const SENSITIVE_FRAGMENTS = [
  'token',
  'password',
  'secret',
  'authorization',
  'apikey',
  'email',
  'phone',
  'mobile',
  'passport',
  'docnumber',
  'documentnumber',
  'dateofbirth',
  'birthdate',
  'cardnumber',
  'cvv',
  'cvc',
  'invitecode',
];
// Exact names only: `number` is the document number of a FOID update, `dob` a date of birth; as fragments
// they would hide flight numbers and seat numbers.
// Plus every field the contract marks (format email/password, writeOnly, x-sensitive): see
// scripts/generate-sensitive-fields.ts.
const SENSITIVE_EXACT = new Set(['dob', 'number', 'pan', ...CONTRACT_SENSITIVE_FIELDS.map(normalise)]);

function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Whether a field of this name holds a secret or personal data.
 *
 * @example
 * isSensitiveField('contact_email'); // true
 * isSensitiveField('flight_number'); // false
 */
export function isSensitiveField(name: string): boolean {
  const key = normalise(name);
  return SENSITIVE_EXACT.has(key) || SENSITIVE_FRAGMENTS.some((fragment) => key.includes(fragment));
}

/**
 * A deep copy of `value` with every sensitive field replaced by `[redacted]`.
 *
 * @example
 * redact({ email: 'a@b.c', pnr: 'ABC123' }); // { email: '[redacted]', pnr: 'ABC123' }
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      isSensitiveField(key) && item !== null && item !== undefined ? REDACTED : redact(item, depth + 1);
  }
  return out;
}

/**
 * `pathname?query` of a URL with sensitive query parameters (e.g. verify-email's tokens) redacted.
 *
 * @example
 * redactUrl('https://x/api/v1/auth/verify-email?access_token=abc'); // '/api/v1/auth/verify-email?access_token=[redacted]'
 */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  for (const key of [...parsed.searchParams.keys()]) {
    if (isSensitiveField(key)) parsed.searchParams.set(key, REDACTED);
  }
  return parsed.pathname + decodeURIComponent(parsed.search);
}
