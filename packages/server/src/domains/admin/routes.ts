/**
 * The `/api/v1/admin` operations of the accounts, markup, payments, reports and system areas. The other
 * admin paths: `admin/bookings` in domains/booking/routes.ts, `admin/gds` in domains/search/gds-routes.ts,
 * `admin/hotel-bookings` and `admin/transport-bookings` in
 * domains/reservation/admin-routes.ts, `admin/companies/{company_id}/api-keys` in domains/company/api-keys.ts.
 *
 * METHOD /path → operationId (file in this folder):
 *   GET    /api/v1/admin/companies → adminListCompanies (companies.ts)
 *   POST   /api/v1/admin/companies → adminCreateCompany (companies.ts)
 *   DELETE /api/v1/admin/companies/{company_id} → adminDeleteCompany (companies.ts)
 *   GET    /api/v1/admin/companies/{company_id} → adminGetCompany (companies.ts)
 *   PATCH  /api/v1/admin/companies/{company_id} → adminUpdateCompany (companies.ts)
 *   POST   /api/v1/admin/companies/{company_id}/activate → adminActivateCompany (companies.ts)
 *   POST   /api/v1/admin/companies/{company_id}/suspend → adminSuspendCompany (companies.ts)
 *   GET    /api/v1/admin/markup-rules → adminListMarkupRules (markup-rules.ts)
 *   POST   /api/v1/admin/markup-rules → adminCreateMarkupRule (markup-rules.ts)
 *   POST   /api/v1/admin/markup-rules/calculate → adminCalculateMarkup (markup-rules.ts)
 *   DELETE /api/v1/admin/markup-rules/{rule_id} → adminDeleteMarkupRule (markup-rules.ts)
 *   PATCH  /api/v1/admin/markup-rules/{rule_id} → adminUpdateMarkupRule (markup-rules.ts)
 *   GET    /api/v1/admin/payments → adminListPayments (payments.ts)
 *   GET    /api/v1/admin/payments/settlement-report → adminGetSettlementReport (payments.ts)
 *   POST   /api/v1/admin/payments/{payment_id}/manual-refund → adminManualRefund (payments.ts)
 *   GET    /api/v1/admin/reports/audit → adminGetAuditLog (reports.ts)
 *   GET    /api/v1/admin/reports/dashboard → adminGetDashboard (reports.ts)
 *   GET    /api/v1/admin/reports/live → adminGetLiveReport (reports.ts)
 *   GET    /api/v1/admin/reports/revenue → adminGetRevenueReport (reports.ts)
 *   GET    /api/v1/admin/system/cache-stats → adminGetCacheStats (system.ts)
 *   POST   /api/v1/admin/system/clear-cache → adminClearCache (system.ts)
 *   GET    /api/v1/admin/system/error-logs → adminListErrorLogs (system.ts)
 *   GET    /api/v1/admin/system/health → adminGetSystemHealth (system.ts)
 *   GET    /api/v1/admin/users → adminListUsers (users.ts)
 *   GET    /api/v1/admin/users/{user_id} → adminGetUser (users.ts)
 *   PATCH  /api/v1/admin/users/{user_id} → adminUpdateUser (users.ts)
 *   POST   /api/v1/admin/users/{user_id}/impersonate → adminImpersonateUser (users.ts)
 *   POST   /api/v1/admin/users/{user_id}/suspend → adminSuspendUser (users.ts)
 */
import type { Routes } from '../../kernel/types.ts';
import { adminCompanyRoutes } from './companies.ts';
import type { AccountsDeps } from './deps.ts';
import { adminMarkupRoutes } from './markup-rules.ts';
import { adminPaymentRoutes } from './payments.ts';
import { adminReportRoutes } from './reports.ts';
import { adminSystemRoutes } from './system.ts';
import { adminUserRoutes } from './users.ts';

export type { AccountsDeps } from './deps.ts';

export function adminRoutes(deps: AccountsDeps): Routes {
  return {
    ...adminCompanyRoutes(deps),
    ...adminMarkupRoutes(deps),
    ...adminPaymentRoutes(deps),
    ...adminReportRoutes(deps),
    ...adminSystemRoutes(deps),
    ...adminUserRoutes(deps),
  };
}
