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

import type { operations } from '@travel/contract';
import type { TravelClient } from './client.ts';
import type { RequestOptions } from './core/request.ts';

/** One row: how the method is written, and a call of it. */
export interface SurfaceEntry {
  /** e.g. `bookings.get(bookingId)`; a search handle's method as `flights.resume(searchId).stream()`. */
  method: string;
  /** Calls the method with `options` as its last argument, as every method takes its request options. */
  call: (travel: TravelClient, options: RequestOptions) => unknown;
}

const body = {} as never;
const id = 42;
const sid = 's1';

export const SURFACE: Record<keyof operations, SurfaceEntry> = {
  // auth
  registerUser: { method: 'auth.register(body)', call: (t, o) => t.auth.register(body, o) },
  acceptInvitationPage: {
    method: 'auth.invitationPage({ invite_code, email })',
    call: (t, o) => t.auth.invitationPage({ invite_code: 'c', email: 'a@example.com' }, o),
  },
  verifyEmail: { method: 'auth.verifyEmail({ token })', call: (t, o) => t.auth.verifyEmail(body, o) },
  login: { method: 'auth.login({ email, password })', call: (t, o) => t.auth.login(body, o) },
  getCurrentUser: { method: 'auth.me()', call: (t, o) => t.auth.me(o) },
  refreshToken: { method: 'auth.refresh({ refresh_token })', call: (t, o) => t.auth.refresh(body, o) },
  logout: { method: 'auth.logout({ refresh_token })', call: (t, o) => t.auth.logout(body, o) },
  endImpersonation: { method: 'auth.endImpersonation()', call: (t, o) => t.auth.endImpersonation(o) },
  // flights
  searchFlights: { method: 'flights.search(body)', call: (t, o) => t.flights.search(body, o) },
  getFlightOffer: { method: 'flights.offer(offerId)', call: (t, o) => t.flights.offer('off-1', o) },
  streamFlightOffers: {
    method: 'flights.resume(searchId).stream()',
    call: (t, o) => t.flights.resume(sid).stream(o),
  },
  streamFlightOffersByGds: {
    method: 'flights.resume(searchId).byGds()',
    call: (t, o) => t.flights.resume(sid).byGds(o),
  },
  getFlightBatchResults: {
    method: 'flights.resume(searchId).batch({ timeout })',
    call: (t, o) => t.flights.resume(sid).batch({}, o),
  },
  searchAirlines: {
    method: 'reference.airlines({ query })',
    call: (t, o) => t.reference.airlines({ query: 'ba' }, o),
  },
  searchAirports: {
    method: 'reference.airports({ query })',
    call: (t, o) => t.reference.airports({ query: 'lhr' }, o),
  },
  // hotels
  searchHotels: { method: 'hotels.search(body)', call: (t, o) => t.hotels.search(body, o) },
  streamHotelOffers: {
    method: 'hotels.resume(searchId).stream()',
    call: (t, o) => t.hotels.resume(sid).stream(o),
  },
  streamHotelOffersByProvider: {
    method: 'hotels.resume(searchId).byProvider()',
    call: (t, o) => t.hotels.resume(sid).byProvider(o),
  },
  getHotelBatchResults: {
    method: 'hotels.resume(searchId).batch({ timeout })',
    call: (t, o) => t.hotels.resume(sid).batch({}, o),
  },
  getHotelSearchResults: {
    method: 'hotels.resume(searchId).results(query)',
    call: (t, o) => t.hotels.resume(sid).results({}, o),
  },
  checkHotelRate: { method: 'hotels.checkRate(body)', call: (t, o) => t.hotels.checkRate(body, o) },
  bookHotel: { method: 'hotels.book(body)', call: (t, o) => t.hotels.book(body, o) },
  listHotelBookings: { method: 'hotels.list(query)', call: (t, o) => t.hotels.list({}, o) },
  getHotelBooking: { method: 'hotels.get(bookingId)', call: (t, o) => t.hotels.get(id, o) },
  cancelHotelBooking: { method: 'hotels.cancel(bookingId)', call: (t, o) => t.hotels.cancel(id, o) },
  quoteHotelCancellation: {
    method: 'hotels.cancellationQuote(bookingId)',
    call: (t, o) => t.hotels.cancellationQuote(id, o),
  },
  // transfers
  searchTransport: { method: 'transfers.search(body)', call: (t, o) => t.transfers.search(body, o) },
  streamTransportOffers: {
    method: 'transfers.resume(searchId).stream()',
    call: (t, o) => t.transfers.resume(sid).stream(o),
  },
  streamTransportOffersByProvider: {
    method: 'transfers.resume(searchId).byProvider()',
    call: (t, o) => t.transfers.resume(sid).byProvider(o),
  },
  getTransportBatchResults: {
    method: 'transfers.resume(searchId).batch({ timeout })',
    call: (t, o) => t.transfers.resume(sid).batch({}, o),
  },
  getTransportSearchResults: {
    method: 'transfers.resume(searchId).results(query)',
    call: (t, o) => t.transfers.resume(sid).results({}, o),
  },
  quoteTransport: { method: 'transfers.quote(body)', call: (t, o) => t.transfers.quote(body, o) },
  bookTransport: { method: 'transfers.book(body)', call: (t, o) => t.transfers.book(body, o) },
  listTransportBookings: { method: 'transfers.list(query)', call: (t, o) => t.transfers.list({}, o) },
  getTransportBooking: { method: 'transfers.get(bookingId)', call: (t, o) => t.transfers.get(id, o) },
  cancelTransportBooking: {
    method: 'transfers.cancel(bookingId)',
    call: (t, o) => t.transfers.cancel(id, o),
  },
  // flight bookings
  revalidateOffer: {
    method: 'bookings.revalidate({ offer_id, currency })',
    call: (t, o) => t.bookings.revalidate(body, o),
  },
  getUpsellOffers: { method: 'bookings.upsell(body)', call: (t, o) => t.bookings.upsell(body, o) },
  getBagCatalogue: {
    method: 'bookings.bags.catalogue(body)',
    call: (t, o) => t.bookings.bags.catalogue(body, o),
  },
  repriceWithBags: {
    method: 'bookings.bags.reprice(body)',
    call: (t, o) => t.bookings.bags.reprice(body, o),
  },
  getFareRules: { method: 'bookings.fareRules(body)', call: (t, o) => t.bookings.fareRules(body, o) },
  getBookingFareRules: { method: 'bookings.rules(bookingId)', call: (t, o) => t.bookings.rules(id, o) },
  createPnr: { method: 'bookings.create(body)', call: (t, o) => t.bookings.create(body, o) },
  getBooking: { method: 'bookings.get(bookingId)', call: (t, o) => t.bookings.get(id, o) },
  cancelBooking: { method: 'bookings.cancel(bookingId)', call: (t, o) => t.bookings.cancel(id, o) },
  getBookingOrder: { method: 'bookings.order(bookingId)', call: (t, o) => t.bookings.order(id, o) },
  listBookingScheduleChanges: {
    method: 'bookings.scheduleChanges.list(bookingId)',
    call: (t, o) => t.bookings.scheduleChanges.list(id, o),
  },
  refreshBookingScheduleChanges: {
    method: 'bookings.scheduleChanges.refresh(bookingId)',
    call: (t, o) => t.bookings.scheduleChanges.refresh(id, o),
  },
  acceptBookingScheduleChange: {
    method: 'bookings.scheduleChanges.accept(bookingId, changeId)',
    call: (t, o) => t.bookings.scheduleChanges.accept(id, 'sc_1', o),
  },
  getBookingOrderByReference: {
    method: 'bookings.orderByReference(bookingId, reference)',
    call: (t, o) => t.bookings.orderByReference(id, 'X7KQ2M', o),
  },
  updateBookingFoid: {
    method: 'bookings.foid(bookingId, body)',
    call: (t, o) => t.bookings.foid(id, body, o),
  },
  updateBookingCommission: {
    method: 'bookings.commission(bookingId, body)',
    call: (t, o) => t.bookings.commission(id, body, o),
  },
  addBookingNotes: {
    method: 'bookings.notes(bookingId, notes)',
    call: (t, o) => t.bookings.notes(id, ['n'], o),
  },
  getBaggage: {
    method: 'bookings.bags.allowances(bookingId)',
    call: (t, o) => t.bookings.bags.allowances(id, o),
  },
  // payments
  authorizePayment: {
    method: 'payments.authorize(bookingId, body)',
    call: (t, o) => t.payments.authorize(id, body, o),
  },
  capturePayment: {
    method: 'payments.capture(bookingId, query)',
    call: (t, o) => t.payments.capture(id, {}, o),
  },
  voidPayment: { method: 'payments.void(bookingId, query)', call: (t, o) => t.payments.void(id, {}, o) },
  refundPayment: {
    method: 'payments.refund(bookingId, query)',
    call: (t, o) => t.payments.refund(id, {}, o),
  },
  getPaymentHistory: { method: 'payments.history(bookingId)', call: (t, o) => t.payments.history(id, o) },
  // ticketing
  issueTickets: { method: 'tickets.issue(bookingId, body)', call: (t, o) => t.tickets.issue(id, {}, o) },
  getTicketStatus: { method: 'tickets.status(bookingId)', call: (t, o) => t.tickets.status(id, o) },
  getTicketDocument: { method: 'tickets.document(bookingId)', call: (t, o) => t.tickets.document(id, o) },
  performTicketAction: {
    method: 'tickets.action(bookingId, action, { confirm, note })',
    call: (t, o) => t.tickets.action(id, 'void', {}, o),
  },
  listServicingRequests: {
    method: 'tickets.servicing(bookingId)',
    call: (t, o) => t.tickets.servicing(id, o),
  },
  // seats
  getSeatMap: { method: 'seats.map(bookingId)', call: (t, o) => t.seats.map(id, o) },
  selectSeat: {
    method: 'seats.select(bookingId, { segment_id, seat_number, passenger_id })',
    call: (t, o) => t.seats.select(id, { segment_id: 'S1', seat_number: '12A', passenger_id: 'P1' }, o),
  },
  selectSeatsBatch: { method: 'seats.batch(bookingId, body)', call: (t, o) => t.seats.batch(id, body, o) },
  issueSeats: { method: 'seats.issue(bookingId, query)', call: (t, o) => t.seats.issue(id, {}, o) },
  // ancillaries
  addSpecialServiceRequest: {
    method: 'ancillaries.request(bookingId, { ssr_code })',
    call: (t, o) => t.ancillaries.request(id, { ssr_code: 'WCHR' } as never, o),
  },
  getAncillaryCatalogue: {
    method: 'ancillaries.catalogue(bookingId, query)',
    call: (t, o) => t.ancillaries.catalogue(id, {}, o),
  },
  purchaseAncillaries: {
    method: 'ancillaries.purchase(bookingId, body)',
    call: (t, o) => t.ancillaries.purchase(id, body, o),
  },
  issueAncillaryEmds: {
    method: 'ancillaries.issueEmd(bookingId, body)',
    call: (t, o) => t.ancillaries.issueEmd(id, {}, o),
  },
  cancelAncillaries: {
    method: 'ancillaries.cancel(bookingId, body)',
    call: (t, o) => t.ancillaries.cancel(id, {}, o),
  },
  // admin: companies
  adminListCompanies: {
    method: 'admin.companies.list(query)',
    call: (t, o) => t.admin.companies.list({}, o),
  },
  adminCreateCompany: {
    method: 'admin.companies.create(body)',
    call: (t, o) => t.admin.companies.create(body, o),
  },
  adminGetCompany: { method: 'admin.companies.get(companyId)', call: (t, o) => t.admin.companies.get(id, o) },
  adminUpdateCompany: {
    method: 'admin.companies.update(companyId, body)',
    call: (t, o) => t.admin.companies.update(id, body, o),
  },
  adminDeleteCompany: {
    method: 'admin.companies.remove(companyId)',
    call: (t, o) => t.admin.companies.remove(id, o),
  },
  adminActivateCompany: {
    method: 'admin.companies.activate(companyId)',
    call: (t, o) => t.admin.companies.activate(id, o),
  },
  adminSuspendCompany: {
    method: 'admin.companies.suspend(companyId, body)',
    call: (t, o) => t.admin.companies.suspend(id, {}, o),
  },
  adminListCompanyApiKeys: {
    method: 'admin.companies.apiKeys.list(companyId, query)',
    call: (t, o) => t.admin.companies.apiKeys.list(id, {}, o),
  },
  adminRevokeCompanyApiKey: {
    method: 'admin.companies.apiKeys.revoke(companyId, keyId)',
    call: (t, o) => t.admin.companies.apiKeys.revoke(id, 7, o),
  },
  // admin: bookings
  adminListBookings: { method: 'admin.bookings.list(query)', call: (t, o) => t.admin.bookings.list({}, o) },
  adminGetReconciliationQueue: {
    method: 'admin.bookings.reconciliation()',
    call: (t, o) => t.admin.bookings.reconciliation(o),
  },
  adminGetBooking: { method: 'admin.bookings.get(bookingId)', call: (t, o) => t.admin.bookings.get(id, o) },
  adminGetBookingTimeline: {
    method: 'admin.bookings.timeline(bookingId)',
    call: (t, o) => t.admin.bookings.timeline(id, o),
  },
  adminOverrideBookingStatus: {
    method: 'admin.bookings.overrideStatus(bookingId, body)',
    call: (t, o) => t.admin.bookings.overrideStatus(id, body, o),
  },
  adminReconcileBooking: {
    method: 'admin.bookings.reconcile(bookingId, body)',
    call: (t, o) => t.admin.bookings.reconcile(id, {}, o),
  },
  adminListHotelBookings: {
    method: 'admin.hotelBookings.list(query)',
    call: (t, o) => t.admin.hotelBookings.list({}, o),
  },
  adminGetHotelBookingStats: {
    method: 'admin.hotelBookings.stats()',
    call: (t, o) => t.admin.hotelBookings.stats(o),
  },
  adminGetHotelBooking: {
    method: 'admin.hotelBookings.get(bookingId)',
    call: (t, o) => t.admin.hotelBookings.get(id, o),
  },
  adminOverrideHotelBookingStatus: {
    method: 'admin.hotelBookings.overrideStatus(bookingId, { new_status, reason })',
    call: (t, o) => t.admin.hotelBookings.overrideStatus(id, body, o),
  },
  adminListTransportBookings: {
    method: 'admin.transportBookings.list(query)',
    call: (t, o) => t.admin.transportBookings.list({}, o),
  },
  adminGetTransportBookingStats: {
    method: 'admin.transportBookings.stats()',
    call: (t, o) => t.admin.transportBookings.stats(o),
  },
  adminGetTransportBooking: {
    method: 'admin.transportBookings.get(bookingId)',
    call: (t, o) => t.admin.transportBookings.get(id, o),
  },
  adminOverrideTransportBookingStatus: {
    method: 'admin.transportBookings.overrideStatus(bookingId, { new_status, reason })',
    call: (t, o) => t.admin.transportBookings.overrideStatus(id, body, o),
  },
  // admin: suppliers
  adminGetCircuitBreakers: {
    method: 'admin.gds.circuitBreakers()',
    call: (t, o) => t.admin.gds.circuitBreakers(o),
  },
  adminGetGdsPerformance: {
    method: 'admin.gds.performance(query)',
    call: (t, o) => t.admin.gds.performance({}, o),
  },
  adminGetGdsStatus: { method: 'admin.gds.status()', call: (t, o) => t.admin.gds.status(o) },
  adminUpdateGdsConfig: {
    method: 'admin.gds.updateConfig(provider, body)',
    call: (t, o) => t.admin.gds.updateConfig('sandbox' as never, body, o),
  },
  adminResetGdsCircuit: {
    method: 'admin.gds.resetCircuit(provider)',
    call: (t, o) => t.admin.gds.resetCircuit('sandbox' as never, o),
  },
  // admin: pricing and money
  adminListMarkupRules: {
    method: 'admin.markupRules.list(query)',
    call: (t, o) => t.admin.markupRules.list({}, o),
  },
  adminCreateMarkupRule: {
    method: 'admin.markupRules.create(body)',
    call: (t, o) => t.admin.markupRules.create(body, o),
  },
  adminCalculateMarkup: {
    method: 'admin.markupRules.calculate({ base_price, ... })',
    call: (t, o) => t.admin.markupRules.calculate({ base_price: 100 }, o),
  },
  adminUpdateMarkupRule: {
    method: 'admin.markupRules.update(ruleId, body)',
    call: (t, o) => t.admin.markupRules.update(id, body, o),
  },
  adminDeleteMarkupRule: {
    method: 'admin.markupRules.remove(ruleId)',
    call: (t, o) => t.admin.markupRules.remove(id, o),
  },
  adminListPayments: { method: 'admin.payments.list(query)', call: (t, o) => t.admin.payments.list({}, o) },
  adminGetSettlementReport: {
    method: 'admin.payments.settlementReport(query)',
    call: (t, o) => t.admin.payments.settlementReport({}, o),
  },
  adminManualRefund: {
    method: 'admin.payments.manualRefund(paymentId, body)',
    call: (t, o) => t.admin.payments.manualRefund(id, body, o),
  },
  // admin: reports and system
  adminGetAuditLog: { method: 'admin.reports.audit(query)', call: (t, o) => t.admin.reports.audit({}, o) },
  adminGetDashboard: { method: 'admin.reports.dashboard()', call: (t, o) => t.admin.reports.dashboard(o) },
  adminGetLiveReport: { method: 'admin.reports.live()', call: (t, o) => t.admin.reports.live(o) },
  adminGetRevenueReport: {
    method: 'admin.reports.revenue(query)',
    call: (t, o) => t.admin.reports.revenue({}, o),
  },
  adminGetCacheStats: { method: 'admin.system.cacheStats()', call: (t, o) => t.admin.system.cacheStats(o) },
  adminClearCache: {
    method: 'admin.system.clearCache({ pattern })',
    call: (t, o) => t.admin.system.clearCache({ pattern: 'search:*' }, o),
  },
  adminListErrorLogs: {
    method: 'admin.system.errorLogs(query)',
    call: (t, o) => t.admin.system.errorLogs({}, o),
  },
  adminGetSystemHealth: { method: 'admin.system.health()', call: (t, o) => t.admin.system.health(o) },
  // admin: users
  adminListUsers: { method: 'admin.users.list(query)', call: (t, o) => t.admin.users.list({}, o) },
  adminGetUser: { method: 'admin.users.get(userId)', call: (t, o) => t.admin.users.get('u1', o) },
  adminUpdateUser: {
    method: 'admin.users.update(userId, body)',
    call: (t, o) => t.admin.users.update('u1', body, o),
  },
  adminImpersonateUser: {
    method: 'admin.users.impersonate(userId, body)',
    call: (t, o) => t.admin.users.impersonate('u1', body, o),
  },
  adminSuspendUser: {
    method: 'admin.users.suspend(userId, body)',
    call: (t, o) => t.admin.users.suspend('u1', body, o),
  },
  // company (agency)
  companyListClients: {
    method: 'company.clients.list(query)',
    call: (t, o) => t.company.clients.list({}, o),
  },
  companyCreateClient: {
    method: 'company.clients.create(body)',
    call: (t, o) => t.company.clients.create(body, o),
  },
  companyGetClient: { method: 'company.clients.get(clientId)', call: (t, o) => t.company.clients.get(id, o) },
  companyUpdateClient: {
    method: 'company.clients.update(clientId, body)',
    call: (t, o) => t.company.clients.update(id, body, o),
  },
  companyListClientBookings: {
    method: 'company.clients.bookings(clientId, query)',
    call: (t, o) => t.company.clients.bookings(id, {}, o),
  },
  companyListBookings: {
    method: 'company.bookings.list(query)',
    call: (t, o) => t.company.bookings.list({}, o),
  },
  companyListPendingBookings: {
    method: 'company.bookings.pending()',
    call: (t, o) => t.company.bookings.pending(o),
  },
  companyGetBooking: {
    method: 'company.bookings.get(bookingId)',
    call: (t, o) => t.company.bookings.get(id, o),
  },
  companyGetBookingTimeline: {
    method: 'company.bookings.timeline(bookingId)',
    call: (t, o) => t.company.bookings.timeline(id, o),
  },
  companyAssignBooking: {
    method: 'company.bookings.assign(bookingId, body)',
    call: (t, o) => t.company.bookings.assign(id, body, o),
  },
  companyListHotelBookings: {
    method: 'company.hotelBookings.list(query)',
    call: (t, o) => t.company.hotelBookings.list({}, o),
  },
  companyListPendingHotelBookings: {
    method: 'company.hotelBookings.pending()',
    call: (t, o) => t.company.hotelBookings.pending(o),
  },
  companyGetHotelBooking: {
    method: 'company.hotelBookings.get(bookingId)',
    call: (t, o) => t.company.hotelBookings.get(id, o),
  },
  companyListTransportBookings: {
    method: 'company.transportBookings.list(query)',
    call: (t, o) => t.company.transportBookings.list({}, o),
  },
  companyListPendingTransportBookings: {
    method: 'company.transportBookings.pending()',
    call: (t, o) => t.company.transportBookings.pending(o),
  },
  companyGetTransportBooking: {
    method: 'company.transportBookings.get(bookingId)',
    call: (t, o) => t.company.transportBookings.get(id, o),
  },
  companyListMarkupRules: {
    method: 'company.markupRules.list(query)',
    call: (t, o) => t.company.markupRules.list({}, o),
  },
  companyCreateMarkupRule: {
    method: 'company.markupRules.create(body)',
    call: (t, o) => t.company.markupRules.create(body, o),
  },
  companyUpdateMarkupRule: {
    method: 'company.markupRules.update(ruleId, body)',
    call: (t, o) => t.company.markupRules.update(id, body, o),
  },
  companyDeleteMarkupRule: {
    method: 'company.markupRules.remove(ruleId)',
    call: (t, o) => t.company.markupRules.remove(id, o),
  },
  companyGetProfile: { method: 'company.profile.get()', call: (t, o) => t.company.profile.get(o) },
  companyUpdateProfile: {
    method: 'company.profile.update(body)',
    call: (t, o) => t.company.profile.update(body, o),
  },
  companyGetSettings: { method: 'company.profile.settings()', call: (t, o) => t.company.profile.settings(o) },
  companyUpdateSettings: {
    method: 'company.profile.updateSettings(body)',
    call: (t, o) => t.company.profile.updateSettings(body, o),
  },
  companyGetDashboard: {
    method: 'company.reports.dashboard()',
    call: (t, o) => t.company.reports.dashboard(o),
  },
  companyGetSalesReport: {
    method: 'company.reports.sales(query)',
    call: (t, o) => t.company.reports.sales({}, o),
  },
  companyGetTopClients: {
    method: 'company.reports.topClients(query)',
    call: (t, o) => t.company.reports.topClients({}, o),
  },
  companyGetTopRoutes: {
    method: 'company.reports.topRoutes(query)',
    call: (t, o) => t.company.reports.topRoutes({}, o),
  },
  companyListStaff: { method: 'company.staff.list(query)', call: (t, o) => t.company.staff.list({}, o) },
  companyInviteStaff: {
    method: 'company.staff.invite(body)',
    call: (t, o) => t.company.staff.invite(body, o),
  },
  companyUpdateStaff: {
    method: 'company.staff.update(staffId, body)',
    call: (t, o) => t.company.staff.update(id, body, o),
  },
  companyDeactivateStaff: {
    method: 'company.staff.deactivate(staffId)',
    call: (t, o) => t.company.staff.deactivate(id, o),
  },
  companyGetWallet: { method: 'company.wallet.get()', call: (t, o) => t.company.wallet.get(o) },
  companyListWalletTransactions: {
    method: 'company.wallet.transactions(query)',
    call: (t, o) => t.company.wallet.transactions({}, o),
  },
  companyCreateApiKey: {
    method: 'company.apiKeys.create(body)',
    call: (t, o) => t.company.apiKeys.create(body, o),
  },
  companyListApiKeys: {
    method: 'company.apiKeys.list(query)',
    call: (t, o) => t.company.apiKeys.list({}, o),
  },
  companyGetCurrentApiKey: {
    method: 'company.apiKeys.current()',
    call: (t, o) => t.company.apiKeys.current(o),
  },
  companyRevokeApiKey: {
    method: 'company.apiKeys.revoke(keyId)',
    call: (t, o) => t.company.apiKeys.revoke(7, o),
  },
  companyCreateWebhookEndpoint: {
    method: 'company.webhookEndpoints.create(body)',
    call: (t, o) => t.company.webhookEndpoints.create(body, o),
  },
  companyListWebhookEndpoints: {
    method: 'company.webhookEndpoints.list()',
    call: (t, o) => t.company.webhookEndpoints.list(o),
  },
  companyUpdateWebhookEndpoint: {
    method: 'company.webhookEndpoints.update(endpointId, body)',
    call: (t, o) => t.company.webhookEndpoints.update(7, body, o),
  },
  companyRollWebhookSecret: {
    method: 'company.webhookEndpoints.rollSecret(endpointId, body)',
    call: (t, o) => t.company.webhookEndpoints.rollSecret(7, {}, o),
  },
  companyListWebhookDeliveries: {
    method: 'company.webhookEndpoints.deliveries(endpointId, query)',
    call: (t, o) => t.company.webhookEndpoints.deliveries(7, {}, o),
  },
  companyResendWebhookDelivery: {
    method: 'company.webhookEndpoints.resend(endpointId, deliveryId)',
    call: (t, o) => t.company.webhookEndpoints.resend(7, 8, o),
  },
  // events
  listEvents: { method: 'events.page(query)', call: (t, o) => t.events.page({}, o) },
  streamEvents: {
    method: 'events.stream(query)',
    call: (t, o) => t.events.stream({}, o as never).next(),
  },
  // customer (traveller)
  customerListBookings: {
    method: 'customer.bookings.list(query)',
    call: (t, o) => t.customer.bookings.list({}, o),
  },
  customerGetBooking: {
    method: 'customer.bookings.get(bookingId)',
    call: (t, o) => t.customer.bookings.get(id, o),
  },
  customerCancelBooking: {
    method: 'customer.bookings.cancel(bookingId, body)',
    call: (t, o) => t.customer.bookings.cancel(id, {}, o),
  },
  customerListHotelBookings: {
    method: 'customer.hotelBookings.list(query)',
    call: (t, o) => t.customer.hotelBookings.list({}, o),
  },
  customerGetHotelBooking: {
    method: 'customer.hotelBookings.get(bookingId)',
    call: (t, o) => t.customer.hotelBookings.get(id, o),
  },
  customerCancelHotelBooking: {
    method: 'customer.hotelBookings.cancel(bookingId)',
    call: (t, o) => t.customer.hotelBookings.cancel(id, o),
  },
  customerListTransportBookings: {
    method: 'customer.transportBookings.list(query)',
    call: (t, o) => t.customer.transportBookings.list({}, o),
  },
  customerGetTransportBooking: {
    method: 'customer.transportBookings.get(bookingId)',
    call: (t, o) => t.customer.transportBookings.get(id, o),
  },
  customerCancelTransportBooking: {
    method: 'customer.transportBookings.cancel(bookingId)',
    call: (t, o) => t.customer.transportBookings.cancel(id, o),
  },
  customerListPayments: {
    method: 'customer.payments.list(query)',
    call: (t, o) => t.customer.payments.list({}, o),
  },
  customerGetReceipt: {
    method: 'customer.payments.receipt(paymentId)',
    call: (t, o) => t.customer.payments.receipt(id, o),
  },
  customerGetProfile: { method: 'customer.profile.get()', call: (t, o) => t.customer.profile.get(o) },
  customerUpdateProfile: {
    method: 'customer.profile.update(body)',
    call: (t, o) => t.customer.profile.update(body, o),
  },
  customerGetPreferences: {
    method: 'customer.profile.preferences()',
    call: (t, o) => t.customer.profile.preferences(o),
  },
  customerUpdatePreferences: {
    method: 'customer.profile.updatePreferences(body)',
    call: (t, o) => t.customer.profile.updatePreferences(body, o),
  },
  customerListTravelers: {
    method: 'customer.travelers.list()',
    call: (t, o) => t.customer.travelers.list(o),
  },
  customerCreateTraveler: {
    method: 'customer.travelers.create(body)',
    call: (t, o) => t.customer.travelers.create(body, o),
  },
  customerUpdateTraveler: {
    method: 'customer.travelers.update(travelerId, body)',
    call: (t, o) => t.customer.travelers.update(id, body, o),
  },
  customerDeleteTraveler: {
    method: 'customer.travelers.remove(travelerId)',
    call: (t, o) => t.customer.travelers.remove(id, o),
  },
  // the service
  getApiInfo: { method: 'service.info()', call: (t, o) => t.service.info(o) },
  getHealth: { method: 'service.health()', call: (t, o) => t.service.health(o) },
  getLiveness: { method: 'service.live()', call: (t, o) => t.service.live(o) },
  getReadiness: { method: 'service.ready()', call: (t, o) => t.service.ready(o) },
  getHealthAlias: {
    method: 'service.healthAliases.health()',
    call: (t, o) => t.service.healthAliases.health(o),
  },
  getApiHealth: { method: 'service.healthAliases.api()', call: (t, o) => t.service.healthAliases.api(o) },
  getApiHealthAlias: {
    method: 'service.healthAliases.apiHealth()',
    call: (t, o) => t.service.healthAliases.apiHealth(o),
  },
  getPublicConfig: { method: 'service.config()', call: (t, o) => t.service.config(o) },
  getOpenApiDocument: { method: 'service.openapi()', call: (t, o) => t.service.openapi(o) },
  getApiDocs: { method: 'service.docs()', call: (t, o) => t.service.docs(o) },
  getPrometheusMetrics: {
    method: 'service.metrics.prometheus()',
    call: (t, o) => t.service.metrics.prometheus(o),
  },
  getCacheMetrics: { method: 'service.metrics.cache()', call: (t, o) => t.service.metrics.cache(o) },
  getCombinedMetrics: { method: 'service.metrics.combined()', call: (t, o) => t.service.metrics.combined(o) },
  getCacheStoreMetrics: {
    method: 'service.metrics.cacheStore()',
    call: (t, o) => t.service.metrics.cacheStore(o),
  },
  clearAllCache: {
    method: 'service.maintenance.clearCache({ confirm })',
    call: (t, o) => t.service.maintenance.clearCache({}, o),
  },
  runMaintenance: { method: 'service.maintenance.run()', call: (t, o) => t.service.maintenance.run(o) },
};
