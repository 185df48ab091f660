/** Flag validators shared by the parse functions; each failure is a UsageError naming the flag. */
import { UsageError } from './errors.ts';

export function requireValue(value: string | undefined, flag: string, hint = ''): string {
  if (value === undefined || value === '') {
    throw new UsageError(`missing ${flag}${hint ? ` (${hint})` : ''}`);
  }
  return value;
}

export function iata(value: string, flag: string): string {
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw new UsageError(`${flag} must be a 3-letter IATA code, got "${value}"`);
  return code;
}

export function isoDate(value: string, flag: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new UsageError(`${flag} must be a date like 2026-12-20, got "${value}"`);
  }
  return value;
}

export function isoDateTime(value: string, flag: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) {
    throw new UsageError(`${flag} must look like 2026-12-20T14:30, got "${value}"`);
  }
  return value;
}

export function integer(
  value: string | undefined,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

export function oneOf<T extends string>(
  value: string | undefined,
  flag: string,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  const match = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!match) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
  return match;
}

/** A booking reference: numeric id or 6-character PNR. */
export function bookingRef(value: string | undefined): string {
  const ref = requireValue(value, '<booking>', 'a booking id or PNR').trim().toUpperCase();
  if (!/^([0-9]{1,18}|[A-Z0-9]{6})$/.test(ref)) {
    throw new UsageError(`<booking> must be a numeric booking id or a 6-character PNR, got "${value}"`);
  }
  return ref;
}

/** A positive integer id (hotel and transfer bookings are numeric only). */
export function numericId(value: string | undefined, name: string): number {
  const n = Number(requireValue(value, name));
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${name} must be a positive whole number, got "${value}"`);
  return n;
}

/** The output flags every search accepts. */
export interface OutputModeFlags {
  json?: boolean;
  ndjson?: boolean;
}
