/**
 * Freezes a value and everything in it, and returns it: for parsed JSON shared between callers (a read
 * coalesced for several requests, the validated values of a remembered replay), so that no caller can
 * change what another one sees. A frozen value's parts were frozen with it, so it is not walked again.
 */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  Object.freeze(v);
  for (const x of Object.values(v)) deepFreeze(x);
  return v;
}
