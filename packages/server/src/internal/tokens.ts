import { createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from './clock.ts';
import type { JwtKey } from './config.ts';
import { newId } from './ids.ts';
import type { Role } from './roles.ts';

const ISSUER = 'travel-service';
const ACCESS_AUDIENCE = 'travel-api';
const VERIFY_AUDIENCE = 'travel-email-verification';
/** Clock skew tolerated between the process that signed a token and the one checking `iat`. */
export const CLOCK_SKEW_SECONDS = 60;

export interface AccessClaims {
  userId: string;
  email: string;
  role: Role;
  companyId: number | null;
  impersonatorId?: string;
  /** The login session (refresh-token family) the token was issued in: `sid`. Logout and refresh-token
   * reuse revoke every access token of the session through it. */
  sessionId?: string;
}

/** A verified access token: its claims, its own id (`jti`) and when it expires. */
export interface VerifiedAccess extends AccessClaims {
  tokenId: string;
  expiresAt: Date;
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

/** Verified access tokens kept per process (see `TokenService.verifyAccess`). */
const VERIFIED_CACHE_MAX = 10_000;

interface CachedAccess {
  access: VerifiedAccess;
  iat: number;
  nbf: number | undefined;
}

/**
 * Signs and verifies JWTs (HS256). The first key signs and names itself in the `kid` header; every listed
 * key verifies, so a key is rotated by prepending a new one and removing the old after one token lifetime.
 * Each key is imported once (a `KeyObject`): handing jose raw bytes made it import the key again through
 * WebCrypto on every verification (28 % of CPU on an authenticated read, issue #20).
 */
export class TokenService {
  readonly #keys: { kid: string; key: KeyObject }[];
  /** token -> what verifying it gave, until it expires; oldest first, at most VERIFIED_CACHE_MAX. */
  readonly #verified = new Map<string, CachedAccess>();
  readonly #clock: Clock;
  readonly accessTtlSeconds: number;
  readonly verifyTtlSeconds: number;

  constructor(opts: { keys: JwtKey[]; clock: Clock; accessTtlSeconds: number; verifyTtlSeconds: number }) {
    if (opts.keys.length === 0) throw new Error('TokenService needs at least one key');
    this.#keys = opts.keys.map((k) => ({ kid: k.kid, key: createSecretKey(Buffer.from(k.secret, 'utf8')) }));
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

  /**
   * Signature, issuer, audience, `exp`, `nbf`, and what jose leaves to us: `exp` and `iat` must be
   * present, `iat` may not lie in the future (beyond `CLOCK_SKEW_SECONDS`), and the lifetime `exp - iat`
   * may not exceed what this service issues (`maxLifetime` + skew), so a token signed with a leaked key
   * for a century, or without an expiry, is refused.
   */
  async #verify(token: string, audience: string, maxLifetime: number) {
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(
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
          requiredClaims: ['exp', 'iat'],
        },
      ));
    } catch (err) {
      if (err instanceof TokenError) throw err;
      if (err instanceof errors.JWTExpired) throw new TokenError('expired', 'token expired');
      throw new TokenError('invalid', 'invalid token');
    }
    const { exp, iat } = payload;
    if (typeof exp !== 'number' || typeof iat !== 'number') throw new TokenError('invalid', 'no exp or iat');
    if (iat > this.#nowSeconds() + CLOCK_SKEW_SECONDS) throw new TokenError('invalid', 'iat in the future');
    if (exp - iat > maxLifetime + CLOCK_SKEW_SECONDS) throw new TokenError('invalid', 'lifetime too long');
    return payload;
  }

  /** The longest an access token of this service lives; denylist entries are kept this long (+ skew). */
  maxAccessLifetimeSeconds(): number {
    return this.accessTtlSeconds + CLOCK_SKEW_SECONDS;
  }

  /** An access token; `ttlSeconds` (default `accessTtlSeconds`) shortens it, e.g. for impersonation. */
  signAccess(c: AccessClaims, ttlSeconds?: number): Promise<string> {
    const claims: Record<string, unknown> = { email: c.email, role: c.role, cid: c.companyId, typ: 'access' };
    if (c.impersonatorId) claims.act = { sub: c.impersonatorId };
    if (c.sessionId) claims.sid = c.sessionId;
    const ttl =
      ttlSeconds !== undefined && Number.isFinite(ttlSeconds) && ttlSeconds >= 1
        ? Math.min(Math.floor(ttlSeconds), this.accessTtlSeconds)
        : this.accessTtlSeconds;
    return this.#sign(claims, c.userId, ACCESS_AUDIENCE, ttl);
  }

  /**
   * A token verified before is answered from memory until it expires: the signature and the claims of a
   * given string cannot change, only time can, so `exp`, `nbf` and `iat` are checked again against the
   * clock on every hit. Revocation (logout, refresh-token reuse) is not decided here: the caller checks
   * the denylist on every request, cached or not.
   */
  async verifyAccess(token: string): Promise<VerifiedAccess> {
    const hit = this.#verified.get(token);
    if (hit) {
      const now = this.#clock.now().getTime();
      if (now >= hit.access.expiresAt.getTime()) {
        this.#verified.delete(token);
        throw new TokenError('expired', 'token expired');
      }
      const nowSeconds = Math.floor(now / 1000);
      if (hit.iat <= nowSeconds + CLOCK_SKEW_SECONDS && (hit.nbf === undefined || hit.nbf <= nowSeconds)) {
        return hit.access;
      }
      this.#verified.delete(token);
    }
    const { iat, nbf, ...access } = await this.#verifyAccess(token);
    this.#remember(token, { access, iat, nbf });
    return access;
  }

  #remember(token: string, entry: CachedAccess): void {
    if (this.#verified.size >= VERIFIED_CACHE_MAX) {
      const now = this.#clock.now().getTime();
      for (const [k, v] of this.#verified) {
        if (v.access.expiresAt.getTime() <= now) this.#verified.delete(k);
      }
      // Still full: drop the oldest entries (insertion order).
      for (const k of this.#verified.keys()) {
        if (this.#verified.size < VERIFIED_CACHE_MAX) break;
        this.#verified.delete(k);
      }
    }
    this.#verified.set(token, entry);
  }

  async #verifyAccess(token: string): Promise<VerifiedAccess & { iat: number; nbf?: number }> {
    const p = await this.#verify(token, ACCESS_AUDIENCE, this.accessTtlSeconds);
    if (p.typ !== 'access' || typeof p.sub !== 'string' || typeof p.jti !== 'string' || !p.jti)
      throw new TokenError('invalid', 'not an access token');
    if (p.sid !== undefined && (typeof p.sid !== 'string' || !p.sid))
      throw new TokenError('invalid', 'malformed sid');
    const act = p.act as { sub?: string } | undefined;
    return {
      userId: p.sub,
      email: String(p.email ?? ''),
      role: p.role as Role,
      companyId: typeof p.cid === 'number' ? p.cid : null,
      tokenId: p.jti,
      expiresAt: new Date((p.exp as number) * 1000),
      ...(act?.sub ? { impersonatorId: act.sub } : {}),
      ...(typeof p.sid === 'string' ? { sessionId: p.sid } : {}),
      iat: p.iat as number,
      ...(typeof p.nbf === 'number' ? { nbf: p.nbf } : {}),
    };
  }

  /** The token in the verification link: proves control of `email` for `userId`. */
  signEmailVerification(userId: string, email: string): Promise<string> {
    return this.#sign({ email, typ: 'signup' }, userId, VERIFY_AUDIENCE, this.verifyTtlSeconds);
  }

  async verifyEmailVerification(token: string): Promise<{ userId: string; email: string }> {
    const p = await this.#verify(token, VERIFY_AUDIENCE, this.verifyTtlSeconds);
    if (p.typ !== 'signup' || typeof p.sub !== 'string')
      throw new TokenError('invalid', 'not a verification token');
    return { userId: p.sub, email: String(p.email ?? '') };
  }
}

/**
 * The sandbox's JWT signing key when neither JWT_SECRET nor JWT_SECRETS is set: random, made once per
 * data directory (`<dataDir>/jwt-secret`, mode 0600) and reused across restarts, so tokens survive a
 * restart but nobody else can sign one (the source holds no key). Several processes starting at once
 * agree on one key: the file appears atomically (written aside, then hard-linked into place).
 */
export async function sandboxJwtKey(dataDir: string): Promise<JwtKey> {
  const file = join(dataDir, 'jwt-secret');
  const read = async () => {
    const secret = (await readFile(file, 'utf8')).trim();
    if (secret.length < 32) throw new Error(`${file} holds no usable key (delete it to make a new one)`);
    if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
    return { kid: 'sandbox', secret };
  };
  try {
    return await read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600 });
  try {
    await link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await rm(tmp, { force: true });
  }
  return read();
}
