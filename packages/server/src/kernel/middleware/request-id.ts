import { randomBytes } from 'node:crypto';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** A sane incoming `X-Request-Id` (so ids follow a request across services), else undefined. */
export const incomingRequestId = (value: string | null): string | undefined =>
  value && SAFE_ID.test(value) ? value : undefined;

// Per process: a random prefix (72 bits) and a counter. Unique across processes and restarts in
// practice, and about a hundred times cheaper than fresh random bytes per request.
const prefix = `req_${randomBytes(9).toString('base64url')}`;
let counter = 0;

/** A new request id: short, URL-safe, unique enough for correlating logs. */
export const mintRequestId = (): string => {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${prefix}${counter.toString(36)}`;
};
