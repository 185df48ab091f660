import type { Exchange } from '../context.ts';
import { assertNoForeignCompany } from '../tenant.ts';

/**
 * A company named in the body or query (`company_id`, `company_code`, `companyCode`…) never widens an
 * authenticated caller's tenant: naming another company is 403 before the handler runs. Handlers still
 * scope their queries with `tenantCompanyId(ctx)` and `ownedOrNotFound`.
 */
export function tenantCheck(ex: Exchange): void {
  if (ex.ctx.auth && ex.ctx.auth.role !== 'super_admin') {
    assertNoForeignCompany(ex.ctx, ex.ctx.body);
    assertNoForeignCompany(ex.ctx, ex.ctx.query);
  }
}
