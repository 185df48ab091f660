/** The reference aggregate: airports, cities and their search. Other folders import it through this file only (test/architecture.test.ts). */
export { GeoIndex } from './geo.ts';
export { referenceRoutes } from './routes.ts';
