/** The search aggregate: the search routes over the engine in src/search/. Other folders import it through this file only (test/architecture.test.ts). */
export { gdsAdminRoutes } from './gds-routes.ts';
export { searchRoutes } from './routes.ts';
