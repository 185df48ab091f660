/** The events aggregate: the event feed's routes. Other folders import it through this file only (test/architecture.test.ts). */
export { eventRoutes } from './routes.ts';
