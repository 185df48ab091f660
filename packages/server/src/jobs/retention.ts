/**
 * Retention (docs/retention.md): rows that only matter for a while are deleted once their period is over,
 * by a job on the durable runner, so one process at a time purges whatever the number of processes. Each
 * run deletes in bounded batches (`RETENTION_BATCH_SIZE` rows per statement, `RETENTION_MAX_BATCHES`
 * statements per table), so a large backlog never holds a long lock: it drains over runs that follow one
 * another a minute apart until it is gone, then hourly (`RETENTION_INTERVAL_MINUTES`).
 *
 * Business records are never purged here: bookings and everything hanging off them (payments, tickets,
 * money ops, notes), the audit log, wallets, companies, users, API keys, invitations.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import { systemClock } from '../internal/clock.ts';
import { type RetentionPolicy, retentionPolicy } from '../internal/config.ts';
import type { Logger } from '../internal/logger.ts';
import type { Db } from '../storage/schema.ts';
import { enqueue, type JobHandler } from './runner.ts';

export const RETENTION_QUEUE = 'retention.purge';

interface Rule {
  name: string;
  table: string;
  where: (now: Date, p: RetentionPolicy) => RawBuilder<unknown>;
}

const before = (now: Date, ms: number): Date => new Date(now.getTime() - ms);

/** What is purged, table by table (docs/retention.md lists the same). */
const RULES: Rule[] = [
  {
    name: 'jobs_done',
    table: 'jobs',
    where: (now, p) => sql`status = 'done' and updated_at < ${before(now, p.jobsDoneMs)}`,
  },
  {
    name: 'jobs_failed',
    table: 'jobs',
    where: (now, p) => sql`status = 'failed' and updated_at < ${before(now, p.jobsFailedMs)}`,
  },
  // search_events and search_offers go with their session (on delete cascade).
  {
    name: 'search_sessions',
    table: 'search_sessions',
    where: (now, p) => sql`expires_at < ${before(now, p.searchMs)}`,
  },
  {
    name: 'idempotency_keys',
    table: 'idempotency_keys',
    where: (now, p) => sql`created_at < ${before(now, p.idempotencyMs)}`,
  },
  {
    name: 'refresh_tokens',
    table: 'refresh_tokens',
    where: (now, p) => sql`expires_at < ${before(now, p.expiredCredentialsMs)}`,
  },
  {
    name: 'token_revocations',
    table: 'token_revocations',
    where: (now, p) => sql`expires_at < ${before(now, p.expiredCredentialsMs)}`,
  },
  { name: 'login_failures', table: 'login_failures', where: (now) => sql`expires_at < ${now}` },
  { name: 'rate_limit_counters', table: 'rate_limit_counters', where: (now) => sql`expires_at < ${now}` },
  {
    name: 'error_logs',
    table: 'error_logs',
    where: (now, p) => sql`created_at < ${before(now, p.errorLogsMs)}`,
  },
];

export interface PurgeResult {
  deleted: Record<string, number>;
  /** Some table still had rows past their period when its batches ran out. */
  backlog: boolean;
}

/**
 * One run: per rule, up to `maxBatches` deletes of at most `batchSize` rows each. Rows another purge holds
 * are skipped (`skip locked`), so two runs at once never wait on each other nor delete a row twice.
 */
export async function purgeExpired(db: Db, policy: RetentionPolicy, now: Date): Promise<PurgeResult> {
  const deleted: Record<string, number> = {};
  let backlog = false;
  for (const rule of RULES) {
    let total = 0;
    for (let i = 0; i < policy.maxBatches; i++) {
      const t = sql.table(rule.table);
      const r = await sql`delete from ${t} where ctid in (
          select ctid from ${t} where ${rule.where(now, policy)} limit ${policy.batchSize} for update skip locked)`.execute(
        db,
      );
      const n = Number(r.numAffectedRows ?? 0);
      total += n;
      if (n < policy.batchSize) break;
      if (i === policy.maxBatches - 1) backlog = true;
    }
    deleted[rule.name] = total;
  }
  return { deleted, backlog };
}

/**
 * Queues the purge run for a slot (one job per slot whatever the number of processes: the dedupe key names
 * the slot). `now`: the current slot, run at once (start-up); `next`: the next interval boundary; `soon`:
 * in a minute (a backlog is left).
 */
export async function scheduleRetention(
  db: Db,
  policy: RetentionPolicy,
  when: 'now' | 'next' | 'soon',
  clock: Clock = systemClock,
): Promise<void> {
  const t = clock.now().getTime();
  const slot =
    when === 'soon'
      ? Math.ceil((t + 60_000) / 60_000) * 60_000
      : (Math.floor(t / policy.intervalMs) + (when === 'next' ? 1 : 0)) * policy.intervalMs;
  const runAt = new Date(when === 'now' ? t : slot);
  await enqueue(
    db,
    RETENTION_QUEUE,
    {},
    { dedupeKey: `${RETENTION_QUEUE}:${new Date(slot).toISOString()}`, runAt, maxAttempts: 3 },
    clock,
  );
}

export function retentionJobHandlers(d: {
  db: Db;
  clock?: Clock;
  log?: Logger;
  policy?: RetentionPolicy;
}): Record<string, JobHandler> {
  const policy = d.policy ?? retentionPolicy();
  const clock = d.clock ?? systemClock;
  return {
    [RETENTION_QUEUE]: async () => {
      let backlog = false;
      try {
        const r = await purgeExpired(d.db, policy, clock.now());
        backlog = r.backlog;
        d.log?.info({ deleted: r.deleted, backlog }, 'retention purge');
      } finally {
        // The chain goes on even when this run failed (its own retries are the runner's).
        await scheduleRetention(d.db, policy, backlog ? 'soon' : 'next', clock);
      }
    },
  };
}
