import { invalidRequest, parameterMissing, parameterUnknown } from './errors.ts';
import type { FormObject, FormValue } from './form.ts';

/**
 * Parameter checks as Stripe makes them, so that an adapter sending a wrong or misspelt field fails here
 * as it would against Stripe (400 `parameter_unknown`, `parameter_missing`, `parameter_invalid_integer`).
 */

export function allowOnly(params: FormObject, allowed: readonly string[]): void {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) throw parameterUnknown(key);
  }
}

export function str(params: FormObject, name: string): string | undefined {
  const v = params[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') {
    throw invalidRequest('parameter_invalid_string', `Invalid string: ${name}`, name);
  }
  return v;
}

export function requiredStr(params: FormObject, name: string): string {
  const v = str(params, name);
  if (v === undefined || v === '') throw parameterMissing(name);
  return v;
}

export function int(params: FormObject, name: string): number | undefined {
  const v = str(params, name);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) {
    throw invalidRequest('parameter_invalid_integer', `Invalid integer: ${v}`, name);
  }
  return Number(v);
}

export function bool(params: FormObject, name: string): boolean | undefined {
  const v = str(params, name);
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') {
    throw invalidRequest('parameter_invalid_boolean', `Invalid boolean: ${v}`, name);
  }
  return v === 'true';
}

export function oneOf<T extends string>(
  params: FormObject,
  name: string,
  values: readonly T[],
): T | undefined {
  const v = str(params, name);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v)) {
    throw invalidRequest(
      'parameter_invalid_string',
      `Invalid ${name}: must be one of ${values.join(', ')}`,
      name,
    );
  }
  return v as T;
}

/** Stripe's metadata limits: 50 keys, keys up to 40 characters, values up to 500. */
export function metadata(params: FormObject): Record<string, string> | undefined {
  const v = params.metadata;
  if (v === undefined) return undefined;
  if (v === '') return {};
  if (typeof v === 'string' || Array.isArray(v)) {
    throw invalidRequest('parameter_invalid_string', 'Invalid object', 'metadata');
  }
  const out: Record<string, string> = {};
  const keys = Object.keys(v);
  if (keys.length > 50) {
    throw invalidRequest('parameter_invalid_string', 'Metadata can have at most 50 keys.', 'metadata');
  }
  for (const k of keys) {
    const value = v[k];
    if (typeof value !== 'string') {
      throw invalidRequest('parameter_invalid_string', 'Invalid string', `metadata[${k}]`);
    }
    if (k.length > 40 || value.length > 500) {
      throw invalidRequest(
        'parameter_invalid_string',
        'Metadata keys are limited to 40 characters and values to 500 characters.',
        `metadata[${k}]`,
      );
    }
    out[k] = value;
  }
  return out;
}

/** `expand[]=latest_charge` / `expand[0]=latest_charge`. */
export function expand(params: FormObject): string[] {
  const v: FormValue | undefined = params.expand;
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x): x is string => typeof x === 'string');
}

export function child(params: FormObject, name: string): FormObject | undefined {
  const v = params[name];
  if (v === undefined || typeof v === 'string' || Array.isArray(v)) return undefined;
  return v;
}
