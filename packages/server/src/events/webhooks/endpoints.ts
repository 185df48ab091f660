/** A company's webhook endpoints and their deliveries (the tables of migration 0191, owned here). */
import { EVENT_TYPES } from '@travel/contract';
import type { Clock } from '../../internal/clock.ts';
import { oneOf } from '../../internal/narrow.ts';
import type { Db } from '../../storage/schema.ts';
import { webhookDb } from '../tables.ts';
import { queueAttempt } from './deliver.ts';
import { newWebhookSecret } from './signing.ts';

type EndpointRow = {
  id: string;
  company_id: number;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
};

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function endpointView(r: EndpointRow) {
  return {
    id: Number(r.id),
    url: r.url,
    description: r.description,
    // Written from the contract's EventType list (the endpoint's filter).
    event_types: r.event_types.map((t) => oneOf(EVENT_TYPES, t, 'webhook_endpoints.event_types')),
    enabled: r.enabled,
    previous_secret_expires_at: iso(r.previous_secret_expires_at),
    failing_since: iso(r.failing_since),
    disabled_reason: r.disabled_reason,
    created_at: iso(r.created_at) as string,
    updated_at: iso(r.updated_at) as string,
  };
}

const VIEW = [
  'id',
  'company_id',
  'url',
  'description',
  'event_types',
  'enabled',
  'previous_secret_expires_at',
  'failing_since',
  'disabled_reason',
  'created_at',
  'updated_at',
] as const;

export async function createEndpoint(
  db: Db,
  clock: Clock,
  e: {
    companyId: number;
    url: string;
    description?: string | null;
    eventTypes: string[];
    enabled: boolean;
    createdBy: string;
  },
) {
  const secret = newWebhookSecret();
  const now = clock.now();
  const r = await webhookDb(db)
    .insertInto('webhook_endpoints')
    .values({
      company_id: e.companyId,
      url: e.url,
      description: e.description ?? null,
      event_types: e.eventTypes,
      enabled: e.enabled,
      secret,
      created_by: e.createdBy,
      created_at: now,
      updated_at: now,
    })
    .returning(VIEW)
    .executeTakeFirstOrThrow();
  return { ...endpointView(r as EndpointRow), secret };
}

export async function listEndpoints(db: Db, companyId: number) {
  const rows = await webhookDb(db)
    .selectFrom('webhook_endpoints')
    .select(VIEW)
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return rows.map((r) => endpointView(r as EndpointRow));
}

export async function updateEndpoint(
  db: Db,
  clock: Clock,
  companyId: number,
  id: number,
  patch: { url?: string; description?: string | null; event_types?: string[]; enabled?: boolean },
) {
  const set: Record<string, unknown> = { ...patch, updated_at: clock.now() };
  // Enabled again by its admin: its failure clock starts over.
  if (patch.enabled === true) Object.assign(set, { failing_since: null, disabled_reason: null });
  const r = await webhookDb(db)
    .updateTable('webhook_endpoints')
    .set(set)
    .where('id', '=', String(id))
    .where('company_id', '=', companyId)
    .returning(VIEW)
    .executeTakeFirst();
  return r ? endpointView(r as EndpointRow) : undefined;
}

/** A new secret; the old one keeps signing (a second v1) for `overlapSeconds`. */
export async function rollSecret(
  db: Db,
  clock: Clock,
  companyId: number,
  id: number,
  overlapSeconds: number,
) {
  const secret = newWebhookSecret();
  const now = clock.now();
  const r = await webhookDb(db)
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      previous_secret: overlapSeconds > 0 ? eb.ref('secret') : null,
      previous_secret_expires_at: overlapSeconds > 0 ? new Date(now.getTime() + overlapSeconds * 1000) : null,
      secret,
      updated_at: now,
    }))
    .where('id', '=', String(id))
    .where('company_id', '=', companyId)
    .returning(VIEW)
    .executeTakeFirst();
  return r ? { ...endpointView(r as EndpointRow), secret } : undefined;
}

type DeliveryRow = {
  id: string;
  endpoint_id: string;
  event_id: string;
  type: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  response_excerpt: string | null;
  delivered_at: Date | null;
  created_at: Date;
};

const DELIVERY_STATUSES = ['pending', 'succeeded', 'dead'] as const;

export function deliveryView(r: DeliveryRow) {
  return {
    id: Number(r.id),
    endpoint_id: Number(r.endpoint_id),
    event_id: r.event_id,
    event_type: oneOf(EVENT_TYPES, r.type, 'events.type'),
    status: oneOf(DELIVERY_STATUSES, r.status, 'webhook_deliveries.status'),
    attempts: r.attempts,
    next_attempt_at: iso(r.next_attempt_at),
    last_attempt_at: iso(r.last_attempt_at),
    last_status: r.last_status,
    last_error: r.last_error,
    // The endpoint's answer: only its company's admins reach this view.
    response_excerpt: r.response_excerpt,
    delivered_at: iso(r.delivered_at),
    created_at: iso(r.created_at) as string,
  };
}

const deliveries = (db: Db, companyId: number, endpointId: number) =>
  webhookDb(db)
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'd.event_id',
      'e.type',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_attempt_at',
      'd.last_status',
      'd.last_error',
      'd.response_excerpt',
      'd.delivered_at',
      'd.created_at',
    ])
    .where('w.company_id', '=', companyId)
    .where('d.endpoint_id', '=', String(endpointId));

/** The endpoint's deliveries, newest first (undefined: no such endpoint of this company). */
export async function listDeliveries(db: Db, companyId: number, endpointId: number, limit: number) {
  const ep = await webhookDb(db)
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('id', '=', String(endpointId))
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!ep) return undefined;
  const rows = await deliveries(db, companyId, endpointId).orderBy('d.id', 'desc').limit(limit).execute();
  return rows.map((r) => deliveryView(r as DeliveryRow));
}

/** Sends the delivery again now (a dead or delivered one too): a new attempt on the job runner. */
export async function resendDelivery(
  db: Db,
  clock: Clock,
  companyId: number,
  endpointId: number,
  id: number,
) {
  return db.transaction().execute(async (trx) => {
    const found = await deliveries(trx, companyId, endpointId)
      .where('d.id', '=', String(id))
      .executeTakeFirst();
    if (!found) return undefined;
    const now = clock.now();
    await webhookDb(trx)
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: now, first_attempt_at: null })
      .where('id', '=', String(id))
      .execute();
    await queueAttempt(trx, id, now, clock, `resend-${now.getTime()}-${found.attempts}`);
    const after = await deliveries(trx, companyId, endpointId)
      .where('d.id', '=', String(id))
      .executeTakeFirstOrThrow();
    return deliveryView(after as DeliveryRow);
  });
}
