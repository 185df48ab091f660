/** The reservation domain (hotel and transport bookings): its routes per surface and its jobs. */
import type { JobHandler } from '../../jobs/runner.ts';
import type { ReservationDomainDeps } from './deps.ts';
import { engineJobs } from './engine.ts';
import { hotel } from './hotel/index.ts';
import { transport } from './transport/index.ts';

export { adminReservationRoutes } from './admin-routes.ts';
export { companyReservationRoutes } from './company-routes.ts';
export { customerReservationRoutes } from './customer-routes.ts';
export { reservationRoutes } from './routes.ts';

/** Register with the kernel's job runner: `new JobRunner({ handlers: { ...reservationJobHandlers(deps) } })`. */
export const reservationJobHandlers = (deps: ReservationDomainDeps): Record<string, JobHandler> => ({
  ...engineJobs(deps, hotel),
  ...engineJobs(deps, transport),
});
