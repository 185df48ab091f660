/**
 * The transactional outbox (contracts.md §8, style.md 17-18): a domain records its event with the
 * transaction (or the single statement) that makes the change, so the event exists exactly when the
 * change does. The request or job that caused it is read from the call scope the kernel and the job
 * runner enter (`observability/call-scope.ts`).
 */
import { randomBytes } from 'node:crypto';
import type { EVENT_TYPES } from '@travel/contract';
import { type Expression, type RawBuilder, sql } from 'kysely';
import { jobStatements } from '../jobs/statements.ts';
import { currentScope } from '../observability/call-scope.ts';
import type { Db } from '../storage/schema.ts';
import { announceLocally, notifyDeliveries, notifyEvents } from './wake.ts';

export type EventType = (typeof EVENT_TYPES)[number];

/** What an event is about: the resource as the API returns it (`data`), under its type and id. */
export interface NewEvent {
  type: EventType;
  /** The company it belongs to: a value, or an expression the statement evaluates (a payment's booking). */
  companyId: number | null | Expression<number | null>;
  resource: { type: string; id: string | number; data: unknown };
  /** When it happened on the application's clock (the change's own timestamp); default the database's. */
  at?: Date;
}

const newEventId = () => `evt_${randomBytes(12).toString('base64url')}`;

/** The resource's next version: one more than its events so far (its row is locked by the change). */
const nextVersion = (type: string, id: string): RawBuilder<number> =>
  sql<number>`(select coalesce(max(resource_version), 0) + 1 from events where resource_type = ${type} and resource_id = ${id})`;

/** The `events` row for `e` (id, cause and version included): for a caller inserting it itself. */
export function eventValues(e: NewEvent) {
  const scope = currentScope();
  const resourceId = String(e.resource.id);
  return {
    id: newEventId(),
    type: e.type,
    company_id: e.companyId,
    resource_type: e.resource.type,
    resource_id: resourceId,
    resource_version: nextVersion(e.resource.type, resourceId),
    data: JSON.stringify(e.resource.data),
    request_id: scope?.requestId ?? null,
    job_id: scope?.jobId ?? null,
    created_at: e.at ?? null,
  };
}

/** The webhook delivery queue (events/webhooks/deliver.ts). */
export const WEBHOOK_QUEUE = 'webhook.deliver';

/**
 * The deliveries of the events the CTE `events` inserted (`returning id, company_id, type`), one per
 * enabled endpoint of the event's company that takes its type (no types listed: every type). Each one
 * notifies the delivery worker at commit (wake.ts; one notification per transaction).
 */
export const deliveriesFor = (events: string): RawBuilder<unknown> =>
  sql`(insert into webhook_deliveries (endpoint_id, event_id, created_at)
    select w.id, e.id, e.created_at from ${sql.table(events)} e
    join webhook_endpoints w on w.company_id = e.company_id and w.enabled
      and (cardinality(w.event_types) = 0 or e.type = any(w.event_types))
    returning id, created_at, ${notifyDeliveries()} as notified)`;

/** The first attempt's job of each delivery the CTE `deliveries` inserted: due when its event happened. */
export const deliveryJobsFor = (deliveries: string): RawBuilder<unknown> =>
  jobStatements.enqueueEach(deliveries, {
    queue: WEBHOOK_QUEUE,
    payload: sql`jsonb_build_object('delivery_id', ${sql.ref(`${deliveries}.id`)})`,
    dedupeKey: sql<string>`'webhook:' || ${sql.ref(`${deliveries}.id`)} || ':1'`,
    runAt: sql<Date>`${sql.ref(`${deliveries}.created_at`)}`,
    maxAttempts: 5,
  });

/** What `record`'s statement reports: how many webhook deliveries it wrote. */
type Written = { deliveries: number };

/**
 * Records `e` in `trx`, the transaction making the change, with its webhook deliveries and their jobs:
 * one statement, which also wakes the readers at commit (wake.ts). Returns the event's id.
 */
export async function record(trx: Db, e: NewEvent): Promise<string> {
  const v = eventValues(e);
  const r =
    await sql<Written>`with e as ${insertFrom(v, null)}, d as ${deliveriesFor('e')}, j as ${deliveryJobsFor('d')}
    select (select count(*) from d)::int as deliveries from e`.execute(trx);
  // PGlite: this process's readers hear of it now; their reads wait for this transaction's end.
  announceLocally('events');
  if (Number(r.rows[0]?.deliveries ?? 0) > 0) announceLocally('deliveries');
  return v.id;
}

function insertFrom(v: ReturnType<typeof eventValues>, from: string | null): RawBuilder<unknown> {
  return sql`(insert into events (id, type, company_id, resource_type, resource_id, resource_version, data, request_id, job_id, created_at)
    select ${v.id}::text, ${v.type}::text, ${v.company_id}::integer, ${v.resource_type}::text, ${v.resource_id}::text,
      ${v.resource_version}, ${v.data}::jsonb, ${v.request_id}::text, ${v.job_id}::text,
      coalesce(${v.created_at}::timestamptz, now())
    ${from ? sql`from ${sql.table(from)}` : sql``}
    returning id, company_id, type, created_at, ${notifyEvents()} as notified)`;
}

/**
 * `e` as the body of a common table expression that inserts it once per row of the CTE `from` (none
 * when `from` is empty): for a change made by one statement (`with b as (update …) …`), so the event
 * commits with it and only when it happened. Chain `deliveriesFor` and `deliveryJobsFor` after it.
 */
export function recordWhen(from: string, e: NewEvent): RawBuilder<unknown> {
  return insertFrom(eventValues(e), from);
}
