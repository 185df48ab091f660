/** Every `/api/v1/company` operation of this domain (hotel and transport bookings live elsewhere). */
import type { Routes } from '../../kernel/types.ts';
import type { AccountsDeps } from '../admin/deps.ts';
import { companyApiKeyRoutes } from './api-keys.ts';
import { companyBookingRoutes } from './bookings.ts';
import { companyClientRoutes } from './clients.ts';
import { companyMarkupRoutes } from './markup-rules.ts';
import { companyProfileRoutes } from './profile.ts';
import { companyReportRoutes } from './reports.ts';
import { companyStaffRoutes } from './staff.ts';
import { companyWalletRoutes } from './wallet.ts';

export { recordWalletTransaction, type WalletTransactionInput } from './wallet-store.ts';

export function companyRoutes(deps: AccountsDeps): Routes {
  return {
    ...companyClientRoutes(deps),
    ...companyBookingRoutes(deps),
    ...companyMarkupRoutes(deps),
    ...companyProfileRoutes(deps),
    ...companyReportRoutes(deps),
    ...companyStaffRoutes(deps),
    ...companyWalletRoutes(deps),
    // Also the super admin's `/api/v1/admin/companies/{company_id}/api-keys` (one store, one view).
    ...companyApiKeyRoutes(deps),
  };
}
