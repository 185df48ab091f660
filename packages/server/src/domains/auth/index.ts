/** The auth aggregate: login, tokens, invitations and the user view. Other folders import it through this file only (test/architecture.test.ts). */
export { createInvitation } from './invitations.ts';
export { authRoutes } from './routes.ts';
export { AuthService } from './service.ts';
export { userView } from './user-view.ts';
