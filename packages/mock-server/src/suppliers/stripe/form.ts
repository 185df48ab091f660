/**
 * Stripe's request encoding: `application/x-www-form-urlencoded` with bracket notation for nesting
 * (`metadata[booking_id]=42`, `payment_method_data[card][token]=tok_visa`, `expand[0]=latest_charge` or
 * `expand[]=latest_charge`). Values stay strings, as Stripe receives them; each endpoint coerces.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = splitKey(rawKey);
    if (path.length === 0) continue;
    assign(root, path, value);
  }
  return normaliseArrays(root) as FormObject;
}

/** `a[b][0]` -> ['a', 'b', '0']; `a[]` -> ['a', ''] (append). */
function splitKey(key: string): string[] {
  const first = key.indexOf('[');
  if (first < 0) return [key];
  const parts = [key.slice(0, first)];
  for (const m of key.slice(first).matchAll(/\[([^\]]*)\]/g)) parts.push(m[1] ?? '');
  return parts;
}

function assign(target: FormObject, path: string[], value: string): void {
  let node: FormObject = target;
  for (let i = 0; i < path.length - 1; i++) {
    const seg = path[i] as string;
    const nextSeg = path[i + 1] as string;
    const key = seg === '' ? String(Object.keys(node).length) : seg;
    const existing = node[key];
    if (existing === undefined || typeof existing === 'string' || Array.isArray(existing)) {
      // Arrays are built as index-keyed objects and turned into arrays at the end, so that `[]` and
      // `[0]` forms mix safely; a scalar followed by a nested key is overwritten (Stripe rejects it).
      node[key] = {};
    }
    node = node[key] as FormObject;
    if (nextSeg === '' && i === path.length - 2) {
      node[String(Object.keys(node).length)] = value;
      return;
    }
  }
  const last = path[path.length - 1] as string;
  node[last === '' ? String(Object.keys(node).length) : last] = value;
}

function normaliseArrays(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const out: FormObject = {};
  for (const k of keys) out[k] = normaliseArrays(value[k] as FormValue);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => out[String(k)] as FormValue);
  }
  return out;
}

/** Canonical string of parsed params, for comparing an idempotent retry with the original request. */
export function canonicalParams(value: FormValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalParams).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalParams(value[k])}`).join(',')}}`;
}
