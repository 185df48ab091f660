/**
 * Delivers one webhook attempt (queue `webhook.deliver` on the durable job runner): at-least-once (a
 * process that dies mid-attempt leaves the job to the runner's lease, and the attempt runs again), each
 * failure scheduled again with exponential backoff (1 min, 4 min, 16 min … capped at 12 h) for 3 days,
 * then the delivery is dead (dead letter: listed, resendable). An endpoint failing for 3 days is
 * disabled and its company's admins are mailed.
 */
import type { Clock } from '../../internal/clock.ts';
import { enqueue, type Job, type JobHandler } from '../../jobs/runner.ts';
import type { Logger } from '../../kernel/types.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Db } from '../../storage/schema.ts';
import { WEBHOOK_QUEUE } from '../record.ts';
import { eventView } from '../store.ts';
import { webhookDb } from '../tables.ts';
import { type OutboundPolicy, OutboundRefused, postWebhook } from './outbound.ts';
import { SIGNATURE_HEADER, signatureHeader } from './signing.ts';

export const GIVE_UP_MS = 3 * 86_400_000;

/** The wait after the `attempts`-th failed attempt. */
export const retryDelayMs = (attempts: number): number =>
  Math.min(12 * 3_600_000, 60_000 * 4 ** Math.max(0, attempts - 1));

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  log?: Logger;
  policy: OutboundPolicy;
}

/** Queues an attempt of delivery `id` at `at` (resend, retries). */
export function queueAttempt(db: Db, id: string | number, at: Date, clock: Clock, tag: string | number) {
  return enqueue(
    db,
    WEBHOOK_QUEUE,
    { delivery_id: Number(id) },
    { runAt: at, dedupeKey: `webhook:${id}:${tag}` },
    clock,
  );
}

async function load(db: Db, id: number) {
  return webhookDb(db)
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.status',
      'd.attempts',
      'd.first_attempt_at',
      'w.id as endpoint_id',
      'w.company_id as endpoint_company_id',
      'w.url',
      'w.enabled',
      'w.secret',
      'w.previous_secret',
      'w.previous_secret_expires_at',
      'e.seq',
      'e.id as event_id',
      'e.txid',
      'e.type',
      'e.company_id',
      'e.resource_type',
      'e.resource_id',
      'e.resource_version',
      'e.data',
      'e.request_id',
      'e.job_id',
      'e.created_at',
    ])
    .where('d.id', '=', String(id))
    .executeTakeFirst();
}

export function deliverHandler(d: DeliveryDeps): JobHandler {
  return async (job: Job) => {
    const id = Number((job.payload as { delivery_id: number }).delivery_id);
    const row = await load(d.db, id);
    if (!row || row.status !== 'pending') return;
    const now = d.clock.now();
    if (!row.enabled) {
      await webhookDb(d.db)
        .updateTable('webhook_deliveries')
        .set({ status: 'dead', last_error: 'the endpoint is disabled', next_attempt_at: null })
        .where('id', '=', String(id))
        .execute();
      return;
    }
    const body = JSON.stringify(eventView({ ...row, id: row.event_id } as never));
    const secrets = [row.secret];
    const prevUntil = row.previous_secret_expires_at ? new Date(row.previous_secret_expires_at) : null;
    if (row.previous_secret && prevUntil && prevUntil > now) secrets.push(row.previous_secret);
    const t = Math.floor(now.getTime() / 1000);
    let status: number | null = null;
    let excerpt: string | null = null;
    let error: string | null = null;
    try {
      const a = await postWebhook(
        row.url,
        body,
        {
          [SIGNATURE_HEADER]: signatureHeader(secrets, t, body),
          'user-agent': 'travel-webhooks/1',
          'travel-event-id': row.event_id,
          'travel-delivery-id': String(id),
        },
        d.policy,
      );
      status = a.status;
      excerpt = a.excerpt;
      if (status < 200 || status >= 300) error = `the endpoint answered ${status}`;
    } catch (err) {
      error =
        err instanceof OutboundRefused ? `refused: ${err.message}` : String((err as Error)?.message ?? err);
    }
    await settleAttempt(d, row, { status, excerpt, error }, now);
  };
}

async function settleAttempt(
  d: DeliveryDeps,
  row: NonNullable<Awaited<ReturnType<typeof load>>>,
  a: { status: number | null; excerpt: string | null; error: string | null },
  now: Date,
) {
  const attempts = row.attempts + 1;
  let disabled = false;
  await d.db.transaction().execute(async (trx) => {
    const w = webhookDb(trx);
    const base = {
      attempts,
      first_attempt_at: row.first_attempt_at ?? now,
      last_attempt_at: now,
      last_status: a.status,
      last_error: a.error?.slice(0, 500) ?? null,
      response_excerpt: a.excerpt,
    };
    if (a.error === null) {
      await w
        .updateTable('webhook_deliveries')
        .set({ ...base, status: 'succeeded', delivered_at: now, next_attempt_at: null })
        .where('id', '=', row.id)
        .execute();
      await w
        .updateTable('webhook_endpoints')
        .set({ failing_since: null })
        .where('id', '=', row.endpoint_id)
        .execute();
      return;
    }
    // The 3 days run from the first attempt (on the application's clock), or a resend's.
    const first = row.first_attempt_at ? new Date(row.first_attempt_at).getTime() : now.getTime();
    const expired = now.getTime() - first >= GIVE_UP_MS;
    const next = new Date(now.getTime() + retryDelayMs(attempts));
    await w
      .updateTable('webhook_deliveries')
      .set({ ...base, status: expired ? 'dead' : 'pending', next_attempt_at: expired ? null : next })
      .where('id', '=', row.id)
      .execute();
    if (!expired) await queueAttempt(trx, row.id, next, d.clock, attempts + 1);
    const ep = await w
      .updateTable('webhook_endpoints')
      .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(now)) }))
      .where('id', '=', row.endpoint_id)
      .returning(['failing_since', 'enabled'])
      .executeTakeFirstOrThrow();
    if (
      ep.enabled &&
      ep.failing_since &&
      now.getTime() - new Date(ep.failing_since).getTime() >= GIVE_UP_MS
    ) {
      await w
        .updateTable('webhook_endpoints')
        .set({ enabled: false, disabled_reason: 'failing for 3 days', updated_at: now })
        .where('id', '=', row.endpoint_id)
        .execute();
      disabled = true;
    }
  });
  if (disabled) await mailAdmins(d, row.endpoint_company_id, row.endpoint_id, row.url);
}

async function mailAdmins(d: DeliveryDeps, companyId: number, endpointId: string, url: string) {
  const admins = await d.db
    .selectFrom('users')
    .select('email')
    .where('company_id', '=', companyId)
    .where('role', '=', 'company_admin')
    .where('status', '=', 'active')
    .execute();
  for (const a of admins) {
    try {
      await d.mailer.send({
        to: a.email,
        subject: 'A webhook endpoint was disabled',
        text: `Webhook endpoint ${endpointId} (${url}) failed every delivery for 3 days and was disabled.\n\nFix the receiver, then enable it again (PATCH /api/v1/company/webhook-endpoints/${endpointId}) and resend the dead deliveries.\n`,
      });
    } catch (err) {
      d.log?.warn({ err, endpoint_id: endpointId }, 'webhook disable mail failed');
    }
  }
}
