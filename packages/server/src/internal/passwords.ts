import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (pw: string, salt: Buffer, len: number, o: object) => Promise<Buffer>;
const KEY_LEN = 32;

/** scrypt cost. 2^15 by default; tests lower it with PASSWORD_SCRYPT_N (the cost is stored per hash). */
const defaultN = () => Number(process.env.PASSWORD_SCRYPT_N || 2 ** 15);

/** `scrypt$N$r$p$salt$hash` (base64url): the parameters travel with the hash, so the cost can rise later. */
export async function hashPassword(password: string, n = defaultN()): Promise<string> {
  const r = 8;
  const p = 1;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LEN, { N: n, r, p, maxmem: 256 * n * r });
  return `scrypt$${n}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const N = Number(n);
  const R = Number(r);
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N,
    r: R,
    p: Number(p),
    maxmem: 256 * N * R,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Verified against when the account does not exist, so response time does not reveal which emails exist. */
let dummy: Promise<string> | undefined;
export const dummyHash = () => {
  dummy ??= hashPassword('not-a-real-password');
  return dummy;
};
