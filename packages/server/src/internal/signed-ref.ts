/**
 * Server-signed references: a value we hand a client (a hotel rate_key, a transfer quote_id) and take
 * back later is `<value>.<mac>`, where mac = HMAC-SHA256(secret, scope + value). Only a value we issued
 * verifies, for the scope it was issued for (a Hotelbeds rate_key is no Duffel Stays rate_key), checked
 * in constant time. The value itself stays readable: it is the supplier's own opaque key.
 *
 * The secret is `SUPPLIER_REF_SECRET` (at least 32 characters), required outside sandbox mode like the
 * JWT keys. Sandbox mode without it derives one from the sandbox JWT key (random per data directory, so
 * references survive a restart and processes sharing the directory agree, and the source holds no key),
 * or, with no JWT key to derive from (a registry built directly in tests), uses a random per-process one.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ConfigError } from './config.ts';

const MAC_LENGTH = 43; // base64url of 32 bytes, unpadded
const CONTEXT = 'travel-supplier-ref/v1';

export interface RefSigner {
  /** `value` bound to `scope`, e.g. `hotelbeds:rate_key`. */
  sign(scope: string, value: string): string;
  /** The value a token carries, or undefined unless we signed it for this scope. */
  verify(scope: string, token: string): string | undefined;
}

export function createRefSigner(secret: string): RefSigner {
  if (secret.length < 32) throw new ConfigError('SUPPLIER_REF_SECRET must be at least 32 characters');
  const mac = (scope: string, value: string) =>
    createHmac('sha256', secret).update(`${CONTEXT}\0${scope}\0${value}`).digest();
  return {
    sign: (scope, value) => `${value}.${mac(scope, value).toString('base64url')}`,
    verify(scope, token) {
      if (typeof token !== 'string') return undefined;
      const dot = token.length - MAC_LENGTH - 1;
      if (dot < 1 || token[dot] !== '.') return undefined;
      const given = Buffer.from(token.slice(dot + 1), 'base64url');
      // Buffer.from drops characters outside the alphabet: re-encode so only the canonical form passes.
      if (given.length !== 32 || given.toString('base64url') !== token.slice(dot + 1)) return undefined;
      const value = token.slice(0, dot);
      return timingSafeEqual(given, mac(scope, value)) ? value : undefined;
    },
  };
}

/** A sandbox signing secret derived from the sandbox JWT key (never the key itself). */
export const deriveSandboxRefSecret = (jwtSecret: string): string =>
  createHmac('sha256', jwtSecret).update(`${CONTEXT}\0sandbox`).digest('base64url');

/**
 * The signing secret: SUPPLIER_REF_SECRET; in sandbox mode without it `sandboxSecret` (derived from the
 * JWT key by the runtime) or a random per-process one; outside sandbox mode its absence is an error.
 */
export function refSecretFromEnv(env: NodeJS.ProcessEnv, sandbox: boolean, sandboxSecret?: string): string {
  const v = env.SUPPLIER_REF_SECRET;
  if (v) {
    if (v.length < 32) throw new ConfigError('SUPPLIER_REF_SECRET must be at least 32 characters');
    return v;
  }
  if (sandbox) return sandboxSecret ?? randomBytes(32).toString('base64url');
  throw new ConfigError('SUPPLIER_REF_SECRET is required outside sandbox mode');
}
