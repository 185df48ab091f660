/**
 * Gauges of the running service in `/metrics`, computed when scraped (prom-client runs `collect` before
 * every read): the database link, each supplier's circuit breaker, the durable job queue (depth and the
 * age of its oldest ready job), the reconciliation backlog and the bookings still waiting for a supplier
 * to settle them. A scrape while the database is unreachable still answers: the database gauges read 0
 * for up and carry no series rather than stale numbers.
 */
import { sql } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Clock } from './internal/clock.ts';
import type { Logger } from './kernel/types.ts';
import type { CircuitBreakerRegistry } from './search/circuit-breaker.ts';
import type { Database } from './storage/database.ts';

interface RuntimeMetricsDeps {
  registry: Registry;
  database: Database;
  breakers: CircuitBreakerRegistry;
  /** Every supplier with a breaker, known or not yet used (its breaker then reads closed). */
  suppliers: () => string[];
  clock: Clock;
  log?: Logger;
}

const BREAKER_STATES = ['closed', 'half_open', 'open'] as const;
/** Queues whose jobs settle an effect a supplier may have made: their backlog is the reconciliation backlog. */
const RECONCILE_QUEUE_SQL = sql`(queue like '%.reconcile' or queue = 'ticketing.follow_up')`;

interface QueueRow {
  queue: string;
  queued: number;
  running: number;
  oldest_ready: Date | string | null;
}

/** Registers the gauges on `registry`. */
export function registerRuntimeMetrics(d: RuntimeMetricsDeps): void {
  const registers = [d.registry];
  new Gauge({
    name: 'travel_database_up',
    help: '1 while the database is reachable (as far as this process knows), 0 during an outage',
    registers,
    collect() {
      this.set(d.database.link().up ? 1 : 0);
    },
  });
  new Gauge({
    name: 'travel_circuit_breaker_state',
    help: 'Circuit breaker per supplier: 1 for its current state (closed, half_open, open), 0 for the others',
    labelNames: ['supplier', 'state'],
    registers,
    collect() {
      this.reset();
      const names = new Set(d.suppliers());
      for (const s of d.breakers.snapshots()) names.add(s.name);
      for (const supplier of [...names].sort()) {
        const state = d.breakers.has(supplier) ? d.breakers.get(supplier).currentState() : 'closed';
        for (const s of BREAKER_STATES) this.set({ supplier, state: s }, s === state ? 1 : 0);
      }
    },
  });

  // One query per scrape feeds the three job gauges.
  let queues: Promise<QueueRow[] | undefined> | undefined;
  const readQueues = (): Promise<QueueRow[] | undefined> => {
    queues ??= sql<QueueRow>`
      select queue,
             count(*) filter (where status = 'queued')::int as queued,
             count(*) filter (where status = 'running')::int as running,
             min(run_at) filter (where status = 'queued' and run_at <= ${d.clock.now()}) as oldest_ready
        from jobs
       where status in ('queued', 'running')
       group by queue`
      .execute(d.database.db)
      .then((r) => r.rows)
      .catch((err: unknown) => {
        d.log?.debug({ err }, 'metrics: job queue unreadable');
        return undefined;
      })
      .finally(() => {
        queues = undefined;
      });
    return queues;
  };
  new Gauge({
    name: 'travel_jobs_queued',
    help: 'Durable jobs waiting to run, per queue (including those scheduled for later)',
    labelNames: ['queue'],
    registers,
    async collect() {
      const rows = await readQueues();
      this.reset();
      for (const r of rows ?? []) this.set({ queue: r.queue }, r.queued);
    },
  });
  new Gauge({
    name: 'travel_jobs_running',
    help: 'Durable jobs claimed by a worker and not yet finished, per queue',
    labelNames: ['queue'],
    registers,
    async collect() {
      const rows = await readQueues();
      this.reset();
      for (const r of rows ?? []) this.set({ queue: r.queue }, r.running);
    },
  });
  new Gauge({
    name: 'travel_jobs_oldest_ready_age_seconds',
    help: 'How long the oldest job that is due has been waiting for a worker, per queue (0 when none is due)',
    labelNames: ['queue'],
    registers,
    async collect() {
      const rows = await readQueues();
      this.reset();
      const now = d.clock.now().getTime();
      for (const r of rows ?? []) {
        const since = r.oldest_ready ? new Date(r.oldest_ready).getTime() : now;
        this.set({ queue: r.queue }, Math.max(0, (now - since) / 1000));
      }
    },
  });
  new Gauge({
    name: 'travel_reconciliation_backlog',
    help: 'Reconciliation jobs (bookings, money, ticketing follow-up) not yet settled, queued or running',
    registers,
    async collect() {
      const r = await sql<{ n: number }>`
        select count(*)::int as n from jobs where status in ('queued', 'running') and ${RECONCILE_QUEUE_SQL}`
        .execute(d.database.db)
        .catch(() => undefined);
      this.reset();
      if (r) this.set(r.rows[0]?.n ?? 0);
    },
  });
  new Gauge({
    name: 'travel_bookings_pending',
    help: 'Bookings whose supplier outcome is not settled yet (flight initiated or pending_pnr; hotel and transfer pending)',
    labelNames: ['vertical'],
    registers,
    async collect() {
      const r = await sql<{ vertical: string; n: number }>`
        select 'flight' as vertical, count(*)::int as n from flight_bookings where status in ('initiated', 'pending_pnr')
        union all
        select 'hotel', count(*)::int from hotel_bookings where status = 'pending'
        union all
        select 'transfer', count(*)::int from transport_bookings where status = 'pending'`
        .execute(d.database.db)
        .catch(() => undefined);
      this.reset();
      for (const row of r?.rows ?? []) this.set({ vertical: row.vertical }, row.n);
    },
  });
}
