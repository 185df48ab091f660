/**
 * Chaos soak: the production entry (`src/main.ts`) as a child process on a private PostgreSQL server
 * (initdb + pg_ctl in a temp dir), against the supplier and Stripe emulators served over HTTP from this
 * process (their state outlives everything done to the server). 8 clients send mixed traffic (search,
 * createPnr with some supplier-PENDING bookings, authorize, ticket, cancel, reads), each call with an
 * Idempotency-Key and retried with the same key until it has a final answer. At 40 % of the run the server
 * is killed with SIGKILL and started again on the same database; at 70 % PostgreSQL is restarted
 * (`pg_ctl restart -m fast`). Then the clients stop, the service drains, and the run is accounted for:
 * every acknowledged booking once in the database, supplier orders one to one with bookings, Stripe
 * PaymentIntents, captures and refunds equal to the payments, every key completed, every job drained.
 * Exit status 1 when any of that fails.
 *
 *   node bench/chaos-soak.ts                 # 5 minutes (default)
 *   node bench/chaos-soak.ts --seconds 60    # shorter; CHAOS_SECONDS=60 works too
 *   node bench/run.ts --chaos                # the quick benches, then this soak (BENCH_CHAOS=1 too)
 */
import { readFileSync } from 'node:fs';
import type { MockServers } from '@travel/mock-server';
import pg from 'pg';
import { futureDate, oneWaySearch } from '../test/harness/flight-search.ts';
import { postgresBinaries, startPrivatePostgres } from '../test/resilience/postgres.ts';
import { Client, type Res, startEmulators, startService, supplierUrls } from '../test/resilience/stack.ts';
import type { ServerProcess } from '../test/search/processes.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SECONDS = Number(arg('--seconds') ?? process.env.CHAOS_SECONDS ?? 300);
if (!Number.isFinite(SECONDS) || SECONDS < 20) throw new Error('--seconds must be at least 20');
const CLIENTS = 8;
const KILL_AT = 0.4;
const DB_RESTART_AT = 0.7;
const DRAIN_MS = 90_000;

type Sup = 'amadeus' | 'duffel' | 'mystifly';
const SUPS: Sup[] = ['amadeus', 'duffel', 'mystifly'];
const ROUTES: Record<Sup, [string, string]> = {
  amadeus: ['LHR', 'DXB'],
  duffel: ['LHR', 'BCN'],
  mystifly: ['DAC', 'LHR'],
};

interface Answer {
  at: number;
  op: string;
  status: number | 'network';
  code?: string;
}
const answers: Answer[] = [];
/** Acknowledged effects, by the client's Idempotency-Key. */
const bookings = new Map<string, { id: number; status: number; sup: Sup; pending: boolean }>();
const payments = new Map<string, { bookingId: number; status: number; ref: string | null }>();
const tickets = new Map<string, { bookingId: number; status: number }>();
const cancels = new Map<string, { bookingId: number; status: number; code?: string }>();
const refundsAsked = new Map<string, { status: number; code?: string }>();
const gaveUp: string[] = [];

let server: ServerProcess;

/** Sends until the answer is final: a dropped connection, 503 and 409 idempotency_in_progress are retried with the same key. */
async function final(
  op: string,
  key: string,
  send: () => Promise<Res>,
  budgetMs = 60_000,
): Promise<Res | undefined> {
  const until = Date.now() + budgetMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    let r: Res | undefined;
    try {
      r = await send();
      answers.push({ at: Date.now(), op, status: r.status, code: r.body?.code });
    } catch {
      answers.push({ at: Date.now(), op, status: 'network' });
    }
    const retry =
      !r ||
      r.status === 503 ||
      (r.status === 409 &&
        (r.body?.code === 'idempotency_in_progress' || r.body?.code === 'operation_in_progress'));
    if (!retry) return r;
    if (Date.now() > until) {
      gaveUp.push(`${op} ${key}: last ${r ? `${r.status} ${r.body?.code ?? ''}` : 'network error'}`);
      return undefined;
    }
    await new Promise((res) => setTimeout(res, delay));
  }
}

/** A client that follows the current server (it moves to a new port after the kill). */
class Agent extends Client {
  override async req(method: string, path: string, o: { body?: unknown; key?: string } = {}) {
    (this as { url: string }).url = server.url;
    return super.req(method, path, o);
  }
}

type Offer = {
  offer_id: string;
  price: { currency: string; total_minor: number };
  lcc?: boolean;
  validating_carrier?: string;
};

async function search(c: Agent, sup: Sup): Promise<Offer[]> {
  const [origin, destination] = ROUTES[sup];
  const date = futureDate(60);
  const s = await final('search', 'search', () =>
    c.req('POST', '/api/v1/flight/getFare', {
      body: oneWaySearch(origin, destination, date),
    }),
  );
  if (s?.status !== 202) return [];
  const b = await final('search-batch', 'batch', () =>
    c.req('GET', `/api/v1/flight/getFare/batch/${s.body.searchId}?timeout=30`),
  );
  const list = (b?.body?.results_by_gds?.[sup] ?? []) as Offer[];
  return list.filter((o) => !o.lcc && !(sup === 'duffel' && o.validating_carrier === 'W6'));
}

/** One client: search, book (every 12th left PENDING by the supplier), read, pay, ticket or cancel. */
async function client(i: number, stop: () => boolean): Promise<void> {
  const c = new Agent(server.url);
  await final('login', 'login', async () => {
    await c.login();
    return { status: 200, headers: new Headers(), body: {} };
  });
  const offers: Partial<Record<Sup, Offer[]>> = {};
  for (let n = 0; !stop(); n++) {
    const sup = SUPS[(i + n) % SUPS.length] as Sup;
    if (!offers[sup]?.length || n % 5 === 0) offers[sup] = await search(c, sup);
    const offer = offers[sup]?.[n % Math.max(1, offers[sup]?.length ?? 1)];
    if (!offer) continue;
    const key = `soak-c${i}-n${n}-${Date.now()}`;
    const pendingAsked = n % 12 === 5 && sup !== 'duffel';
    const b = await final('createPnr', key, () =>
      c.createPnr(offer, key, pendingAsked ? 'PENDING' : 'RAHMAN'),
    );
    if (!b || (b.status !== 200 && b.status !== 502)) continue;
    const id = Number(b.body.booking_id);
    bookings.set(key, { id, status: b.status, sup, pending: b.status === 502 });
    await final('read', `${key}-read`, () => c.req('GET', `/api/v1/bookings/${id}`));
    if (b.status !== 200 || stop()) continue;
    const pkey = `${key}-pay`;
    const a = await final('authorize', pkey, () =>
      c.authorize(id, b.body.pricing.total_minor, b.body.pricing.currency, pkey),
    );
    if (!a) continue;
    payments.set(pkey, { bookingId: id, status: a.status, ref: a.body?.provider_payment_ref ?? null });
    await final('history', `${pkey}-h`, () => c.req('GET', `/api/v1/bookings/${id}/payment/history`));
    if (a.status !== 200 || stop()) continue;
    if (n % 4 === 3) {
      const ckey = `${key}-cancel`;
      const r = await final('cancel', ckey, () =>
        c.req('POST', `/api/v1/bookings/${id}/cancel`, { key: ckey, body: {} }),
      );
      if (r) cancels.set(ckey, { bookingId: id, status: r.status, code: r.body?.code });
      continue;
    }
    const tkey = `${key}-ticket`;
    const t = await final('ticket', tkey, () =>
      c.req('POST', `/api/v1/bookings/${id}/ticket`, { key: tkey, body: { capture: true } }),
    );
    if (t) tickets.set(tkey, { bookingId: id, status: t.status });
    if (t?.status === 200 && n % 6 === 0) {
      // A refund of part of the captured money after ticketing.
      const rkey = `${key}-refund`;
      const rf = await final('refund', rkey, () =>
        c.req('POST', `/api/v1/bookings/${id}/payment/refund?amount_minor=100&reason=soak`, {
          key: rkey,
          body: {},
        }),
      );
      if (rf) refundsAsked.set(rkey, { status: rf.status, code: rf.body?.code });
    }
  }
}

function rssOf(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

async function account(db: pg.Client, emulators: MockServers): Promise<Check[]> {
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
  const q = async <T extends pg.QueryResultRow>(text: string) => (await db.query<T>(text)).rows;

  // Bookings: each acknowledged once, under its id; nothing unsettled.
  const rows = await q<{
    id: number;
    supplier: string;
    status: string;
    supplier_order_ref: string | null;
    client_reference: string;
    pnr: string | null;
  }>('select id, supplier, status, supplier_order_ref, client_reference, pnr from flight_bookings');
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const acked = [...bookings.values()];
  const missing = acked.filter((b) => !byId.has(b.id));
  const ackedIds = new Set(acked.map((b) => b.id));
  check(
    'acknowledged bookings in the database',
    missing.length === 0 && new Set(acked.map((b) => b.id)).size === acked.length,
    `${acked.length} acknowledged (${acked.filter((b) => b.pending).length} as 502 pending), ${rows.length} rows, ${missing.length} missing`,
  );
  const unacked = rows.filter((r) => !ackedIds.has(Number(r.id)));
  check(
    'rows nobody was told about',
    unacked.length === 0,
    `${unacked.length} (${unacked
      .map((r) => `${r.id}:${r.status}`)
      .slice(0, 5)
      .join(' ')})`,
  );
  const unsettled = rows.filter((r) => r.status === 'initiated' || r.status === 'pending_pnr');
  check('bookings settled', unsettled.length === 0, `${unsettled.length} initiated/pending_pnr`);

  // Supplier orders <-> bookings, one to one (by order reference, else by our client reference).
  let orders = 0;
  const problems: string[] = [];
  for (const sup of SUPS) {
    const mine = rows.filter((r) => r.supplier === sup);
    const byRef = new Map(mine.filter((r) => r.supplier_order_ref).map((r) => [r.supplier_order_ref, r]));
    const byPnr = new Map(mine.filter((r) => r.pnr).map((r) => [r.pnr, r]));
    const byClient = new Map(mine.map((r) => [r.client_reference, r]));
    const list: Array<{ id: string; pnr: string; ref: string | undefined }> =
      sup === 'amadeus'
        ? [...(emulators.states.amadeus?.orders.values() ?? [])].map((o) => ({
            id: o.id,
            pnr: o.pnr,
            ref: o.clientReference,
          }))
        : sup === 'duffel'
          ? [...((emulators.states.duffel as any)?.orders.values() ?? [])].map((o: any) => ({
              id: o.order.id,
              pnr: o.order.booking_reference,
              ref: o.order.metadata?.client_reference,
            }))
          : [...((emulators.states.mystifly as any)?.bookings.values() ?? [])].map((b: any) => ({
              id: b.uniqueId ?? b.pnr,
              pnr: b.pnr,
              ref: b.conversationId,
            }));
    orders += list.length;
    const matched = new Set<number>();
    for (const o of list) {
      const row = byRef.get(o.id) ?? byPnr.get(o.pnr) ?? (o.ref ? byClient.get(o.ref) : undefined);
      if (!row) problems.push(`${sup} order ${o.pnr} has no booking`);
      else if (matched.has(Number(row.id))) problems.push(`booking ${row.id} holds two ${sup} orders`);
      else matched.add(Number(row.id));
    }
    for (const r of mine.filter((x) => x.supplier_order_ref))
      if (!matched.has(Number(r.id))) problems.push(`booking ${r.id} has no ${sup} order`);
  }
  const withOrder = rows.filter((r) => r.supplier_order_ref).length;
  check(
    'supplier orders = bookings',
    problems.length === 0 && orders === withOrder,
    `${orders} orders, ${withOrder} bookings with an order; ${problems.slice(0, 4).join('; ') || 'no orphans, no duplicates'}`,
  );

  // Stripe <-> payments: every PaymentIntent one payment row, amounts equal.
  const pays = await q<{
    booking_id: number;
    state: string;
    provider_payment_ref: string | null;
    amount_minor: number;
    captured_minor: number;
    refunded_minor: number;
  }>(
    'select booking_id, state, provider_payment_ref, amount_minor, captured_minor, refunded_minor from booking_payments',
  );
  const stripe = emulators.states.stripe;
  const intents = [...(stripe?.paymentIntents.values() ?? [])];
  const refunds = [...(stripe?.refunds.values() ?? [])];
  const payByRef = new Map(
    pays.filter((p) => p.provider_payment_ref).map((p) => [p.provider_payment_ref, p]),
  );
  const moneyProblems: string[] = [];
  for (const pi of intents) {
    const p = payByRef.get(pi.id);
    if (!p) {
      moneyProblems.push(`intent ${pi.id} (${pi.status}) has no payment row`);
      continue;
    }
    if (pi.amount_received !== Number(p.captured_minor))
      moneyProblems.push(`${pi.id}: captured ${pi.amount_received} at Stripe, ${p.captured_minor} recorded`);
    const refunded = refunds
      .filter((r) => r.payment_intent === pi.id && r.status === 'succeeded')
      .reduce((n, r) => n + r.amount, 0);
    if (refunded !== Number(p.refunded_minor))
      moneyProblems.push(`${pi.id}: refunded ${refunded} at Stripe, ${p.refunded_minor} recorded`);
  }
  const orphanRows = pays.filter(
    (p) => p.provider_payment_ref && !intents.some((pi) => pi.id === p.provider_payment_ref),
  );
  for (const p of orphanRows)
    moneyProblems.push(
      `payment of booking ${p.booking_id} names ${p.provider_payment_ref}, unknown to Stripe`,
    );
  const pendingPays = pays.filter((p) => p.state === 'PENDING');
  if (pendingPays.length) moneyProblems.push(`${pendingPays.length} payments still PENDING`);
  const captures = intents.filter((pi) => pi.amount_received > 0).length;
  check(
    'Stripe = database',
    moneyProblems.length === 0,
    `${intents.length} intents / ${pays.filter((p) => p.provider_payment_ref).length} payments, ${captures} captures, ${refunds.length} refunds; ${moneyProblems.slice(0, 4).join('; ') || 'all agree'}`,
  );
  const ackPay = [...payments.values()].filter((p) => p.status === 200);
  const lost = ackPay.filter((p) => p.ref && !payByRef.has(p.ref));
  check(
    'acknowledged payments recorded',
    lost.length === 0,
    `${ackPay.length} authorized (${[...payments.values()].filter((p) => p.status === 202).length} as 202 pending), ${lost.length} missing`,
  );

  // Keys, intents and jobs drained.
  const keys = await q<{ n: number }>(
    `select count(*)::int as n from idempotency_keys where status <> 'completed'`,
  );
  check('idempotency keys completed', keys[0]?.n === 0, `${keys[0]?.n} not completed`);
  const ops = await q<{ n: number }>(
    `select count(*)::int as n from booking_money_ops where status in ('requested', 'pending')`,
  );
  check('money intents settled', ops[0]?.n === 0, `${ops[0]?.n} in flight`);
  const jobs = await q<{ queue: string; status: string; n: number }>(
    `select queue, status, count(*)::int as n from jobs group by queue, status order by queue, status`,
  );
  const open = jobs.filter((j) => j.status === 'queued' || j.status === 'running');
  const failed = jobs.filter((j) => j.status === 'failed');
  check(
    'jobs drained',
    open.length === 0,
    `${jobs.map((j) => `${j.queue}:${j.status}=${j.n}`).join(' ')}${failed.length ? ' (failed jobs listed)' : ''}`,
  );
  check(
    'client calls answered',
    gaveUp.length === 0,
    gaveUp.length ? gaveUp.slice(0, 3).join('; ') : 'every call got a final answer',
  );
  return checks;
}

async function main(): Promise<void> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL binaries (initdb, pg_ctl) on this machine');
  const t0 = Date.now();
  console.log(
    `chaos soak: ${SECONDS} s, ${CLIENTS} clients, kill -9 at ${KILL_AT * 100} %, pg restart at ${DB_RESTART_AT * 100} %`,
  );
  const database = await startPrivatePostgres(bin);
  const emulators = await startEmulators(20);
  const env = {
    DATABASE_URL: database.url,
    SANDBOX_SUPPLIER_URLS: supplierUrls(emulators.urls),
    JWT_SECRET: 'chaos-soak-secret-0123456789abcdef0123',
    IDEMPOTENCY_LEASE_SECONDS: '3',
    BOOKING_CALL_WINDOW_SECONDS: '10',
    JOBS_POLL_MS: '250',
    MONEY_RECONCILE_DELAY_MS: '1000',
  };
  server = await startService('chaos', env);
  const events: string[] = [];
  const rss: Array<{ at: number; mb: number }> = [];
  const sampler = setInterval(() => {
    const mb = rssOf(server.child.pid);
    if (mb !== undefined) rss.push({ at: (Date.now() - t0) / 1000, mb });
  }, 2000);
  let stopping = false;
  const started = Date.now();
  const clients = Array.from({ length: CLIENTS }, (_, i) => client(i, () => stopping));
  const at = (f: number) =>
    new Promise((r) => setTimeout(r, Math.max(0, started + f * SECONDS * 1000 - Date.now())));
  const _outage503 = 0;
  const chaos = (async () => {
    await at(KILL_AT);
    const k = Date.now();
    await server.stop('SIGKILL');
    server = await startService('chaos', env);
    events.push(
      `kill -9 at ${((k - started) / 1000).toFixed(1)} s, listening again after ${Date.now() - k} ms`,
    );
    rss.push({ at: (Date.now() - t0) / 1000, mb: Number.NaN }); // marks the new process
    await at(DB_RESTART_AT);
    const d = Date.now();
    await database.restart();
    events.push(
      `pg_ctl restart -m fast at ${((d - started) / 1000).toFixed(1)} s, took ${Date.now() - d} ms`,
    );
  })();
  await at(1);
  stopping = true;
  await chaos;
  await Promise.all(clients);
  clearInterval(sampler);
  const trafficEnd = Date.now();

  // Drain: no unsettled booking, money intent, key in progress or due job.
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  let drained = false;
  for (const end = Date.now() + DRAIN_MS; Date.now() < end; ) {
    const r = await db.query<{ n: number }>(`
      select (select count(*) from jobs where status in ('queued','running'))
           + (select count(*) from booking_money_ops where status in ('requested','pending'))
           + (select count(*) from flight_bookings where status in ('initiated','pending_pnr'))
           + (select count(*) from idempotency_keys where status <> 'completed') as n`);
    if (Number(r.rows[0]?.n) === 0) {
      drained = true;
      break;
    }
    await new Promise((res) => setTimeout(res, 500));
  }
  events.push(`drained ${drained ? `in ${Date.now() - trafficEnd} ms` : `NOT within ${DRAIN_MS} ms`}`);
  const checks = await account(db, emulators);
  await db.end();
  const alive = server.child.exitCode === null && server.child.signalCode === null;
  await server.stop();
  await emulators.close();
  await database.destroy();

  // Traffic and errors.
  const count = (f: (a: Answer) => boolean) => answers.filter(f).length;
  const s5xx = count(
    (a) => typeof a.status === 'number' && a.status >= 500 && a.status !== 502 && a.status !== 503,
  );
  const s503 = count((a) => a.status === 503);
  const net = count((a) => a.status === 'network');
  const s502 = count((a) => a.status === 502);
  const byOp = new Map<string, number>();
  for (const a of answers) byOp.set(a.op, (byOp.get(a.op) ?? 0) + 1);
  checks.push({ name: 'no 5xx besides 502 pending and 503 outage', ok: s5xx === 0, detail: `${s5xx} x 5xx` });
  checks.push({ name: 'server alive at the end', ok: alive, detail: alive ? 'yes' : 'no' });
  // RSS per server process (the kill starts a new one): first, max, last, and the trend of the second half.
  const cut = rss.findIndex((r) => Number.isNaN(r.mb));
  const procs = [cut >= 0 ? rss.slice(0, cut) : rss, cut >= 0 ? rss.slice(cut + 1) : []].filter(
    (x) => x.length > 0,
  );
  const rssLine = procs
    .map((xs, i) => {
      const half = xs.slice(Math.floor(xs.length / 2));
      const trend = (half.at(-1)?.mb ?? 0) - (half[0]?.mb ?? 0);
      return `process ${i + 1}: first ${xs[0]?.mb.toFixed(0)}, max ${Math.max(...xs.map((r) => r.mb)).toFixed(0)}, last ${xs.at(-1)?.mb.toFixed(0)} (second half ${trend >= 0 ? '+' : ''}${trend.toFixed(0)})`;
    })
    .join('; ');

  console.log(
    `\n== chaos soak (${new Date().toISOString().slice(0, 19)}Z, node ${process.version}, ${SECONDS} s)`,
  );
  for (const e of events) console.log(`  ${e}`);
  console.log(
    `  requests ${answers.length} (${[...byOp].map(([k, v]) => `${k} ${v}`).join(', ')}), ${((answers.length / (trafficEnd - started)) * 1000).toFixed(1)} req/s`,
  );
  console.log(
    `  5xx ${s5xx}; 503 during the outages ${s503}; connection errors (server down) ${net}; 502 booking_pending ${s502}`,
  );
  const tally = (m: Map<string, { status: number; code?: string }>) => {
    const t = new Map<string, number>();
    for (const v of m.values()) {
      const k = `${v.status}${v.code ? ` ${v.code}` : ''}`;
      t.set(k, (t.get(k) ?? 0) + 1);
    }
    return [...t].map(([k, n]) => `${k}: ${n}`).join(', ');
  };
  console.log(
    `  bookings ${bookings.size} (${tally(bookings)}), payments ${payments.size} (${tally(payments)}), tickets ${tickets.size} (${tally(tickets)}), cancels ${cancels.size} (${tally(cancels)}), refunds ${refundsAsked.size} (${tally(refundsAsked)})`,
  );
  console.log(`  server RSS MB, ${rssLine}`);
  const w = Math.max(...checks.map((c) => c.name.length));
  console.log(`\n| ${'check'.padEnd(w)} | result | detail`);
  console.log(`|${'-'.repeat(w + 2)}|--------|-------`);
  for (const c of checks) console.log(`| ${c.name.padEnd(w)} | ${c.ok ? 'pass  ' : 'FAIL  '} | ${c.detail}`);
  const ok = checks.every((c) => c.ok);
  console.log(
    `chaos-soak: ${ok ? 'PASS' : 'FAIL'} requests ${answers.length} 5xx ${s5xx} 503 ${s503} bookings ${bookings.size} payments ${payments.size} kill+restart and pg restart survived ${alive}`,
  );
  process.exitCode = ok ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
