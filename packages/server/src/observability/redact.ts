/**
 * Bounded, redacted excerpts of what went to a supplier and what came back, for logs and the booking
 * timeline. Whatever the shape, no card data, token, password, secret, API key, passport or other
 * identity-document number, e-mail, phone or date of birth survives: values under such keys become
 * `[redacted]`, and strings that look like one (a card number, a provider token, a bearer credential)
 * are redacted wherever they appear. Depth, array length, string length and the whole text are capped.
 */

/** Keys whose values are never shown (matched on the key lower-cased, `-` read as `_`). */
const SECRET_KEY =
  /(^|_)(card|cards|pan|cvc|cvv|cvc2|exp_month|exp_year|expiry|token|access_token|refresh_token|password|passwd|pwd|secret|client_secret|api_key|apikey|authorization|auth|credential|credentials|signature|passport|document|documents|doc_number|doc_id|document_number|foid|national_id|iban|account_number|email|phone|mobile|date_of_birth|dob|birth_date|payment_method)($|_)/;
/** Key names in camelCase are split before matching (`clientSecret` → `client_secret`). */
const snake = (k: string): string =>
  k
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();

/**
 * Whether a key's value is hidden, remembered per key name: the same few hundred names (an order's, a
 * search answer's) recur in every call, so each is split and matched once. Bounded: past the limit
 * (arbitrary keys, e.g. a map keyed by ids) the map starts again.
 */
const secretKeys = new Map<string, boolean>();
const SECRET_KEYS_KEPT = 4096;
function isSecretKey(k: string): boolean {
  let secret = secretKeys.get(k);
  if (secret === undefined) {
    secret = SECRET_KEY.test(snake(k));
    if (secretKeys.size >= SECRET_KEYS_KEPT) secretKeys.clear();
    secretKeys.set(k, secret);
  }
  return secret;
}

/** Strings that are secrets whatever key holds them. */
const SECRET_VALUE =
  /\b[A-Za-z0-9]+_secret_[A-Za-z0-9]+|\b(?:tok|pm|sk|rk|pk|src|card)_[A-Za-z0-9_]{6,}|\bBearer\s+\S+|\bduffel_(?:test|live)_\S+|\btk_(?:test|live)_\S+|\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

const MAX_DEPTH = 5;
const MAX_ITEMS = 8;
const MAX_STRING = 120;
export const MAX_EXCERPT = 1500;

/** 13 to 19 digits, spaces or dashes between: a card number when the Luhn check passes. */
const DIGIT_RUN = /\b(?:\d[ -]?){12,18}\d\b/g;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function cleanString(s: string): string {
  const cut = s.length > MAX_STRING ? `${s.slice(0, MAX_STRING)}…` : s;
  // Ticket numbers and timestamps stay; what passes the card check is redacted.
  return cut
    .replace(SECRET_VALUE, '[redacted]')
    .replace(DIGIT_RUN, (m) => (luhn(m.replace(/[ -]/g, '')) ? '[redacted]' : m));
}

/** Values visited per excerpt: a large search answer costs no more than a small one. */
const MAX_NODES = 400;

interface Walk {
  seen: WeakSet<object>;
  nodes: number;
}

function clean(v: unknown, depth: number, w: Walk): unknown {
  if (++w.nodes > MAX_NODES) return '…';
  if (typeof v === 'string') return cleanString(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return v;
  if (typeof v === 'bigint') return String(v);
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Error) return { error: v.name, message: cleanString(v.message) };
  if (typeof v !== 'object') return undefined;
  if (w.seen.has(v)) return '[circular]';
  if (depth >= MAX_DEPTH) return Array.isArray(v) ? `[${v.length} items]` : '{…}';
  if (v instanceof AbortSignal) return undefined;
  w.seen.add(v);
  if (Array.isArray(v)) {
    const out = v.slice(0, MAX_ITEMS).map((x) => clean(x, depth + 1, w));
    if (v.length > MAX_ITEMS) out.push(`… ${v.length - MAX_ITEMS} more`);
    return out;
  }
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const k of Object.keys(v)) {
    if (n++ >= 24) {
      out['…'] = 'more keys';
      break;
    }
    const value = (v as Record<string, unknown>)[k];
    if (isSecretKey(k) && value !== null && value !== undefined && value !== false) out[k] = '[redacted]';
    else {
      const c = clean(value, depth + 1, w);
      if (c !== undefined) out[k] = c;
    }
  }
  return out;
}

/** The value redacted and bounded, as a value (for JSON fields shown as they are). */
export function redacted(value: unknown): unknown {
  return clean(value, 0, { seen: new WeakSet(), nodes: 0 });
}

/** The value as redacted JSON of at most `max` characters (cut with `…`), or null for nothing. */
export function excerpt(value: unknown, max = MAX_EXCERPT): string | null {
  if (value === undefined) return null;
  let text: string | undefined;
  try {
    text = JSON.stringify(clean(value, 0, { seen: new WeakSet(), nodes: 0 }));
  } catch {
    return null;
  }
  if (text === undefined) return null;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
