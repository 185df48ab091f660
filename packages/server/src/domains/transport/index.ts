export { adminTransportRoutes } from './admin-routes.ts';
export { companyTransportRoutes } from './company-routes.ts';
export { customerTransportRoutes } from './customer-routes.ts';
export { transportJobHandlers } from './reconcile.ts';
export { transportRoutes } from './routes.ts';
