/**
 * Cold start of `travel --help` against `node -e 0` (the floor: Node's own start-up), as hyperfine would:
 * N interleaved runs of each (so load on the machine hits both alike), one warm-up each, medians compared.
 * The bar (issue #20): the ratio at most 2. `BENCH_RUNS=40 node bench/cold-start.ts`.
 * Builds dist/ first when it is missing. Always exits 0: a ratio above the bar is reported, not a failure.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (!existsSync(bin)) execFileSync('pnpm', ['build'], { cwd: fileURLToPath(new URL('..', import.meta.url)) });
const runs = Number(process.env.BENCH_RUNS ?? 30);

const targets = {
  'node -e 0': ['-e', '0'],
  'travel --help': [bin, '--help'],
  'travel --version': [bin, '--version'],
  // The price of --jq (jq-web loads and compiles its WebAssembly only then), against the same run with --json.
  'config get --json': [bin, 'config', 'get', 'base_url', '--json'],
  'config get --jq': [bin, 'config', 'get', 'base_url', '--jq', '.value'],
} as const;

function once(args: readonly string[]): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

const samples = new Map<string, number[]>(Object.keys(targets).map((k) => [k, []]));
for (const args of Object.values(targets)) once(args); // warm-up (file cache, V8 compile cache)
for (let i = 0; i < runs; i++)
  for (const [name, args] of Object.entries(targets)) samples.get(name)?.push(once(args));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const base = median(samples.get('node -e 0') ?? []);
console.log(`cold start, median of ${runs} interleaved runs (Node ${process.versions.node})`);
for (const [name, xs] of samples) {
  const m = median(xs);
  const min = Math.min(...xs);
  console.log(
    `${name.padEnd(20)} median ${m.toFixed(1).padStart(6)} ms  min ${min.toFixed(1).padStart(6)} ms  ratio ${(m / base).toFixed(2)}`,
  );
}
const ratio = median(samples.get('travel --help') ?? []) / base;
// The fastest runs are the least disturbed by other load on the machine: shown beside the medians.
const fastest = (name: string) => Math.min(...(samples.get(name) ?? []));
const minRatio = fastest('travel --help') / fastest('node -e 0');
console.log(
  `cli-cold-start: travel --help / node -e 0 = ${ratio.toFixed(2)} median, ${minRatio.toFixed(2)} fastest (bar 2.00) ${ratio <= 2 ? 'OK' : 'ABOVE BAR'}`,
);
