import type { QueryCreator } from 'kysely';
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

/** The `audit_log` row `writeAudit` inserts (for a caller that writes it within a larger statement). */
export function auditValues(ctx: Pick<RequestContext, 'auth' | 'requestId' | 'ip'> | null, e: AuditEntry) {
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
export async function writeAudit(
  db: AuditWriter,
  ctx: Pick<RequestContext, 'auth' | 'requestId' | 'ip'> | null,
  e: AuditEntry,
) {
  await db.insertInto('audit_log').values(auditValues(ctx, e)).execute();
}
