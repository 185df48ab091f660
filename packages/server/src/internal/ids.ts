import { createHash, randomBytes, randomUUID } from 'node:crypto';

/** A new UUID v4 (user ids, job ids). */
export const newId = (): string => randomUUID();

/** An opaque secret token (refresh tokens, invitation codes): 256 bits, base64url. */
export const newSecretToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Tokens are stored only as this hash, so a database leak does not leak usable tokens. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
