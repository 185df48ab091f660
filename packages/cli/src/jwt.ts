/**
 * Reads the claims of an access token WITHOUT verifying it: only to decide when to refresh and to show
 * expiry. The server verifies every token it receives; nothing here is trusted for access decisions.
 */

export interface AccessClaims {
  sub?: string;
  email?: string;
  role?: string;
  /** company id */
  cid?: number | null;
  /** session id (the refresh-token family) */
  sid?: string;
  jti?: string;
  /** seconds since the epoch */
  exp?: number;
  iat?: number;
}

/** The payload of a JWT, or undefined when the text is not one. */
export function decodeClaims(token: string | undefined): AccessClaims | undefined {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? (claims as AccessClaims) : undefined;
  } catch {
    return undefined;
  }
}

/** Refresh when at most this long is left: a minute, or half the lifetime of a short-lived token. */
export const REFRESH_AHEAD_SECONDS = 60;

/**
 * True when the token is expired or expires soon (within a minute, or within half its lifetime when that
 * is shorter, so a 5-second token is not refreshed before every request). Undecodable tokens: false (the
 * server's 401 `token_expired` still triggers a refresh).
 */
export function expiresSoon(token: string | undefined, nowMs: number): boolean {
  const claims = decodeClaims(token);
  if (typeof claims?.exp !== 'number') return false;
  const lifetime = typeof claims.iat === 'number' ? claims.exp - claims.iat : REFRESH_AHEAD_SECONDS * 2;
  const ahead = Math.min(REFRESH_AHEAD_SECONDS, Math.max(0, lifetime / 2));
  return claims.exp - nowMs / 1000 <= ahead;
}

/** `exp` as an ISO date, or undefined. */
export function expiryOf(token: string | undefined): Date | undefined {
  const exp = decodeClaims(token)?.exp;
  return typeof exp === 'number' ? new Date(exp * 1000) : undefined;
}
