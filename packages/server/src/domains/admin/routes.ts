/** Every `/api/v1/admin` operation of this domain (bookings, GDS, hotel and transport live elsewhere). */
import type { Routes } from '../../kernel/types.ts';
import { adminCompanyRoutes } from './companies.ts';
import type { AccountsDeps } from './deps.ts';
import { adminMarkupRoutes } from './markup-rules.ts';
import { adminPaymentRoutes } from './payments.ts';
import { adminReportRoutes } from './reports.ts';
import { adminSystemRoutes } from './system.ts';
import { adminUserRoutes } from './users.ts';

export type { AccountsDeps } from './deps.ts';
export { recordError } from './error-log.ts';

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
