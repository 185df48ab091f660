import { type ErrorCode, forbidden, HttpError, unauthorized } from './errors.ts';
import type { RequestContext } from './types.ts';

/** Body or query fields that name a company. They may narrow a caller's scope, never widen it. */
export const COMPANY_ID_FIELDS = ['company_id', 'companyId'] as const;
export const COMPANY_CODE_FIELDS = ['company_code', 'companyCode'] as const;

const isPlatform = (ctx: RequestContext) => ctx.auth?.role === 'super_admin';

/**
 * The company the caller acts for: their own. `null` only for a super_admin (platform-wide).
 * A non-platform caller without a company gets 403 on tenant-scoped operations.
 */
export function tenantCompanyId(ctx: RequestContext): number | null {
  if (!ctx.auth) throw unauthorized('not_authenticated', 'Authentication required.');
  if (isPlatform(ctx)) return null;
  if (ctx.auth.companyId === null) throw forbidden('tenant_mismatch', 'This account belongs to no company.');
  return ctx.auth.companyId;
}

/**
 * A company named by the caller (by id or code) must be the caller's own, unless the caller is a
 * super_admin. Another company is 403 `tenant_mismatch` (contracts section 5).
 */
export function assertOwnCompany(ctx: RequestContext, ref: number | string | null | undefined): void {
  if (ref === null || ref === undefined || ref === '' || isPlatform(ctx)) return;
  const auth = ctx.auth;
  const own =
    typeof ref === 'number' || /^\d+$/.test(ref)
      ? auth?.companyId !== null && auth?.companyId === Number(ref)
      : !!auth?.companyCode && auth.companyCode.toLowerCase() === ref.toLowerCase();
  if (!own) throw forbidden('tenant_mismatch', "A company other than the caller's own was named.");
}

/** Checks every company-naming field at the top level of `fields` (a body or a query). */
export function assertNoForeignCompany(ctx: RequestContext, fields: unknown): void {
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return;
  const rec = fields as Record<string, unknown>;
  for (const f of [...COMPANY_ID_FIELDS, ...COMPANY_CODE_FIELDS]) {
    const v = rec[f];
    if (typeof v === 'number' || typeof v === 'string') assertOwnCompany(ctx, v);
  }
}

/**
 * Returns `row` when the caller may see it, else throws exactly what a missing row throws: another
 * tenant's resource must be indistinguishable from one that does not exist. `owner: 'user'` scopes to
 * the caller personally (customer surfaces) instead of to their company.
 */
export function ownedOrNotFound<T extends { company_id?: number | null; user_id?: string | null }>(
  ctx: RequestContext,
  row: T | undefined | null,
  opts: { what?: string; owner?: 'company' | 'user'; status?: number; code?: ErrorCode } = {},
): T {
  const what = opts.what ?? 'Resource';
  const missing = () => new HttpError(opts.status ?? 404, opts.code ?? 'not_found', `${what} not found.`);
  if (!row) throw missing();
  if (isPlatform(ctx)) return row;
  if (opts.owner === 'user') {
    if (!ctx.auth || row.user_id !== ctx.auth.userId) throw missing();
    return row;
  }
  if (!ctx.auth || ctx.auth.companyId === null || row.company_id !== ctx.auth.companyId) throw missing();
  return row;
}
