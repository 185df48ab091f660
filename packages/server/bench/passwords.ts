/**
 * `node bench/passwords.ts`: what one login's password check costs at the production parameters
 * (`src/internal/passwords.ts`), and what a burst of logins costs with the hashing semaphore.
 * - sequential: p50/p99 wall time of `verifyPassword` per policy (argon2id m=19 MiB t=2 where Node has
 *   it, scrypt N=2^17 r=8 p=1 always, for comparison);
 * - burst: BURST concurrent logins (verifications) through the semaphore (PASSWORD_HASH_CONCURRENCY,
 *   default 2): the time until the last one answers, the per-login latency, and how far the process's
 *   RSS rose above its idle level (sampled every 5 ms): bounded by concurrency × one hash's memory,
 *   not by the burst size. (libuv's thread pool, 4 threads by default, already caps an unbounded burst
 *   at 4 hashes; freed hash memory stays in the allocator's per-thread arenas, so RSS shows the arenas
 *   touched rather than the hashes in flight.)
 * The last line (`passwords: …`) is what `run.ts` puts in its summary.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  ARGON2_AVAILABLE,
  hashMemoryBytes,
  hashPassword,
  OWASP_ARGON2ID,
  OWASP_SCRYPT,
  type PasswordParams,
  verifyPassword,
} from '../src/internal/passwords.ts';

delete process.env.PASSWORD_SCRYPT_N; // production parameters, whatever the shell says
const ROUNDS = Number(process.env.BENCH_PASSWORD_ROUNDS || 12);
const BURST = Number(process.env.BENCH_PASSWORD_BURST || 20);
const MiB = 1024 * 1024;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
const label = (p: PasswordParams) =>
  p.alg === 'scrypt'
    ? `scrypt N=2^${Math.log2(p.n)} r=${p.r} p=${p.p}`
    : `argon2id m=${p.m / 1024} MiB t=${p.t} p=${p.p}`;

async function sequential(p: PasswordParams) {
  const stored = await hashPassword('bench password', p);
  await verifyPassword('bench password', stored); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    if (!(await verifyPassword('bench password', stored))) throw new Error('verification failed');
    ms.push(performance.now() - t0);
  }
  return { p50: pct(ms, 50), p99: pct(ms, 99), stored };
}

async function burst(stored: string) {
  const idle = process.memoryUsage.rss();
  let peak = idle;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const t0 = performance.now();
  const latencies = await Promise.all(
    Array.from({ length: BURST }, async () => {
      const s = performance.now();
      await verifyPassword('bench password', stored);
      return performance.now() - s;
    }),
  );
  const total = performance.now() - t0;
  clearInterval(timer);
  return { total, p50: pct(latencies, 50), p99: pct(latencies, 99), rssRiseMiB: (peak - idle) / MiB };
}

const policies = ARGON2_AVAILABLE ? [OWASP_ARGON2ID, OWASP_SCRYPT] : [OWASP_SCRYPT];
const production = policies[0] as PasswordParams;

// A child measures one burst from a fresh process, so RSS starts from an idle baseline.
if (process.argv[2] === '--burst') {
  const p = process.argv[3] === 'scrypt' ? OWASP_SCRYPT : production;
  const stored = await hashPassword('bench password', p);
  const b = await burst(stored);
  console.log(JSON.stringify(b));
  process.exit(0);
}

const childBurst = (alg: string, concurrency: number, n: number) => {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--burst', alg], {
    encoding: 'utf8',
    env: { ...process.env, PASSWORD_HASH_CONCURRENCY: String(concurrency), BENCH_PASSWORD_BURST: String(n) },
  });
  if (r.status !== 0) throw new Error(`burst child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as Awaited<ReturnType<typeof burst>>;
};

const concurrency = Number(process.env.PASSWORD_HASH_CONCURRENCY) || 2;
console.log(
  `node ${process.version}; production policy: ${label(production)}; PASSWORD_HASH_CONCURRENCY ${concurrency}`,
);
let prodSeq: Awaited<ReturnType<typeof sequential>> | undefined;
for (const p of policies) {
  const r = await sequential(p);
  prodSeq ??= r;
  console.log(
    `${label(p).padEnd(26)} one login: p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  memory ${(hashMemoryBytes(p) / MiB).toFixed(0)} MiB per hash`,
  );
}
if (!prodSeq) throw new Error('no policy');
const runs: [string, PasswordParams, number, number][] = [
  [production.alg, production, concurrency, BURST],
  ...(production.alg === 'argon2id'
    ? ([['argon2id', production, BURST, BURST]] as [string, PasswordParams, number, number][])
    : []),
  ['scrypt', OWASP_SCRYPT, concurrency, 8],
];
let bounded: Awaited<ReturnType<typeof burst>> | undefined;
for (const [alg, p, c, n] of runs) {
  const b = childBurst(alg, c, n);
  bounded ??= b;
  console.log(
    `burst of ${n} logins, ${label(p)}, ${c === n ? 'unbounded' : `concurrency ${c}`}: all done in ${b.total.toFixed(0)} ms, per login p50 ${b.p50.toFixed(0)} ms p99 ${b.p99.toFixed(0)} ms, RSS +${b.rssRiseMiB.toFixed(0)} MiB (${c} × ${(hashMemoryBytes(p) / MiB).toFixed(0)} MiB = ${((c * hashMemoryBytes(p)) / MiB).toFixed(0)} MiB)`,
  );
}
console.log(
  `passwords: ${label(production)}  p50 ${prodSeq.p50.toFixed(1)} ms  p99 ${prodSeq.p99.toFixed(1)} ms  burst ${BURST} in ${bounded?.total.toFixed(0)} ms  rss +${bounded?.rssRiseMiB.toFixed(0)} MiB`,
);
