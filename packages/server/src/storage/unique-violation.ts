/**
 * The constraint a statement broke when it is a unique violation (SQLSTATE 23505), on node-postgres and
 * PGlite alike (both raise the server's error fields), else undefined.
 */
export function uniqueViolation(err: unknown): string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e.code !== '23505') return undefined;
  if (typeof e.constraint === 'string') return e.constraint;
  const m = typeof e.message === 'string' ? /unique constraint "([^"]+)"/.exec(e.message) : null;
  return m?.[1] ?? '';
}

/** The indexes (migration 0110) that keep a supplier reference on at most one live booking. */
export const LIVE_SUPPLIER_REF_INDEXES = [
  'flight_bookings_live_supplier_ref',
  'hotel_bookings_live_supplier_ref',
  'transport_bookings_live_supplier_ref',
];
