import * as crypto from 'node:crypto';
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { environment, passwordHashConcurrency, passwordHashQueuePerClient } from './config.ts';
import { FairGate } from './hash-gate.ts';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, o: object) => Promise<Buffer>;
const KEY_LEN = 32;

/**
 * How a password is hashed. The parameters travel with every hash, so the policy can rise later and
 * `needsRehash` tells the login to upgrade an older hash.
 * - argon2id, m=19 MiB, t=2, p=1 (OWASP's first choice) where the runtime has `crypto.argon2` (Node ≥ 24.7);
 * - scrypt N=2^17, r=8, p=1 (OWASP's scrypt parameters, 128 MiB per hash) elsewhere;
 * - scrypt at `PASSWORD_SCRYPT_N` when that is set (tests keep the cost low with it).
 */
export type PasswordParams =
  | { alg: 'argon2id'; m: number; t: number; p: number }
  | { alg: 'scrypt'; n: number; r: number; p: number };

type Argon2 = (
  alg: 'argon2id',
  o: {
    message: string;
    nonce: Buffer;
    parallelism: number;
    tagLength: number;
    memory: number;
    passes: number;
  },
  cb: (err: Error | null, key: Buffer) => void,
) => void;
const argon2Fn = (crypto as unknown as { argon2?: Argon2 }).argon2;
const argon2 = argon2Fn
  ? (message: string, nonce: Buffer, len: number, m: number, t: number, p: number) =>
      new Promise<Buffer>((resolve, reject) =>
        argon2Fn(
          'argon2id',
          { message, nonce, parallelism: p, tagLength: len, memory: m, passes: t },
          (err, key) => (err ? reject(err) : resolve(key)),
        ),
      )
  : undefined;

export const ARGON2_AVAILABLE = argon2 !== undefined;
export const OWASP_ARGON2ID: PasswordParams = { alg: 'argon2id', m: 19 * 1024, t: 2, p: 1 };
export const OWASP_SCRYPT: PasswordParams = { alg: 'scrypt', n: 2 ** 17, r: 8, p: 1 };

export function currentPasswordParams(env: NodeJS.ProcessEnv = environment()): PasswordParams {
  const n = Number(env.PASSWORD_SCRYPT_N);
  if (env.PASSWORD_SCRYPT_N && Number.isInteger(n) && n >= 2 && (n & (n - 1)) === 0) {
    return { alg: 'scrypt', n, r: 8, p: 1 };
  }
  return ARGON2_AVAILABLE ? OWASP_ARGON2ID : OWASP_SCRYPT;
}

/** Memory one hash needs, in bytes (scrypt: 128·N·r; argon2id: m KiB). */
export function hashMemoryBytes(p: PasswordParams): number {
  return p.alg === 'scrypt' ? 128 * p.n * p.r : p.m * 1024;
}

/**
 * At most `PASSWORD_HASH_CONCURRENCY` (default 2) hashes run at once in this process; the others wait
 * in line, one lane per client address served in turn (`FairGate`). A burst of logins then costs at most
 * that many times `hashMemoryBytes` (256 MiB for scrypt N=2^17, 38 MiB for argon2id) instead of one
 * hash's memory per concurrent request, and a flood from one address delays another only boundedly.
 */
let gate: FairGate | undefined;
const slots = () => {
  gate ??= new FairGate(passwordHashConcurrency(), passwordHashQueuePerClient());
  return gate;
};

/** How many hash computations wait for a slot right now (tests, metrics). */
export const passwordHashesWaiting = () => slots().waiting;

/** Whose hash it is: the client address (its lane in the queue); work of no client shares one lane. */
export interface HashOptions {
  client?: string;
}

async function derive(
  password: string,
  salt: Buffer,
  len: number,
  p: PasswordParams,
  o: HashOptions = {},
): Promise<Buffer> {
  return slots().run(o.client ?? '', () => {
    if (p.alg === 'scrypt') {
      // maxmem must exceed 128·N·r (node's default, 32 MiB, refuses N=2^17).
      return scrypt(password, salt, len, { N: p.n, r: p.r, p: p.p, maxmem: 2 * hashMemoryBytes(p) });
    }
    if (!argon2) throw new Error('this runtime has no crypto.argon2; argon2id hashes cannot be verified');
    return argon2(password, salt, len, p.m, p.t, p.p);
  });
}

const b64 = (b: Buffer) => b.toString('base64url');

/**
 * `argon2id$m=19456,t=2,p=1$salt$hash` or `scrypt$N$r$p$salt$hash` (base64url): the parameters travel
 * with the hash.
 */
export async function hashPassword(
  password: string,
  params: PasswordParams | number = currentPasswordParams(),
  o: HashOptions = {},
): Promise<string> {
  const p: PasswordParams = typeof params === 'number' ? { alg: 'scrypt', n: params, r: 8, p: 1 } : params;
  const salt = randomBytes(16);
  const key = await derive(password, salt, KEY_LEN, p, o);
  return p.alg === 'scrypt'
    ? `scrypt$${p.n}$${p.r}$${p.p}$${b64(salt)}$${b64(key)}`
    : `argon2id$m=${p.m},t=${p.t},p=${p.p}$${b64(salt)}$${b64(key)}`;
}

/** The parameters and material of a stored hash, or undefined when it is not one of ours. */
export function parseHash(
  stored: string,
): { params: PasswordParams; salt: Buffer; hash: Buffer } | undefined {
  const parts = stored.split('$');
  const num = (s: string | undefined) => (s && /^\d+$/.test(s) ? Number(s) : Number.NaN);
  if (parts[0] === 'scrypt' && parts.length === 6) {
    const [, n, r, p, salt, hash] = parts;
    const params = { alg: 'scrypt' as const, n: num(n), r: num(r), p: num(p) };
    if (![params.n, params.r, params.p].every(Number.isFinite) || !salt || !hash) return undefined;
    return { params, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
  }
  if (parts[0] === 'argon2id' && parts.length === 4) {
    const [, settings, salt, hash] = parts;
    const kv = Object.fromEntries((settings ?? '').split(',').map((x) => x.split('=') as [string, string]));
    const params = { alg: 'argon2id' as const, m: num(kv.m), t: num(kv.t), p: num(kv.p) };
    if (![params.m, params.t, params.p].every(Number.isFinite) || !salt || !hash) return undefined;
    return { params, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
  }
  return undefined;
}

export async function verifyPassword(
  password: string,
  stored: string,
  o: HashOptions = {},
): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed || parsed.hash.length === 0) return false;
  const key = await derive(password, parsed.salt, parsed.hash.length, parsed.params, o);
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/**
 * Whether a stored hash should be replaced on the next successful login: another algorithm than the
 * policy's, or any cost parameter below it.
 */
export function needsRehash(stored: string, policy: PasswordParams = currentPasswordParams()): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return true;
  const s = parsed.params;
  if (s.alg !== policy.alg) return true;
  if (s.alg === 'scrypt' && policy.alg === 'scrypt')
    return s.n < policy.n || s.r < policy.r || s.p < policy.p;
  if (s.alg === 'argon2id' && policy.alg === 'argon2id')
    return s.m < policy.m || s.t < policy.t || s.p < policy.p;
  return false;
}

/**
 * Verified against when the account does not exist, so response time does not reveal which emails
 * exist; made at the current policy (the cost a real account's check has).
 */
const dummies = new Map<string, Promise<string>>();
export const dummyHash = () => {
  const p = currentPasswordParams();
  const key = JSON.stringify(p);
  let d = dummies.get(key);
  if (!d) {
    d = hashPassword('not-a-real-password', p);
    dummies.set(key, d);
  }
  return d;
};
