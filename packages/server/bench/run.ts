/**
 * `pnpm --filter @travel/server bench`: every benchmark in this folder, one after another (never two at
 * once: they would share the 2 cores), then one summary table. `--profile` is passed to the HTTP bench.
 * The chaos soak (bench/chaos-soak.ts, 5 minutes) runs only when asked: `--chaos` or `BENCH_CHAOS=1`
 * (`--chaos-seconds N` or `CHAOS_SECONDS=N` to shorten it); its failed accounting makes the exit status 1.
 * `bench/scale.ts` times every flight booking list as the table grows (issue 31).
 * `bench/event-fanout.ts` attaches 1,000 readers to one company's event stream (issue 30; PostgreSQL).
 * `bench/peers.ts` measures ours beside a peer per hot path and writes `bench/results.json`; `BENCH_QUICK=1`
 * makes it one short round (and skips the separate HTTP bench) for CI.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BAR, httpBench } from './http.ts';

interface SummaryRow {
  bench: string;
  case: string;
  throughput: string;
  p50: string;
  p99: string;
  note: string;
}
const rows: SummaryRow[] = [];

// Reference search runs in its own process, untouched; its summary line is read back from its output.
console.log('== reference search (bench/reference.ts)');
const ref = spawnSync(process.execPath, [fileURLToPath(new URL('./reference.ts', import.meta.url))], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.stdout.write(ref.stdout);
const q = /queries: (\d+)\s+p50 ([\d.]+) µs\s+p95 [\d.]+ µs\s+p99 ([\d.]+) µs\s+max ([\d.]+) µs/.exec(
  ref.stdout,
);
const built = /built in ([\d.]+) ms/.exec(ref.stdout);
rows.push(
  q
    ? {
        bench: 'reference',
        case: `search, ${q[1]} mixed queries`,
        throughput: '',
        p50: `${q[2]} µs`,
        p99: `${q[3]} µs`,
        note: `max ${q[4]} µs; index built in ${built?.[1] ?? '?'} ms`,
      }
    : {
        bench: 'reference',
        case: 'search',
        throughput: '',
        p50: '',
        p99: '',
        note: `FAILED (${ref.status})`,
      },
);

// Password hashing at the production parameters, in its own process (its memory stays out of the others).
console.log('\n== password hashing per login (bench/passwords.ts)');
const pw = spawnSync(process.execPath, [fileURLToPath(new URL('./passwords.ts', import.meta.url))], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.stdout.write(pw.stdout);
const pwLine =
  /passwords: (.+?)\s+p50 ([\d.]+) ms\s+p99 ([\d.]+) ms\s+burst (\d+) in (\d+) ms\s+rss \+(\d+) MiB/.exec(
    pw.stdout,
  );
rows.push(
  pwLine
    ? {
        bench: 'passwords',
        case: `one login, ${pwLine[1]}`,
        throughput: '',
        p50: `${pwLine[2]} ms`,
        p99: `${pwLine[3]} ms`,
        note: `burst of ${pwLine[4]} logins: ${pwLine[5]} ms, RSS +${pwLine[6]} MiB`,
      }
    : {
        bench: 'passwords',
        case: 'one login',
        throughput: '',
        p50: '',
        p99: '',
        note: `FAILED (${pw.status})`,
      },
);

// Issue 28: a flood of bad logins from one address against one correct login from another.
console.log('\n== login flood (bench/login-flood.ts)');
const flood = spawnSync(process.execPath, [fileURLToPath(new URL('./login-flood.ts', import.meta.url))], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.stdout.write(flood.stdout);
const floodLine =
  /login-flood: other address login worst (\d+) ms .*?\((target < \d+ ms: [^)]+)\); (.+)/.exec(flood.stdout);
rows.push({
  bench: 'login-flood',
  case: '100 parallel bad logins from one address; another address logs in',
  throughput: '',
  p50: '',
  p99: floodLine ? `${floodLine[1]} ms (worst)` : '',
  note: floodLine ? `${floodLine[2]}; ${floodLine[3]}` : `FAILED (${flood.status})`,
});

console.log('\n== HTTP throughput (bench/http.ts)');
const http =
  process.env.BENCH_QUICK === '1' ? [] : await httpBench({ profile: process.argv.includes('--profile') });
for (const r of http) {
  rows.push({
    bench: 'http',
    case: r.label,
    throughput: `${Math.round(r.rps)} req/s`,
    p50: `${r.p50Ms} ms`,
    p99: `${r.p99Ms} ms`,
    note:
      r.target === 'bare'
        ? 'baseline'
        : `${r.ratio.toFixed(2)} of bare (bar > ${BAR}): ${r.ratio > BAR ? 'pass' : 'BELOW BAR'}`,
  });
}

// Ours beside a peer on every hot path (issue #20): its own process, writes bench/results.json.
console.log('\n== ours against peers (bench/peers.ts)');
const peers = spawnSync(process.execPath, [fileURLToPath(new URL('./peers.ts', import.meta.url))], {
  stdio: 'inherit',
});
if (peers.status === 0) {
  const results = JSON.parse(readFileSync(new URL('./results.json', import.meta.url), 'utf8')) as {
    figures: { figure: string; ours: number; peer: number; unit: string; target: string; met: boolean }[];
  };
  for (const f of results.figures) {
    rows.push({
      bench: 'peers',
      case: f.figure,
      throughput: '',
      p50: '',
      p99: '',
      note: `ours ${f.ours} ${f.unit}, peer ${f.peer}; target ${f.target}: ${f.met ? 'met' : 'NOT MET'}`,
    });
  }
} else {
  rows.push({
    bench: 'peers',
    case: 'all',
    throughput: '',
    p50: '',
    p99: '',
    note: `FAILED (${peers.status})`,
  });
}

// Issue 31: every list, filter, sort and search at 10k and 100k bookings (1M on PostgreSQL when asked).
console.log('\n== lists as the table grows (bench/scale.ts)');
const scale = spawnSync(process.execPath, [fileURLToPath(new URL('./scale.ts', import.meta.url))], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.stdout.write(scale.stdout);
const worst = new Map<string, { list: string; p99: number; read: number }>();
for (const m of scale.stdout.matchAll(
  /^scale: (\S+) (\d+) (.+?): \d+ req\/s p50 [\d.]+ ms p99 ([\d.]+) ms$/gm,
)) {
  const key = `${m[1]}, ${m[2]} bookings`;
  const w = worst.get(key) ?? { list: '', p99: 0, read: 0 };
  const p99 = Number(m[4]);
  if ((m[3] as string).startsWith('GET')) w.read = p99;
  else if (p99 > w.p99) Object.assign(w, { list: m[3], p99 });
  worst.set(key, w);
}
for (const [key, w] of worst)
  rows.push({
    bench: 'scale',
    case: `${key}, 8 connections`,
    throughput: '',
    p50: '',
    p99: `${w.p99} ms (worst list)`,
    note: `${w.list}; single read p99 ${w.read} ms`,
  });
if (scale.status !== 0)
  rows.push({
    bench: 'scale',
    case: 'all',
    throughput: '',
    p50: '',
    p99: '',
    note: `FAILED (${scale.status})`,
  });

// Issue 30: 1,000 subscribers of one company's event stream on one process, beside a bare broadcaster.
console.log('\n== event stream fan-out (bench/event-fanout.ts)');
const fanout = spawnSync(process.execPath, [fileURLToPath(new URL('./event-fanout.ts', import.meta.url))], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.stdout.write(fanout.stdout);
const fan =
  /event-fanout: (\d+) readers ours p50 ([\d.]+) ms p99 ([\d.]+) ms RSS (\d+→\d+) MiB; bare p50 ([\d.]+) ms p99 ([\d.]+) ms RSS (\d+→\d+) MiB; one reader p50 ([\d.]+) ms p99 ([\d.]+) ms; load (.+)/.exec(
    fanout.stdout,
  );
rows.push({
  bench: 'event-fanout',
  case: fan ? `${fan[1]} readers of one company's event stream, PostgreSQL` : 'event stream fan-out',
  throughput: '',
  p50: fan ? `${fan[2]} ms` : '',
  p99: fan ? `${fan[3]} ms` : '',
  note: fan
    ? `commit→reader; server RSS ${fan[4]} MiB; bare broadcaster p50 ${fan[5]} / p99 ${fan[6]} ms, RSS ${fan[7]} MiB; one reader p50 ${fan[8]} ms; load ${fan[10]}`
    : /skipped/.test(fanout.stdout)
      ? 'skipped (no PostgreSQL)'
      : `FAILED (${fanout.status})`,
});

let chaosFailed = false;
if (process.argv.includes('--chaos') || process.env.BENCH_CHAOS === '1') {
  console.log('\n== chaos soak (bench/chaos-soak.ts)');
  const i = process.argv.indexOf('--chaos-seconds');
  const seconds = i >= 0 ? ['--seconds', process.argv[i + 1] as string] : [];
  const soak = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('./chaos-soak.ts', import.meta.url)), ...seconds],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  process.stdout.write(soak.stdout);
  const s = /chaos-soak: (PASS|FAIL) requests (\d+) 5xx (\d+) 503 (\d+) bookings (\d+) payments (\d+)/.exec(
    soak.stdout,
  );
  chaosFailed = soak.status !== 0;
  rows.push({
    bench: 'chaos',
    case: 'soak, 8 clients, kill -9 + pg restart',
    throughput: s ? `${s[2]} requests` : '',
    p50: '',
    p99: '',
    note: s
      ? `${s[1]}: 5xx ${s[3]}, 503 ${s[4]}, ${s[5]} bookings, ${s[6]} payments`
      : `FAILED (${soak.status})`,
  });
}

const columns = ['bench', 'case', 'throughput', 'p50', 'p99', 'note'] as const;
const width = (c: (typeof columns)[number]) => Math.max(c.length, ...rows.map((r) => r[c].length));
const line = (cells: Record<(typeof columns)[number], string>) =>
  `| ${columns.map((c) => cells[c].padEnd(width(c))).join(' | ')} |`;
console.log(`\n== summary (${new Date().toISOString().slice(0, 10)}, node ${process.version})`);
console.log(
  line({ bench: 'bench', case: 'case', throughput: 'throughput', p50: 'p50', p99: 'p99', note: 'note' }),
);
console.log(`|${columns.map((c) => '-'.repeat(width(c) + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
if (
  ref.status !== 0 ||
  pw.status !== 0 ||
  peers.status !== 0 ||
  scale.status !== 0 ||
  fanout.status !== 0 ||
  chaosFailed
)
  process.exitCode = 1;
