import { createHash, randomBytes, randomFillSync, randomUUID } from 'node:crypto';

/**
 * Random bytes for identifiers from a pool refilled 4 KiB at a time, as nanoid and node's own
 * `randomUUID` do: a search names every offer, and one call into the CSPRNG per id cost 7 µs each.
 */
const pool = Buffer.allocUnsafe(4096);
let poolAt = pool.length;
function randomTail(bytes: number): string {
  if (poolAt + bytes > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const out = pool.toString('base64url', poolAt, poolAt + bytes);
  poolAt += bytes;
  return out;
}

/** A new offer id: `of_` and 96 random bits. */
export const newOfferId = (): string => `of_${randomTail(12)}`;

/** A new UUID v4 (user ids, job ids). */
export const newId = (): string => randomUUID();

/** An opaque secret token (refresh tokens, invitation codes): 256 bits, base64url. */
export const newSecretToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Tokens are stored only as this hash, so a database leak does not leak usable tokens. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
