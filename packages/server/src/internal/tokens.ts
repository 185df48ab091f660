import { errors, jwtVerify, SignJWT } from 'jose';
import type { Role } from '../kernel/types.ts';
import type { Clock } from './clock.ts';
import type { JwtKey } from './config.ts';
import { newId } from './ids.ts';

const ISSUER = 'travel-service';
const ACCESS_AUDIENCE = 'travel-api';
const VERIFY_AUDIENCE = 'travel-email-verification';

export interface AccessClaims {
  userId: string;
  email: string;
  role: Role;
  companyId: number | null;
  impersonatorId?: string;
}

export type VerifyFailure = 'expired' | 'invalid';

export class TokenError extends Error {
  readonly reason: VerifyFailure;
  constructor(reason: VerifyFailure, message: string) {
    super(message);
    this.name = 'TokenError';
    this.reason = reason;
  }
}

/**
 * Signs and verifies JWTs (HS256). The first key signs and names itself in the `kid` header; every listed
 * key verifies, so a key is rotated by prepending a new one and removing the old after one token lifetime.
 */
export class TokenService {
  readonly #keys: { kid: string; key: Uint8Array }[];
  readonly #clock: Clock;
  readonly accessTtlSeconds: number;
  readonly verifyTtlSeconds: number;

  constructor(opts: { keys: JwtKey[]; clock: Clock; accessTtlSeconds: number; verifyTtlSeconds: number }) {
    if (opts.keys.length === 0) throw new Error('TokenService needs at least one key');
    this.#keys = opts.keys.map((k) => ({ kid: k.kid, key: new TextEncoder().encode(k.secret) }));
    this.#clock = opts.clock;
    this.accessTtlSeconds = opts.accessTtlSeconds;
    this.verifyTtlSeconds = opts.verifyTtlSeconds;
  }

  accessTokenTtl(): number {
    return this.accessTtlSeconds;
  }

  #nowSeconds(): number {
    return Math.floor(this.#clock.now().getTime() / 1000);
  }

  async #sign(claims: Record<string, unknown>, subject: string, audience: string, ttl: number) {
    const signer = this.#keys[0];
    if (!signer) throw new Error('no signing key');
    const now = this.#nowSeconds();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: signer.kid, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(audience)
      .setSubject(subject)
      .setJti(newId())
      .setIssuedAt(now)
      .setExpirationTime(now + ttl)
      .sign(signer.key);
  }

  async #verify(token: string, audience: string) {
    try {
      const { payload } = await jwtVerify(
        token,
        (header) => {
          const k = this.#keys.find((x) => x.kid === header.kid);
          if (!k) throw new TokenError('invalid', 'unknown signing key');
          return k.key;
        },
        {
          issuer: ISSUER,
          audience,
          algorithms: ['HS256'],
          currentDate: this.#clock.now(),
        },
      );
      return payload;
    } catch (err) {
      if (err instanceof TokenError) throw err;
      if (err instanceof errors.JWTExpired) throw new TokenError('expired', 'token expired');
      throw new TokenError('invalid', 'invalid token');
    }
  }

  /** An access token; `ttlSeconds` (default `accessTtlSeconds`) shortens it, e.g. for impersonation. */
  signAccess(c: AccessClaims, ttlSeconds?: number): Promise<string> {
    const claims: Record<string, unknown> = { email: c.email, role: c.role, cid: c.companyId, typ: 'access' };
    if (c.impersonatorId) claims.act = { sub: c.impersonatorId };
    const ttl =
      ttlSeconds !== undefined && Number.isFinite(ttlSeconds) && ttlSeconds >= 1
        ? Math.floor(ttlSeconds)
        : this.accessTtlSeconds;
    return this.#sign(claims, c.userId, ACCESS_AUDIENCE, ttl);
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    const p = await this.#verify(token, ACCESS_AUDIENCE);
    if (p.typ !== 'access' || typeof p.sub !== 'string')
      throw new TokenError('invalid', 'not an access token');
    const act = p.act as { sub?: string } | undefined;
    return {
      userId: p.sub,
      email: String(p.email ?? ''),
      role: p.role as Role,
      companyId: typeof p.cid === 'number' ? p.cid : null,
      ...(act?.sub ? { impersonatorId: act.sub } : {}),
    };
  }

  /** The token in the verification link: proves control of `email` for `userId`. */
  signEmailVerification(userId: string, email: string): Promise<string> {
    return this.#sign({ email, typ: 'signup' }, userId, VERIFY_AUDIENCE, this.verifyTtlSeconds);
  }

  async verifyEmailVerification(token: string): Promise<{ userId: string; email: string }> {
    const p = await this.#verify(token, VERIFY_AUDIENCE);
    if (p.typ !== 'signup' || typeof p.sub !== 'string')
      throw new TokenError('invalid', 'not a verification token');
    return { userId: p.sub, email: String(p.email ?? '') };
  }
}
