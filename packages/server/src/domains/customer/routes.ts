/**
 * The `/api/v1/customer` operations. `customer/hotel-bookings` and
 * `customer/transport-bookings` are in domains/reservation/customer-routes.ts.
 *
 * METHOD /path → operationId (file in this folder):
 *   GET    /api/v1/customer/bookings → customerListBookings (bookings.ts)
 *   GET    /api/v1/customer/bookings/{booking_id} → customerGetBooking (bookings.ts)
 *   POST   /api/v1/customer/bookings/{booking_id}/cancel → customerCancelBooking (bookings.ts)
 *   GET    /api/v1/customer/payments → customerListPayments (payments.ts)
 *   GET    /api/v1/customer/payments/receipts/{payment_id} → customerGetReceipt (payments.ts)
 *   GET    /api/v1/customer/profile → customerGetProfile (profile.ts)
 *   PATCH  /api/v1/customer/profile → customerUpdateProfile (profile.ts)
 *   GET    /api/v1/customer/profile/preferences → customerGetPreferences (profile.ts)
 *   PATCH  /api/v1/customer/profile/preferences → customerUpdatePreferences (profile.ts)
 *   GET    /api/v1/customer/travelers → customerListTravelers (travelers.ts)
 *   POST   /api/v1/customer/travelers → customerCreateTraveler (travelers.ts)
 *   DELETE /api/v1/customer/travelers/{traveler_id} → customerDeleteTraveler (travelers.ts)
 *   PATCH  /api/v1/customer/travelers/{traveler_id} → customerUpdateTraveler (travelers.ts)
 */
import type { Routes } from '../../kernel/types.ts';
import type { AccountsDeps } from '../accounts/index.ts';
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
