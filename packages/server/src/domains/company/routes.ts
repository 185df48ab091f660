/**
 * The `/api/v1/company` operations. `company/hotel-bookings` and
 * `company/transport-bookings` are in domains/reservation/company-routes.ts.
 *
 * METHOD /path → operationId (file in this folder):
 *   GET    /api/v1/admin/companies/{company_id}/api-keys → adminListCompanyApiKeys (api-keys.ts)
 *   DELETE /api/v1/admin/companies/{company_id}/api-keys/{key_id} → adminRevokeCompanyApiKey (api-keys.ts)
 *   GET    /api/v1/company/api-keys → companyListApiKeys (api-keys.ts)
 *   POST   /api/v1/company/api-keys → companyCreateApiKey (api-keys.ts)
 *   GET    /api/v1/company/api-keys/current → companyGetCurrentApiKey (api-keys.ts)
 *   DELETE /api/v1/company/api-keys/{key_id} → companyRevokeApiKey (api-keys.ts)
 *   GET    /api/v1/company/bookings → companyListBookings (bookings.ts)
 *   GET    /api/v1/company/bookings/pending → companyListPendingBookings (bookings.ts)
 *   GET    /api/v1/company/bookings/{booking_id} → companyGetBooking (bookings.ts)
 *   POST   /api/v1/company/bookings/{booking_id}/assign → companyAssignBooking (bookings.ts)
 *   GET    /api/v1/company/clients → companyListClients (clients.ts)
 *   POST   /api/v1/company/clients → companyCreateClient (clients.ts)
 *   GET    /api/v1/company/clients/{client_id} → companyGetClient (clients.ts)
 *   PATCH  /api/v1/company/clients/{client_id} → companyUpdateClient (clients.ts)
 *   GET    /api/v1/company/clients/{client_id}/bookings → companyListClientBookings (clients.ts)
 *   GET    /api/v1/company/markup-rules → companyListMarkupRules (markup-rules.ts)
 *   POST   /api/v1/company/markup-rules → companyCreateMarkupRule (markup-rules.ts)
 *   DELETE /api/v1/company/markup-rules/{rule_id} → companyDeleteMarkupRule (markup-rules.ts)
 *   PATCH  /api/v1/company/markup-rules/{rule_id} → companyUpdateMarkupRule (markup-rules.ts)
 *   GET    /api/v1/company/profile → companyGetProfile (profile.ts)
 *   PATCH  /api/v1/company/profile → companyUpdateProfile (profile.ts)
 *   GET    /api/v1/company/profile/settings → companyGetSettings (profile.ts)
 *   PATCH  /api/v1/company/profile/settings → companyUpdateSettings (profile.ts)
 *   GET    /api/v1/company/reports/dashboard → companyGetDashboard (reports.ts)
 *   GET    /api/v1/company/reports/sales → companyGetSalesReport (reports.ts)
 *   GET    /api/v1/company/reports/top-clients → companyGetTopClients (reports.ts)
 *   GET    /api/v1/company/reports/top-routes → companyGetTopRoutes (reports.ts)
 *   GET    /api/v1/company/staff → companyListStaff (staff.ts)
 *   POST   /api/v1/company/staff/invite → companyInviteStaff (staff.ts)
 *   PATCH  /api/v1/company/staff/{staff_id} → companyUpdateStaff (staff.ts)
 *   POST   /api/v1/company/staff/{staff_id}/deactivate → companyDeactivateStaff (staff.ts)
 *   GET    /api/v1/company/wallet → companyGetWallet (wallet.ts)
 *   GET    /api/v1/company/wallet/transactions → companyListWalletTransactions (wallet.ts)
 */
import type { Routes } from '../../kernel/types.ts';
import type { AccountsDeps } from '../accounts/index.ts';
import { companyApiKeyRoutes } from './api-keys.ts';
import { companyBookingRoutes } from './bookings.ts';
import { companyClientRoutes } from './clients.ts';
import { companyMarkupRoutes } from './markup-rules.ts';
import { companyProfileRoutes } from './profile.ts';
import { companyReportRoutes } from './reports.ts';
import { companyStaffRoutes } from './staff.ts';
import { companyWalletRoutes } from './wallet.ts';

export { recordWalletTransaction } from './wallet-store.ts';

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
