/**
 * Answers a handler returns rather than throws. `errorResult` is for an error that must commit together
 * with the work of its transaction: returned from inside `ctx.transaction`, the idempotent record is
 * stored with it (a thrown error rolls both back). Its body is the one the kernel renders for a thrown
 * error (`renderError`): `{ detail, code, request_id }` plus the error's extra fields.
 */
import type { HttpError, ValidationError } from './errors.ts';
import { renderError } from './middleware/error-handler.ts';
import type { ErrorResult, JsonResult, RequestContext } from './types.ts';

export function errorResult(
  err: HttpError | ValidationError,
  ctx: Pick<RequestContext, 'requestId'>,
): ErrorResult {
  const r = renderError(err, ctx.requestId);
  // renderError builds the contract's ErrorResponse (or HTTPValidationError for a ValidationError).
  const body = r.body as ErrorResult['body'];
  return Object.keys(r.headers).length > 0
    ? { status: r.status, body, headers: r.headers }
    : { status: r.status, body };
}

/** The bodies of `constantResult`s: their JSON text and its byte length, made once. */
const serialized = new WeakMap<object, { text: string; length: string }>();

/** Freezes a plain JSON value to the bottom; anything else (a Date, a Map, a class, a function) throws. */
function freezeJson(value: unknown, at: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`constantResult: ${at} is not a finite number`);
    return;
  }
  if (typeof value !== 'object') throw new TypeError(`constantResult: ${at} is not JSON`);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) freezeJson(value[i], `${at}[${i}]`);
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      throw new TypeError(`constantResult: ${at} is not a plain object`);
    for (const [k, v] of Object.entries(value)) freezeJson(v, `${at}.${k}`);
  }
  Object.freeze(value);
}

/**
 * A JSON answer that is the same for the life of the process, for a handler that returns this one
 * object every time. It is frozen to the bottom (nothing can change it afterwards: a write throws) and
 * its body serialized here, once: the kernel writes that text and length instead of serializing the
 * body on every request. Only plain JSON values (no `toJSON`, no class instances) are accepted.
 */
export function constantResult<T extends JsonResult & { body: object }>(result: T): T {
  freezeJson(result.body, 'body');
  if (result.headers) Object.freeze(result.headers);
  Object.freeze(result);
  const text = JSON.stringify(result.body);
  serialized.set(result.body, { text, length: String(Buffer.byteLength(text)) });
  return result;
}

/** The JSON text and byte length of a `constantResult`'s body, or undefined for any other body. */
export const constantJson = (body: object): { text: string; length: string } | undefined =>
  serialized.get(body);
