/** The platform aggregate: health, docs and the published documents. Other folders import it through this file only (test/architecture.test.ts). */
export { PlatformDocuments } from './documents.ts';
export { platformRoutes } from './routes.ts';
