/**
 * "The database cannot be reached right now", as opposed to "this query is wrong": the errors a
 * PostgreSQL restart, a dropped connection or an unreachable server produce. They answer 503
 * `database_unavailable` with `Retry-After` (error-handler.ts); nothing was done that a retry could repeat
 * unknowingly, because a transaction cut mid-way is rolled back by the server.
 */

/** Thrown without touching the network while the link is known to be down (database.ts). */
export class DatabaseUnavailableError extends Error {
  readonly code = 'database_unavailable';
  /** When the next reconnect attempt is due, in whole seconds (at least 1). */
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds = 1, opts: { cause?: unknown } = {}) {
    super(message, opts);
    this.name = 'DatabaseUnavailableError';
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  }
}

/** Socket-level failures (node:net, DNS) that mean the server is not there. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now; class 08 connection
 * exceptions; class 53 but 53100 (below).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03']);

/** pg's own messages for a connection that died under it or could not be made in time. */
const MESSAGES = [
  /connection terminated/i,
  /client has encountered a connection error and is not queryable/i,
  /timeout exceeded when trying to connect/i,
];

const FROM_DATABASE = Symbol.for('travel.databaseError');

/**
 * Marks an error as raised by the database driver, so that a bare socket code (ECONNRESET) counts as the
 * database's and not, say, the mail server's or a supplier's.
 */
export function markDatabaseError<E>(err: E): E {
  if (err && typeof err === 'object') (err as Record<symbol, boolean>)[FROM_DATABASE] = true;
  return err;
}

export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  if (err instanceof DatabaseUnavailableError) return true;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown; [FROM_DATABASE]?: boolean };
  const code = typeof e.code === 'string' ? e.code : '';
  // SQLSTATEs and pg's own messages can only come from the database driver.
  if (SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  // Class 53 insufficient resources (out of memory, too many connections), except 53100 disk_full, which
  // is `storage_full` (storage-faults.ts): the server is there but cannot take this now.
  if (/^53[0-9A-Z]{3}$/.test(code) && code !== '53100') return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (!e[FROM_DATABASE]) return false;
  if (NETWORK_CODES.has(code)) return true;
  // Happy-eyeballs connects fail with an AggregateError of one error per address.
  return (
    Array.isArray(e.errors) && e.errors.some((x) => NETWORK_CODES.has((x as { code?: string })?.code ?? ''))
  );
}

/** Seconds a client should wait before retrying, from the error if it knows, else 1. */
export function retryAfterOf(err: unknown): number {
  return err instanceof DatabaseUnavailableError ? err.retryAfterSeconds : 1;
}
