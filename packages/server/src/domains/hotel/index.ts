export { adminHotelRoutes } from './admin-routes.ts';
export { companyHotelRoutes } from './company-routes.ts';
export { customerHotelRoutes } from './customer-routes.ts';
export { hotelJobHandlers } from './reconcile.ts';
export { hotelRoutes } from './routes.ts';
