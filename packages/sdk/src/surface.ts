/**
 * The SDK's whole surface: every operation of the contract (by operationId) and the typed method that
 * calls it. Not part of the package's runtime: `test/surface.test.ts` calls each entry against a recording
 * fetch and checks it reaches exactly that operation (and that every operationId of openapi.json is here),
 * and `scripts/generate-api-md.ts` renders `api.md` from it. Typed as a record over the generated
 * `operations`, so a new operation in the contract fails the typecheck until it gets its method here.
 *
 * `call` runs the method with placeholder arguments (bodies are not validated by the recording fetch, so
 * they are cast); the last argument of every method is the per-request options (`RequestOptions`).
 */
import type { TravelClient } from './client.ts';
import type { operations } from './generated/schema.ts';

/** One row: how the method is written, and a call of it. */
export interface SurfaceEntry {
  /** e.g. `bookings.get(bookingId)`; a search handle's method as `flights.resume(searchId).stream()`. */
  method: string;
  call: (travel: TravelClient) => unknown;
}

const body = {} as never;
const id = 42;
const sid = 's1';

export const SURFACE: Record<keyof operations, SurfaceEntry> = {
  // auth
  registerUser: { method: 'auth.register(body)', call: (t) => t.auth.register(body) },
  acceptInvitationPage: {
    method: 'auth.invitationPage({ invite_code, email })',
    call: (t) => t.auth.invitationPage({ invite_code: 'c', email: 'a@example.com' }),
  },
  verifyEmail: { method: 'auth.verifyEmail({ token })', call: (t) => t.auth.verifyEmail(body) },
  login: { method: 'auth.login({ email, password })', call: (t) => t.auth.login(body) },
  getCurrentUser: { method: 'auth.me()', call: (t) => t.auth.me() },
  refreshToken: { method: 'auth.refresh({ refresh_token })', call: (t) => t.auth.refresh(body) },
  logout: { method: 'auth.logout({ refresh_token })', call: (t) => t.auth.logout(body) },
  // flights
  searchFlights: { method: 'flights.search(body)', call: (t) => t.flights.search(body) },
  getFlightOffer: { method: 'flights.offer(offerId)', call: (t) => t.flights.offer('off-1') },
  streamFlightOffers: {
    method: 'flights.resume(searchId).stream()',
    call: (t) => t.flights.resume(sid).stream(),
  },
  streamFlightOffersByGds: {
    method: 'flights.resume(searchId).byGds()',
    call: (t) => t.flights.resume(sid).byGds(),
  },
  getFlightBatchResults: {
    method: 'flights.resume(searchId).batch({ timeout })',
    call: (t) => t.flights.resume(sid).batch(),
  },
  searchAirlines: {
    method: 'reference.airlines({ query })',
    call: (t) => t.reference.airlines({ query: 'ba' }),
  },
  searchAirports: {
    method: 'reference.airports({ query })',
    call: (t) => t.reference.airports({ query: 'lhr' }),
  },
  // hotels
  searchHotels: { method: 'hotels.search(body)', call: (t) => t.hotels.search(body) },
  streamHotelOffers: {
    method: 'hotels.resume(searchId).stream()',
    call: (t) => t.hotels.resume(sid).stream(),
  },
  streamHotelOffersByProvider: {
    method: 'hotels.resume(searchId).byProvider()',
    call: (t) => t.hotels.resume(sid).byProvider(),
  },
  getHotelBatchResults: {
    method: 'hotels.resume(searchId).batch({ timeout })',
    call: (t) => t.hotels.resume(sid).batch(),
  },
  getHotelSearchResults: {
    method: 'hotels.resume(searchId).results(query)',
    call: (t) => t.hotels.resume(sid).results(),
  },
  checkHotelRate: { method: 'hotels.checkRate(body)', call: (t) => t.hotels.checkRate(body) },
  bookHotel: { method: 'hotels.book(body)', call: (t) => t.hotels.book(body) },
  listHotelBookings: { method: 'hotels.list(query)', call: (t) => t.hotels.list() },
  getHotelBooking: { method: 'hotels.get(bookingId)', call: (t) => t.hotels.get(id) },
  cancelHotelBooking: { method: 'hotels.cancel(bookingId)', call: (t) => t.hotels.cancel(id) },
  // transfers
  searchTransport: { method: 'transfers.search(body)', call: (t) => t.transfers.search(body) },
  streamTransportOffers: {
    method: 'transfers.resume(searchId).stream()',
    call: (t) => t.transfers.resume(sid).stream(),
  },
  streamTransportOffersByProvider: {
    method: 'transfers.resume(searchId).byProvider()',
    call: (t) => t.transfers.resume(sid).byProvider(),
  },
  getTransportBatchResults: {
    method: 'transfers.resume(searchId).batch({ timeout })',
    call: (t) => t.transfers.resume(sid).batch(),
  },
  getTransportSearchResults: {
    method: 'transfers.resume(searchId).results(query)',
    call: (t) => t.transfers.resume(sid).results(),
  },
  quoteTransport: { method: 'transfers.quote(body)', call: (t) => t.transfers.quote(body) },
  bookTransport: { method: 'transfers.book(body)', call: (t) => t.transfers.book(body) },
  listTransportBookings: { method: 'transfers.list(query)', call: (t) => t.transfers.list() },
  getTransportBooking: { method: 'transfers.get(bookingId)', call: (t) => t.transfers.get(id) },
  cancelTransportBooking: { method: 'transfers.cancel(bookingId)', call: (t) => t.transfers.cancel(id) },
  // flight bookings
  revalidateOffer: {
    method: 'bookings.revalidate({ offer_id, currency })',
    call: (t) => t.bookings.revalidate(body),
  },
  getUpsellOffers: { method: 'bookings.upsell(body)', call: (t) => t.bookings.upsell(body) },
  getBagCatalogue: { method: 'bookings.bags.catalogue(body)', call: (t) => t.bookings.bags.catalogue(body) },
  repriceWithBags: { method: 'bookings.bags.reprice(body)', call: (t) => t.bookings.bags.reprice(body) },
  getFareRules: { method: 'bookings.fareRules(body)', call: (t) => t.bookings.fareRules(body) },
  getBookingFareRules: { method: 'bookings.rules(bookingId)', call: (t) => t.bookings.rules(id) },
  createPnr: { method: 'bookings.create(body)', call: (t) => t.bookings.create(body) },
  getBooking: { method: 'bookings.get(bookingId)', call: (t) => t.bookings.get(id) },
  cancelBooking: { method: 'bookings.cancel(bookingId)', call: (t) => t.bookings.cancel(id) },
  getBookingOrder: { method: 'bookings.order(bookingId)', call: (t) => t.bookings.order(id) },
  getBookingOrderByReference: {
    method: 'bookings.orderByReference(bookingId, reference)',
    call: (t) => t.bookings.orderByReference(id, 'X7KQ2M'),
  },
  updateBookingFoid: { method: 'bookings.foid(bookingId, body)', call: (t) => t.bookings.foid(id, body) },
  updateBookingCommission: {
    method: 'bookings.commission(bookingId, body)',
    call: (t) => t.bookings.commission(id, body),
  },
  addBookingNotes: { method: 'bookings.notes(bookingId, notes)', call: (t) => t.bookings.notes(id, ['n']) },
  getBaggage: { method: 'bookings.bags.allowances(bookingId)', call: (t) => t.bookings.bags.allowances(id) },
  // payments
  authorizePayment: {
    method: 'payments.authorize(bookingId, body)',
    call: (t) => t.payments.authorize(id, body),
  },
  capturePayment: { method: 'payments.capture(bookingId, query)', call: (t) => t.payments.capture(id) },
  voidPayment: { method: 'payments.void(bookingId, query)', call: (t) => t.payments.void(id) },
  refundPayment: { method: 'payments.refund(bookingId, query)', call: (t) => t.payments.refund(id) },
  getPaymentHistory: { method: 'payments.history(bookingId)', call: (t) => t.payments.history(id) },
  // ticketing
  issueTickets: { method: 'tickets.issue(bookingId, body)', call: (t) => t.tickets.issue(id) },
  getTicketStatus: { method: 'tickets.status(bookingId)', call: (t) => t.tickets.status(id) },
  getTicketDocument: { method: 'tickets.document(bookingId)', call: (t) => t.tickets.document(id) },
  performTicketAction: {
    method: 'tickets.action(bookingId, action, { confirm, note })',
    call: (t) => t.tickets.action(id, 'void'),
  },
  listServicingRequests: { method: 'tickets.servicing(bookingId)', call: (t) => t.tickets.servicing(id) },
  // seats
  getSeatMap: { method: 'seats.map(bookingId)', call: (t) => t.seats.map(id) },
  selectSeat: {
    method: 'seats.select(bookingId, { segment_id, seat_number, passenger_id })',
    call: (t) => t.seats.select(id, { segment_id: 'S1', seat_number: '12A', passenger_id: 'P1' }),
  },
  selectSeatsBatch: { method: 'seats.batch(bookingId, body)', call: (t) => t.seats.batch(id, body) },
  issueSeats: { method: 'seats.issue(bookingId, query)', call: (t) => t.seats.issue(id) },
  // ancillaries
  addSpecialServiceRequest: {
    method: 'ancillaries.request(bookingId, { ssr_code })',
    call: (t) => t.ancillaries.request(id, { ssr_code: 'WCHR' } as never),
  },
  getAncillaryCatalogue: {
    method: 'ancillaries.catalogue(bookingId, query)',
    call: (t) => t.ancillaries.catalogue(id),
  },
  purchaseAncillaries: {
    method: 'ancillaries.purchase(bookingId, body)',
    call: (t) => t.ancillaries.purchase(id, body),
  },
  issueAncillaryEmds: {
    method: 'ancillaries.issueEmd(bookingId, body)',
    call: (t) => t.ancillaries.issueEmd(id),
  },
  cancelAncillaries: { method: 'ancillaries.cancel(bookingId, body)', call: (t) => t.ancillaries.cancel(id) },
  // admin: companies
  adminListCompanies: { method: 'admin.companies.list(query)', call: (t) => t.admin.companies.list() },
  adminCreateCompany: { method: 'admin.companies.create(body)', call: (t) => t.admin.companies.create(body) },
  adminGetCompany: { method: 'admin.companies.get(companyId)', call: (t) => t.admin.companies.get(id) },
  adminUpdateCompany: {
    method: 'admin.companies.update(companyId, body)',
    call: (t) => t.admin.companies.update(id, body),
  },
  adminDeleteCompany: {
    method: 'admin.companies.remove(companyId)',
    call: (t) => t.admin.companies.remove(id),
  },
  adminActivateCompany: {
    method: 'admin.companies.activate(companyId)',
    call: (t) => t.admin.companies.activate(id),
  },
  adminSuspendCompany: {
    method: 'admin.companies.suspend(companyId, body)',
    call: (t) => t.admin.companies.suspend(id),
  },
  adminListCompanyApiKeys: {
    method: 'admin.companies.apiKeys.list(companyId, query)',
    call: (t) => t.admin.companies.apiKeys.list(id),
  },
  adminRevokeCompanyApiKey: {
    method: 'admin.companies.apiKeys.revoke(companyId, keyId)',
    call: (t) => t.admin.companies.apiKeys.revoke(id, 7),
  },
  // admin: bookings
  adminListBookings: { method: 'admin.bookings.list(query)', call: (t) => t.admin.bookings.list() },
  adminGetReconciliationQueue: {
    method: 'admin.bookings.reconciliation()',
    call: (t) => t.admin.bookings.reconciliation(),
  },
  adminGetBooking: { method: 'admin.bookings.get(bookingId)', call: (t) => t.admin.bookings.get(id) },
  adminOverrideBookingStatus: {
    method: 'admin.bookings.overrideStatus(bookingId, body)',
    call: (t) => t.admin.bookings.overrideStatus(id, body),
  },
  adminReconcileBooking: {
    method: 'admin.bookings.reconcile(bookingId, body)',
    call: (t) => t.admin.bookings.reconcile(id),
  },
  adminListHotelBookings: {
    method: 'admin.hotelBookings.list(query)',
    call: (t) => t.admin.hotelBookings.list(),
  },
  adminGetHotelBookingStats: {
    method: 'admin.hotelBookings.stats()',
    call: (t) => t.admin.hotelBookings.stats(),
  },
  adminGetHotelBooking: {
    method: 'admin.hotelBookings.get(bookingId)',
    call: (t) => t.admin.hotelBookings.get(id),
  },
  adminOverrideHotelBookingStatus: {
    method: 'admin.hotelBookings.overrideStatus(bookingId, { new_status, reason })',
    call: (t) => t.admin.hotelBookings.overrideStatus(id, body),
  },
  adminListTransportBookings: {
    method: 'admin.transportBookings.list(query)',
    call: (t) => t.admin.transportBookings.list(),
  },
  adminGetTransportBookingStats: {
    method: 'admin.transportBookings.stats()',
    call: (t) => t.admin.transportBookings.stats(),
  },
  adminGetTransportBooking: {
    method: 'admin.transportBookings.get(bookingId)',
    call: (t) => t.admin.transportBookings.get(id),
  },
  adminOverrideTransportBookingStatus: {
    method: 'admin.transportBookings.overrideStatus(bookingId, { new_status, reason })',
    call: (t) => t.admin.transportBookings.overrideStatus(id, body),
  },
  // admin: suppliers
  adminGetCircuitBreakers: {
    method: 'admin.gds.circuitBreakers()',
    call: (t) => t.admin.gds.circuitBreakers(),
  },
  adminGetGdsPerformance: { method: 'admin.gds.performance(query)', call: (t) => t.admin.gds.performance() },
  adminGetGdsStatus: { method: 'admin.gds.status()', call: (t) => t.admin.gds.status() },
  adminUpdateGdsConfig: {
    method: 'admin.gds.updateConfig(provider, body)',
    call: (t) => t.admin.gds.updateConfig('sandbox' as never, body),
  },
  adminResetGdsCircuit: {
    method: 'admin.gds.resetCircuit(provider)',
    call: (t) => t.admin.gds.resetCircuit('sandbox' as never),
  },
  // admin: pricing and money
  adminListMarkupRules: { method: 'admin.markupRules.list(query)', call: (t) => t.admin.markupRules.list() },
  adminCreateMarkupRule: {
    method: 'admin.markupRules.create(body)',
    call: (t) => t.admin.markupRules.create(body),
  },
  adminCalculateMarkup: {
    method: 'admin.markupRules.calculate({ base_price, ... })',
    call: (t) => t.admin.markupRules.calculate({ base_price: 100 }),
  },
  adminUpdateMarkupRule: {
    method: 'admin.markupRules.update(ruleId, body)',
    call: (t) => t.admin.markupRules.update(id, body),
  },
  adminDeleteMarkupRule: {
    method: 'admin.markupRules.remove(ruleId)',
    call: (t) => t.admin.markupRules.remove(id),
  },
  adminListPayments: { method: 'admin.payments.list(query)', call: (t) => t.admin.payments.list() },
  adminGetSettlementReport: {
    method: 'admin.payments.settlementReport(query)',
    call: (t) => t.admin.payments.settlementReport(),
  },
  adminManualRefund: {
    method: 'admin.payments.manualRefund(paymentId, body)',
    call: (t) => t.admin.payments.manualRefund(id, body),
  },
  // admin: reports and system
  adminGetAuditLog: { method: 'admin.reports.audit(query)', call: (t) => t.admin.reports.audit() },
  adminGetDashboard: { method: 'admin.reports.dashboard()', call: (t) => t.admin.reports.dashboard() },
  adminGetLiveReport: { method: 'admin.reports.live()', call: (t) => t.admin.reports.live() },
  adminGetRevenueReport: { method: 'admin.reports.revenue(query)', call: (t) => t.admin.reports.revenue() },
  adminGetCacheStats: { method: 'admin.system.cacheStats()', call: (t) => t.admin.system.cacheStats() },
  adminClearCache: {
    method: 'admin.system.clearCache({ pattern })',
    call: (t) => t.admin.system.clearCache({ pattern: 'search:*' }),
  },
  adminListErrorLogs: { method: 'admin.system.errorLogs(query)', call: (t) => t.admin.system.errorLogs() },
  adminGetSystemHealth: { method: 'admin.system.health()', call: (t) => t.admin.system.health() },
  // admin: users
  adminListUsers: { method: 'admin.users.list(query)', call: (t) => t.admin.users.list() },
  adminGetUser: { method: 'admin.users.get(userId)', call: (t) => t.admin.users.get('u1') },
  adminUpdateUser: {
    method: 'admin.users.update(userId, body)',
    call: (t) => t.admin.users.update('u1', body),
  },
  adminImpersonateUser: {
    method: 'admin.users.impersonate(userId, body)',
    call: (t) => t.admin.users.impersonate('u1', body),
  },
  adminSuspendUser: {
    method: 'admin.users.suspend(userId, body)',
    call: (t) => t.admin.users.suspend('u1', body),
  },
  // company (agency)
  companyListClients: { method: 'company.clients.list(query)', call: (t) => t.company.clients.list() },
  companyCreateClient: {
    method: 'company.clients.create(body)',
    call: (t) => t.company.clients.create(body),
  },
  companyGetClient: { method: 'company.clients.get(clientId)', call: (t) => t.company.clients.get(id) },
  companyUpdateClient: {
    method: 'company.clients.update(clientId, body)',
    call: (t) => t.company.clients.update(id, body),
  },
  companyListClientBookings: {
    method: 'company.clients.bookings(clientId, query)',
    call: (t) => t.company.clients.bookings(id),
  },
  companyListBookings: { method: 'company.bookings.list(query)', call: (t) => t.company.bookings.list() },
  companyListPendingBookings: {
    method: 'company.bookings.pending()',
    call: (t) => t.company.bookings.pending(),
  },
  companyGetBooking: { method: 'company.bookings.get(bookingId)', call: (t) => t.company.bookings.get(id) },
  companyAssignBooking: {
    method: 'company.bookings.assign(bookingId, body)',
    call: (t) => t.company.bookings.assign(id, body),
  },
  companyListHotelBookings: {
    method: 'company.hotelBookings.list(query)',
    call: (t) => t.company.hotelBookings.list(),
  },
  companyListPendingHotelBookings: {
    method: 'company.hotelBookings.pending()',
    call: (t) => t.company.hotelBookings.pending(),
  },
  companyGetHotelBooking: {
    method: 'company.hotelBookings.get(bookingId)',
    call: (t) => t.company.hotelBookings.get(id),
  },
  companyListTransportBookings: {
    method: 'company.transportBookings.list(query)',
    call: (t) => t.company.transportBookings.list(),
  },
  companyListPendingTransportBookings: {
    method: 'company.transportBookings.pending()',
    call: (t) => t.company.transportBookings.pending(),
  },
  companyGetTransportBooking: {
    method: 'company.transportBookings.get(bookingId)',
    call: (t) => t.company.transportBookings.get(id),
  },
  companyListMarkupRules: {
    method: 'company.markupRules.list(query)',
    call: (t) => t.company.markupRules.list(),
  },
  companyCreateMarkupRule: {
    method: 'company.markupRules.create(body)',
    call: (t) => t.company.markupRules.create(body),
  },
  companyUpdateMarkupRule: {
    method: 'company.markupRules.update(ruleId, body)',
    call: (t) => t.company.markupRules.update(id, body),
  },
  companyDeleteMarkupRule: {
    method: 'company.markupRules.remove(ruleId)',
    call: (t) => t.company.markupRules.remove(id),
  },
  companyGetProfile: { method: 'company.profile.get()', call: (t) => t.company.profile.get() },
  companyUpdateProfile: {
    method: 'company.profile.update(body)',
    call: (t) => t.company.profile.update(body),
  },
  companyGetSettings: { method: 'company.profile.settings()', call: (t) => t.company.profile.settings() },
  companyUpdateSettings: {
    method: 'company.profile.updateSettings(body)',
    call: (t) => t.company.profile.updateSettings(body),
  },
  companyGetDashboard: { method: 'company.reports.dashboard()', call: (t) => t.company.reports.dashboard() },
  companyGetSalesReport: { method: 'company.reports.sales(query)', call: (t) => t.company.reports.sales() },
  companyGetTopClients: {
    method: 'company.reports.topClients(query)',
    call: (t) => t.company.reports.topClients(),
  },
  companyGetTopRoutes: {
    method: 'company.reports.topRoutes(query)',
    call: (t) => t.company.reports.topRoutes(),
  },
  companyListStaff: { method: 'company.staff.list(query)', call: (t) => t.company.staff.list() },
  companyInviteStaff: { method: 'company.staff.invite(body)', call: (t) => t.company.staff.invite(body) },
  companyUpdateStaff: {
    method: 'company.staff.update(staffId, body)',
    call: (t) => t.company.staff.update(id, body),
  },
  companyDeactivateStaff: {
    method: 'company.staff.deactivate(staffId)',
    call: (t) => t.company.staff.deactivate(id),
  },
  companyGetWallet: { method: 'company.wallet.get()', call: (t) => t.company.wallet.get() },
  companyListWalletTransactions: {
    method: 'company.wallet.transactions(query)',
    call: (t) => t.company.wallet.transactions(),
  },
  companyCreateApiKey: {
    method: 'company.apiKeys.create(body)',
    call: (t) => t.company.apiKeys.create(body),
  },
  companyListApiKeys: { method: 'company.apiKeys.list(query)', call: (t) => t.company.apiKeys.list() },
  companyGetCurrentApiKey: { method: 'company.apiKeys.current()', call: (t) => t.company.apiKeys.current() },
  companyRevokeApiKey: { method: 'company.apiKeys.revoke(keyId)', call: (t) => t.company.apiKeys.revoke(7) },
  // customer (traveller)
  customerListBookings: { method: 'customer.bookings.list(query)', call: (t) => t.customer.bookings.list() },
  customerGetBooking: {
    method: 'customer.bookings.get(bookingId)',
    call: (t) => t.customer.bookings.get(id),
  },
  customerCancelBooking: {
    method: 'customer.bookings.cancel(bookingId, body)',
    call: (t) => t.customer.bookings.cancel(id),
  },
  customerListHotelBookings: {
    method: 'customer.hotelBookings.list(query)',
    call: (t) => t.customer.hotelBookings.list(),
  },
  customerGetHotelBooking: {
    method: 'customer.hotelBookings.get(bookingId)',
    call: (t) => t.customer.hotelBookings.get(id),
  },
  customerCancelHotelBooking: {
    method: 'customer.hotelBookings.cancel(bookingId)',
    call: (t) => t.customer.hotelBookings.cancel(id),
  },
  customerListTransportBookings: {
    method: 'customer.transportBookings.list(query)',
    call: (t) => t.customer.transportBookings.list(),
  },
  customerGetTransportBooking: {
    method: 'customer.transportBookings.get(bookingId)',
    call: (t) => t.customer.transportBookings.get(id),
  },
  customerCancelTransportBooking: {
    method: 'customer.transportBookings.cancel(bookingId)',
    call: (t) => t.customer.transportBookings.cancel(id),
  },
  customerListPayments: { method: 'customer.payments.list(query)', call: (t) => t.customer.payments.list() },
  customerGetReceipt: {
    method: 'customer.payments.receipt(paymentId)',
    call: (t) => t.customer.payments.receipt(id),
  },
  customerGetProfile: { method: 'customer.profile.get()', call: (t) => t.customer.profile.get() },
  customerUpdateProfile: {
    method: 'customer.profile.update(body)',
    call: (t) => t.customer.profile.update(body),
  },
  customerGetPreferences: {
    method: 'customer.profile.preferences()',
    call: (t) => t.customer.profile.preferences(),
  },
  customerUpdatePreferences: {
    method: 'customer.profile.updatePreferences(body)',
    call: (t) => t.customer.profile.updatePreferences(body),
  },
  customerListTravelers: { method: 'customer.travelers.list()', call: (t) => t.customer.travelers.list() },
  customerCreateTraveler: {
    method: 'customer.travelers.create(body)',
    call: (t) => t.customer.travelers.create(body),
  },
  customerUpdateTraveler: {
    method: 'customer.travelers.update(travelerId, body)',
    call: (t) => t.customer.travelers.update(id, body),
  },
  customerDeleteTraveler: {
    method: 'customer.travelers.remove(travelerId)',
    call: (t) => t.customer.travelers.remove(id),
  },
  // the service
  getApiInfo: { method: 'service.info()', call: (t) => t.service.info() },
  getHealth: { method: 'service.health()', call: (t) => t.service.health() },
  getHealthAlias: { method: 'service.healthAliases.health()', call: (t) => t.service.healthAliases.health() },
  getApiHealth: { method: 'service.healthAliases.api()', call: (t) => t.service.healthAliases.api() },
  getApiHealthAlias: {
    method: 'service.healthAliases.apiHealth()',
    call: (t) => t.service.healthAliases.apiHealth(),
  },
  getPublicConfig: { method: 'service.config()', call: (t) => t.service.config() },
  getOpenApiDocument: { method: 'service.openapi()', call: (t) => t.service.openapi() },
  getApiDocs: { method: 'service.docs()', call: (t) => t.service.docs() },
  getPrometheusMetrics: {
    method: 'service.metrics.prometheus()',
    call: (t) => t.service.metrics.prometheus(),
  },
  getCacheMetrics: { method: 'service.metrics.cache()', call: (t) => t.service.metrics.cache() },
  getCombinedMetrics: { method: 'service.metrics.combined()', call: (t) => t.service.metrics.combined() },
  getCacheStoreMetrics: {
    method: 'service.metrics.cacheStore()',
    call: (t) => t.service.metrics.cacheStore(),
  },
  clearAllCache: {
    method: 'service.maintenance.clearCache({ confirm })',
    call: (t) => t.service.maintenance.clearCache(),
  },
  runMaintenance: { method: 'service.maintenance.run()', call: (t) => t.service.maintenance.run() },
};
