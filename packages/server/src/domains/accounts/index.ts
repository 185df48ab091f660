/** The accounts aggregate: users, companies, staff, clients, travelers and the paging helpers the surfaces share. Other folders import it through this file only (test/architecture.test.ts). */
export type { AccountsDeps } from './deps.ts';
export type { Paging } from './http.ts';
export { dayRange, iso, isoDate, num, ok, pageBody, paging, periodRange } from './http.ts';
export type { BookableTraveler } from './store.ts';
export {
  bookableTraveler,
  clearPrimaryTraveler,
  clientView,
  companyWithProfile,
  currencyOf,
  findClient,
  findStaff,
  findTraveler,
  guardLastAdmin,
  loadCompany,
  loadUser,
  staffQuery,
  staffView,
  syncStaff,
  travelerView,
  userWithCompany,
} from './store.ts';
export { accountsDb } from './tables.ts';
export { companyView, settingsView } from './views.ts';
