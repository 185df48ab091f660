/**
 * Who may see a hotel or transport booking: its owner; staff of the owning company; a super_admin.
 * Anyone else gets exactly the not-found a missing booking gets (another tenant's booking must not
 * be distinguishable from none).
 */
import { notFound } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import type { BookingKind } from './kind.ts';

export function visibleOrNotFound<T extends { user_id: string; company_id: number | null }>(
  ctx: RequestContext,
  k: BookingKind,
  row: T | undefined,
  owner: 'user' | 'company' | 'any' = 'any',
): T {
  const missing = () => notFound(k.notFoundCode, `${k.what} not found.`);
  const a = ctx.auth;
  if (!row || !a) throw missing();
  if (a.role === 'super_admin' && owner !== 'user') return row;
  if (row.user_id === a.userId && owner !== 'company') return row;
  const staff = a.role === 'company_admin' || a.role === 'company_staff';
  if (owner !== 'user' && staff && a.companyId !== null && row.company_id === a.companyId) return row;
  throw missing();
}
