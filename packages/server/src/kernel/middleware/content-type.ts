import type { Exchange } from '../context.ts';
import { HttpError } from '../errors.ts';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A POST/PUT/PATCH whose Content-Type is not JSON is refused with 415 before anything else runs. */
export function contentTypeCheck(ex: Exchange): void {
  if (BODY_METHODS.has(ex.request.method)) {
    const ct = (ex.request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (ct !== 'application/json' && !/^application\/[\w.+-]*\+json$/.test(ct)) {
      throw new HttpError(
        415,
        'unsupported_media_type',
        'Send the request body as Content-Type: application/json.',
      );
    }
  }
}
