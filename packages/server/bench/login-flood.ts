/**
 * `node bench/login-flood.ts` (issue 28, review M3): 100 parallel bad logins from one address, and,
 * right behind them, one correct login from another address; the figure is how long that other login
 * takes (target: under 1 s). Production password parameters (argon2id m=19 MiB t=2 where Node has it),
 * default login limits and hash queue (PASSWORD_HASH_CONCURRENCY, 2), the real app on in-memory PGlite,
 * dispatched without a socket. The flood's attempts are reserved before any hash runs (at most
 * RATE_LIMIT_LOGIN_IP of them are ever hashed) and the hash queue serves addresses in turn, so the other
 * address waits for at most the hashes already running plus one per busy address.
 * The last line (`login-flood: …`) is what `run.ts` puts in its summary.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { createApp } from '../src/app.ts';
import { loadConfig } from '../src/internal/config.ts';
import { hashPassword } from '../src/internal/passwords.ts';
import { MemoryMailer } from '../src/mail/mailer.ts';
import { openDatabase } from '../src/storage/database.ts';

delete process.env.PASSWORD_SCRYPT_N; // production parameters, whatever the shell says
const FLOOD = Number(process.env.BENCH_LOGIN_FLOOD || 100);
const ROUNDS = Number(process.env.BENCH_LOGIN_ROUNDS || 3);
const TARGET_MS = 1000;

const database = await openDatabase({});
const app = createApp({
  config: loadConfig({ SUPPLIERS: 'sandbox', PUBLIC_BASE_URL: 'http://bench.test' }),
  database,
  mailer: new MemoryMailer(),
  logger: pino({ level: 'silent' }),
});
const password = 'bench password right';
const passwordHash = await hashPassword(password);
const account = async () => {
  const email = `bench-${randomUUID()}@example.test`;
  await database.db
    .insertInto('users')
    .values({
      id: randomUUID(),
      email,
      password_hash: passwordHash,
      full_name: 'Bench User',
      role: 'customer',
      status: 'active',
      email_verified_at: new Date(),
    })
    .execute();
  return email;
};
const login = (email: string, pw: string, ip: string) =>
  app.handle(
    new Request('http://bench.test/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: pw }),
    }),
    { ip },
  );

const others: number[] = [];
let flooded = 0;
let hashedFlood = 0;
for (let round = 0; round < ROUNDS; round++) {
  const victim = await account();
  const user = await account();
  const attacker = `192.0.2.${round + 1}`;
  // Half on one real account, half on unknown ones: both kinds of guessing.
  const flood = Array.from({ length: FLOOD }, (_, i) =>
    login(i % 2 ? victim : `ghost-${round}-${i}@example.test`, `wrong-${i}`, attacker),
  );
  await new Promise((r) => setImmediate(r));
  const t0 = performance.now();
  const res = await login(user, password, `198.51.100.${round + 1}`);
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`the other address's login answered ${res.status}`);
  others.push(ms);
  const statuses = await Promise.all(flood.map((p) => p.then((r) => r.status)));
  flooded += statuses.length;
  hashedFlood += statuses.filter((s) => s === 401).length;
  console.log(
    `round ${round + 1}: ${FLOOD} bad logins from ${attacker}: ${statuses.filter((s) => s === 401).length}×401 (hashed) ${statuses.filter((s) => s === 429).length}×429; the other address's login ${ms.toFixed(0)} ms`,
  );
}
await database.close();
const worst = Math.max(...others);
console.log(
  `login-flood: other address login worst ${worst.toFixed(0)} ms over ${ROUNDS} rounds (target < ${TARGET_MS} ms: ${worst < TARGET_MS ? 'met' : 'NOT MET'}); flood ${flooded} bad logins, ${hashedFlood} hashed`,
);
