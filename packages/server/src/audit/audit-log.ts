import { type Expression, type QueryCreator, type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../kernel/types.ts';
import type { KernelTables } from '../storage/schema.ts';
import { json } from '../storage/schema.ts';

export type AuditEntity =
  | 'user'
  | 'company'
  | 'booking'
  | 'payment'
  | 'hotel_booking'
  | 'transport_booking'
  | string;

export interface AuditEntry {
  entity: AuditEntity;
  entityId: string | number;
  /** What happened, e.g. `status_changed`, `created`, `suspended`, `refunded`. */
  action: string;
  /** Why: the caller's stated reason, or the system's. */
  reason?: string | null;
  /** What changed, e.g. `{ from: 'confirmed', to: 'cancelled' }`. */
  changes?: Record<string, unknown> | null;
  /** The company the entity belongs to (for tenant-scoped audit reports). */
  companyId?: number | null;
}

type Actor = Pick<RequestContext, 'auth' | 'requestId' | 'ip'> | null;

/** The `audit_log` row an entry is written as. */
function auditValues(ctx: Pick<RequestContext, 'auth' | 'requestId' | 'ip'> | null, e: AuditEntry) {
  return {
    actor_id: ctx?.auth?.userId ?? null,
    actor_role: ctx?.auth?.role ?? (ctx ? 'anonymous' : 'system'),
    impersonator_id: ctx?.auth?.impersonatorId ?? null,
    api_key_id: ctx?.auth?.apiKeyId ? Number(ctx.auth.apiKeyId) : null,
    company_id: e.companyId ?? null,
    entity_type: e.entity,
    entity_id: String(e.entityId),
    action: e.action,
    reason: e.reason ?? null,
    changes: e.changes ? json(e.changes) : null,
    request_id: ctx?.requestId ?? null,
    ip: ctx?.ip ?? null,
  };
}

/**
 * What `writeAudit` needs of a handle: any database or transaction over the kernel's tables, whatever
 * tables a domain widened it with (`Transaction<ServiceBookingTables & KernelTables>` is not a `Db`, but it
 * is this), as `enqueue` takes it.
 */
export type AuditWriter = Pick<QueryCreator<KernelTables>, 'insertInto'>;

/**
 * Writes one audit row: who (from `ctx`, or `system` for jobs; with the API key when the caller used one),
 * when (database time), what and why.
 * Pass the transaction that makes the change, so the row exists exactly when the change does.
 */
export async function writeAudit(db: AuditWriter, ctx: Actor, e: AuditEntry) {
  await auditStatements.insert(db, ctx, e).execute();
}

/**
 * Every write of `audit_log` (issue #29: one owner per table), as statements a caller composes: execute
 * `insert` in the transaction of the change, or put `insertWhen` in the change's own statement as a common
 * table expression, so the row commits with the change in the same round trip.
 */
export const auditStatements = {
  /** The entry's row, by `ctx` (null: the system). */
  insert(db: Pick<QueryCreator<KernelTables>, 'insertInto'>, ctx: Actor, e: AuditEntry) {
    return db.insertInto('audit_log').values(auditValues(ctx, e));
  },

  /**
   * CTE body: the entry's row once per row of the CTE `from` (none when it is empty); `entityId` may read
   * that row (e.g. sql`b.id::text`). Returns `id`.
   */
  insertWhen(
    from: string,
    ctx: Actor,
    e: Omit<AuditEntry, 'entityId'> & { entityId: string | number | Expression<string> },
  ): RawBuilder<unknown> {
    const a = auditValues(ctx, { ...e, entityId: '' });
    const entityId = typeof e.entityId === 'object' ? e.entityId : String(e.entityId);
    return sql`(insert into audit_log (actor_id, actor_role, impersonator_id, api_key_id, company_id, entity_type,
      entity_id, action, reason, changes, request_id, ip)
    select ${a.actor_id}::text, ${a.actor_role}::text, ${a.impersonator_id}::text, ${a.api_key_id}::bigint,
      ${a.company_id}::integer, ${a.entity_type}::text, ${entityId}::text, ${a.action}::text, ${a.reason}::text,
      ${a.changes}::jsonb, ${a.request_id}::text, ${a.ip}::text
    from ${sql.table(from)}
    returning id)`;
  },
};
