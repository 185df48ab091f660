/**
 * `node bench/event-fanout.ts` (issue 30): the company event stream's fan-out on PostgreSQL.
 * - one reader: event→subscriber latency, from the producer's commit to the frame's arrival;
 * - 1,000 readers (`BENCH_FANOUT_READERS`) of one company's stream on one server process (one database
 *   reader, events/feed.ts): fan-out latency p50/p99 over every reader and event, server RSS per stream;
 * - the same 1,000 readers of a bare `node:http` broadcaster on the same table and NOTIFY (event-peer.ts).
 * The server is `pnpm start`'s entry (`sandbox/main.ts`: src/server.ts with the emulators in its process)
 * in its own process (`BENCH_EVENTS_MAIN` runs another checkout's, e.g. the one before the NOTIFY wake-up); the readers and the producer share this process (the clocks agree).
 * Events are committed by this process through `record()` as a domain of another process would, one at a
 * time, each once every reader has the previous one. Database: `BENCH_DATABASE_URL` (or
 * `TEST_DATABASE_URL`) gets a fresh database; else a private PostgreSQL when its binaries are found;
 * else the bench says it is skipped. The last line (`event-fanout: …`) is what `run.ts` summarizes.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { record } from '../src/events/record.ts';
import { openDatabase } from '../src/storage/database.ts';
import { postgresBinaries, startPrivatePostgres } from '../test/resilience/postgres.ts';
import { Client } from '../test/resilience/stack.ts';
import { freshDatabase } from '../test/search/processes.ts';

const READERS = Number(process.env.BENCH_FANOUT_READERS || 1000);
const EVENTS = Number(process.env.BENCH_FANOUT_EVENTS || 30);
// Sandbox mode without SANDBOX_SUPPLIER_URLS: `pnpm start`'s entry (the emulators in the server's process).
const MAIN = process.env.BENCH_EVENTS_MAIN || fileURLToPath(new URL('../sandbox/main.ts', import.meta.url));
const load0 = loadavg();

// --- the database ------------------------------------------------------------------------------------
const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const bin = serverUrl ? undefined : postgresBinaries();
if (!serverUrl && !bin) {
  console.log('event-fanout: skipped (no BENCH_DATABASE_URL and no PostgreSQL binaries)');
  process.exit(0);
}
const priv = bin ? await startPrivatePostgres(bin) : undefined;
const fresh = await freshDatabase(serverUrl ?? (priv?.url as string));

// --- processes -----------------------------------------------------------------------------------------
const rssKb = (pid: number | undefined): number => {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(s)?.[1] ?? 0);
  } catch {
    return 0;
  }
};

async function startOurs(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'travel-fanout-'));
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      EXIT_WITH_PARENT: '1',
      DATABASE_URL: fresh.url,
      RATE_LIMIT_STREAM: '1000000/60',
      RATE_LIMIT_LOGIN_ACCOUNT: '1000/60',
      PASSWORD_SCRYPT_N: '1024',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function startPeer(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = fork(fileURLToPath(new URL('./event-peer.ts', import.meta.url)), {
    env: { ...process.env, DATABASE_URL: fresh.url },
  });
  const port = await new Promise<number>((r) =>
    child.once('message', (m) => r((m as { port: number }).port)),
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      child.send('stop');
      await exited;
    },
  };
}

// --- readers -------------------------------------------------------------------------------------------
interface Readers {
  /** Arrival (performance.now()) of each event id at each reader. */
  arrivals: Map<string, number[]>;
  /** Resolves once `n` readers have event `id`. */
  all(id: string, n: number): Promise<void>;
  attachMs: number;
  close(): void;
}

async function attach(url: string, n: number, token?: string): Promise<Readers> {
  const arrivals = new Map<string, number[]>();
  const waiting = new Map<string, { n: number; done: () => void }>();
  const reqs: ReturnType<typeof request>[] = [];
  const t0 = performance.now();
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (token) headers.authorization = `Bearer ${token}`;
      const req = request(url, { agent: false, headers }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`reader: ${res.statusCode}`));
        resolve();
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          const now = performance.now();
          buf += d;
          for (let cut = buf.indexOf('\n\n'); cut >= 0; cut = buf.indexOf('\n\n')) {
            const frame = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const id = /^id: (evt_\S+)$/m.exec(frame)?.[1];
            if (!id) continue;
            const list = arrivals.get(id) ?? [];
            list.push(now);
            arrivals.set(id, list);
            const w = waiting.get(id);
            if (w && list.length >= w.n) w.done();
          }
        });
        res.on('error', () => {});
      });
      req.on('error', reject);
      req.end();
      reqs.push(req);
    });
  // At most 50 connecting at once (a burst of 1,000 SYNs overflows the accept backlog).
  let next = 0;
  const lane = async () => {
    while (next++ < n) await one();
  };
  await Promise.all(Array.from({ length: Math.min(50, n) }, lane));
  const all = (id: string, n: number) =>
    (arrivals.get(id)?.length ?? 0) >= n
      ? Promise.resolve()
      : new Promise<void>((done) => waiting.set(id, { n, done }));
  return {
    arrivals,
    all,
    attachMs: performance.now() - t0,
    close: () => {
      for (const r of reqs) r.destroy();
    },
  };
}

// --- the producer ----------------------------------------------------------------------------------------
const writer = await openDatabase({ databaseUrl: fresh.url, migrate: false, poolSize: 2 });
let companyId = 0;
let resourceId = 0;

/** Commits EVENTS events one at a time; each latency sample is an arrival minus its event's commit. */
async function produce(r: Readers, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const id = await writer.db.transaction().execute((trx) =>
      record(trx, {
        type: 'booking.created',
        companyId,
        resource: {
          type: 'booking',
          id: ++resourceId,
          data: { booking_id: resourceId, status: 'confirmed' },
        },
      }),
    );
    const committed = performance.now();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      r.all(id, n),
      new Promise<never>((_, rej) => {
        timer = setTimeout(
          () => rej(new Error(`event ${i}: ${r.arrivals.get(id)?.length ?? 0}/${n} readers in 30 s`)),
          30_000,
        );
      }),
    ]);
    clearTimeout(timer);
    for (const t of r.arrivals.get(id) ?? []) samples.push(t - committed);
  }
  return samples;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Number((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN).toFixed(1));
};
const mib = (kb: number) => (kb / 1024).toFixed(0);

// --- the run -------------------------------------------------------------------------------------------
const ours = await startOurs();
let peer: Awaited<ReturnType<typeof startPeer>> | undefined;
try {
  const c = new Client(ours.url);
  await c.login();
  const admin = new pg.Client({ connectionString: fresh.url });
  await admin.connect();
  companyId = (await admin.query(`select id from companies where company_code = 'SANDBOX'`)).rows[0].id;
  await admin.end();

  const single = await attach(`${ours.url}/api/v1/events/stream`, 1, c.token);
  const one = await produce(single, 1);
  single.close();
  console.log(
    `one reader: event→subscriber p50 ${pct(one, 50)} ms p99 ${pct(one, 99)} ms (${EVENTS} events)`,
  );

  const rss0 = rssKb(ours.child.pid);
  const many = await attach(`${ours.url}/api/v1/events/stream`, READERS, c.token);
  const rss1 = rssKb(ours.child.pid);
  const fan = await produce(many, READERS);
  const rss2 = rssKb(ours.child.pid);
  many.close();
  console.log(
    `ours, ${READERS} readers: attached in ${many.attachMs.toFixed(0)} ms; fan-out p50 ${pct(fan, 50)} ms p99 ${pct(fan, 99)} ms; RSS ${mib(rss0)} → ${mib(rss1)} MiB attached, ${mib(rss2)} MiB after ${EVENTS} events (the garbage collector decides much of it)`,
  );
  await ours.stop();

  peer = await startPeer();
  const p0 = rssKb(peer.child.pid);
  const bare = await attach(`${peer.url}/`, READERS);
  const p1 = rssKb(peer.child.pid);
  const pfan = await produce(bare, READERS);
  const p2 = rssKb(peer.child.pid);
  bare.close();
  console.log(
    `bare node:http broadcaster, ${READERS} readers: fan-out p50 ${pct(pfan, 50)} ms p99 ${pct(pfan, 99)} ms; RSS ${mib(p0)} → ${mib(p1)} MiB attached, ${mib(p2)} MiB after ${EVENTS} events`,
  );
  const load1 = loadavg();
  console.log(
    `event-fanout: ${READERS} readers ours p50 ${pct(fan, 50)} ms p99 ${pct(fan, 99)} ms RSS ${mib(rss0)}→${mib(rss2)} MiB; bare p50 ${pct(pfan, 50)} ms p99 ${pct(pfan, 99)} ms RSS ${mib(p0)}→${mib(p2)} MiB; one reader p50 ${pct(one, 50)} ms p99 ${pct(one, 99)} ms; load ${(load0[0] ?? 0).toFixed(1)}→${(load1[0] ?? 0).toFixed(1)}`,
  );
} finally {
  await ours.stop().catch(() => {});
  await peer?.stop().catch(() => {});
  await writer.close();
  await fresh.drop();
  await priv?.destroy();
}
