/**
 * Reading a stored value back as the contract's type without a cast: a value of a text or jsonb column is
 * checked against the enum (or primitive) the contract declares, so a view that answers it is typed by the
 * contract honestly. A value outside the enum is a fault of the data, not of the caller: `member` and
 * `oneOf` throw (a 500 with the column named), `memberOr` falls back where the view has a default.
 */

/**
 * An enum's members as the keys of a table: `Record<T, true>` must name every member of the union and
 * nothing else, so the list cannot drift from the contract's type.
 */
export type Members<T extends string> = Readonly<Record<T, true>>;

/** Whether `v` is a member. */
function isMember<T extends string>(members: Members<T>, v: unknown): v is T {
  return typeof v === 'string' && Object.hasOwn(members, v);
}

/** `v` as a member; throws when the stored value is not one. */
export function member<T extends string>(members: Members<T>, v: unknown, what: string): T {
  if (isMember(members, v)) return v;
  throw new Error(
    `${what}: the stored value ${JSON.stringify(v)} is not one of ${Object.keys(members).join(', ')}`,
  );
}

/** `v` as a member, else `fallback`. */
export function memberOr<T extends string, F>(members: Members<T>, v: unknown, fallback: F): T | F {
  return isMember(members, v) ? v : fallback;
}

/** `v` as one of the contract's listed values (e.g. `FLIGHT_SUPPLIERS`); throws when it is not one. */
export function oneOf<T extends string>(values: readonly T[], v: unknown, what: string): T {
  const found = values.find((x) => x === v);
  if (found !== undefined) return found;
  throw new Error(`${what}: the stored value ${JSON.stringify(v)} is not one of ${values.join(', ')}`);
}

/** The string at `v`, else `fallback`. */
export const stringOr = <F>(v: unknown, fallback: F): string | F => (typeof v === 'string' ? v : fallback);
/** The finite number at `v`, else `fallback`. */
export const numberOr = <F>(v: unknown, fallback: F): number | F =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;
/** The boolean at `v`, else `fallback`. */
export const booleanOr = <F>(v: unknown, fallback: F): boolean | F => (typeof v === 'boolean' ? v : fallback);

/** A jsonb value as an object (a driver may hand it back as text); anything else is `{}`. */
export function jsonObject(v: unknown): Record<string, unknown> {
  const parsed: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? { ...parsed } : {};
}

/** A timestamp column (a Date, or text from a driver) as ISO 8601 text; throws on anything else. */
export function timestampText(v: unknown, what: string): string {
  if (v instanceof Date || typeof v === 'string') return new Date(v).toISOString();
  throw new Error(`${what}: not a timestamp: ${JSON.stringify(v)}`);
}
