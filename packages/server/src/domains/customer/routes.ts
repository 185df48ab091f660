/** Every `/api/v1/customer` operation of this domain (hotel and transport bookings live elsewhere). */
import type { Routes } from '../../kernel/types.ts';
import type { AccountsDeps } from '../admin/deps.ts';
import { customerBookingRoutes } from './bookings.ts';
import { customerPaymentRoutes } from './payments.ts';
import { customerProfileRoutes } from './profile.ts';
import { customerTravelerRoutes } from './travelers.ts';

export function customerRoutes(deps: AccountsDeps): Routes {
  return {
    ...customerBookingRoutes(deps),
    ...customerPaymentRoutes(deps),
    ...customerProfileRoutes(deps),
    ...customerTravelerRoutes(deps),
  };
}
