import {
  dateRangeParams,
  id32,
  idParam,
  int,
  keysetPageParams,
  pageParams,
  periodParam,
  queryParam,
  ref,
  searchParam,
  sortParams,
} from '../lib.ts';
import { type OpDef, type Role, surface } from '../op.ts';
import { badRequest, notFound, ok } from './shared.ts';

const STAFF: Role[] = ['company_admin', 'company_staff'];
const ADMIN: Role[] = ['company_admin'];
/** Company endpoints: role + tenant; staff and admins unless `roles` says otherwise. */
const co = (d: Omit<OpDef, 'auth' | 'roles' | 'tenant'> & { roles?: Role[] }): OpDef => ({
  auth: 'role',
  tenant: true,
  ...d,
  roles: d.roles ?? STAFF,
});

const listFilters = (statusSchema: string, sortFields: string[], paging = pageParams()) => [
  ...paging,
  queryParam('status', ref(statusSchema)),
  searchParam('booking id, reference, traveller name and contact email'),
  ...dateRangeParams(),
  ...sortParams(sortFields, 'created_at'),
];
const limit = () => queryParam('limit', int({ minimum: 1, maximum: 100, default: 10 }));

/** The operationIds, spelled out so that a grep for one finds its definition. */
interface CompanyBookingOps {
  list: string;
  pending: string;
  get: string;
}

function serviceBookingDefs(
  seg: 'hotel' | 'transport',
  noun: 'Hotel' | 'Transport',
  ops: CompanyBookingOps,
  pendingDesc: string,
): OpDef[] {
  const base = `/api/v1/company/${seg}-bookings`;
  return [
    co({
      method: 'get',
      path: base,
      operationId: ops.list,
      summary: `The company’s ${seg} bookings`,
      parameters: listFilters(
        `${noun}BookingStatus`,
        ['created_at', 'updated_at', 'status', 'total'],
        keysetPageParams('booking_id'),
      ),
      responses: ok(`${noun}BookingPage`, 'A page of bookings.'),
    }),
    co({
      method: 'get',
      path: `${base}/pending`,
      operationId: ops.pending,
      summary: `${noun} bookings needing attention`,
      description: pendingDesc,
      responses: ok(`Pending${noun}Bookings`, 'Pending bookings by category.'),
    }),
    co({
      method: 'get',
      path: `${base}/{booking_id}`,
      operationId: ops.get,
      summary: `A ${seg} booking of the company`,
      parameters: [idParam('booking_id', `${seg} booking`)],
      responses: ok(`${noun}Booking`, 'The booking.'),
      errors: notFound(`${seg}_booking_not_found`),
    }),
  ];
}

const defs: OpDef[] = [
  // --- clients ----------------------------------------------------------------------------------------
  co({
    method: 'get',
    path: '/api/v1/company/clients',
    operationId: 'companyListClients',
    summary: 'List clients',
    parameters: [
      ...keysetPageParams('client_id', id32()),
      searchParam('client name, email and company name'),
      queryParam('client_type', ref('ClientType')),
    ],
    responses: ok('ClientPage', 'A page of clients.'),
  }),
  co({
    method: 'post',
    path: '/api/v1/company/clients',
    operationId: 'companyCreateClient',
    summary: 'Create a client',
    body: ref('ClientCreateRequest'),
    responses: {
      201: { description: 'Created.', content: { 'application/json': { schema: ref('Client') } } },
    },
    errors: badRequest('client_email_taken'),
  }),
  co({
    method: 'get',
    path: '/api/v1/company/clients/{client_id}',
    operationId: 'companyGetClient',
    summary: 'A client',
    parameters: [idParam('client_id', 'client', 32)],
    responses: ok('Client', 'The client.'),
    errors: notFound('client_not_found'),
  }),
  co({
    method: 'patch',
    path: '/api/v1/company/clients/{client_id}',
    operationId: 'companyUpdateClient',
    summary: 'Update a client',
    parameters: [idParam('client_id', 'client', 32)],
    body: ref('ClientUpdateRequest'),
    responses: ok('Client', 'The updated client.'),
    errors: notFound('client_not_found'),
  }),
  co({
    method: 'get',
    path: '/api/v1/company/clients/{client_id}/bookings',
    operationId: 'companyListClientBookings',
    summary: 'A client’s flight bookings',
    parameters: [idParam('client_id', 'client', 32), ...keysetPageParams('booking_id')],
    responses: ok('FlightBookingPage', 'A page of bookings.'),
    errors: notFound('client_not_found'),
  }),
  // --- flight bookings --------------------------------------------------------------------------------
  co({
    method: 'get',
    path: '/api/v1/company/bookings',
    operationId: 'companyListBookings',
    summary: 'The company’s flight bookings',
    parameters: listFilters(
      'BookingStatus',
      ['created_at', 'updated_at', 'status', 'total_minor', 'ticketing_deadline'],
      keysetPageParams('booking_id'),
    ),
    responses: ok('FlightBookingPage', 'A page of bookings.'),
  }),
  co({
    method: 'get',
    path: '/api/v1/company/bookings/pending',
    operationId: 'companyListPendingBookings',
    summary: 'Flight bookings needing attention',
    description:
      'Payment pending, ticketing pending, and on-hold bookings whose ticketing deadline is within 24 hours.',
    responses: ok('PendingFlightBookings', 'Pending bookings by category.'),
  }),
  co({
    method: 'get',
    path: '/api/v1/company/bookings/{booking_id}',
    operationId: 'companyGetBooking',
    summary: 'A flight booking of the company',
    parameters: [idParam('booking_id', 'flight booking')],
    responses: ok('FlightBooking', 'The booking.'),
    errors: notFound('booking_not_found'),
  }),
  co({
    method: 'get',
    path: '/api/v1/company/bookings/{booking_id}/timeline',
    operationId: 'companyGetBookingTimeline',
    addition: true,
    summary: 'A flight booking’s story, for the company’s staff',
    description:
      'The company’s own booking as adminGetBookingTimeline shows it: state changes, supplier and payment provider calls (redacted excerpts) and money movements, oldest first.',
    parameters: [idParam('booking_id', 'flight booking')],
    responses: ok('BookingTimeline', 'The timeline.'),
    errors: notFound('booking_not_found'),
  }),
  co({
    method: 'post',
    path: '/api/v1/company/bookings/{booking_id}/assign',
    operationId: 'companyAssignBooking',
    summary: 'Assign a booking to a staff member',
    parameters: [idParam('booking_id', 'flight booking')],
    body: ref('AssignBookingRequest'),
    responses: ok('FlightBooking', 'The booking with assigned_to_user_id set.'),
    errors: { ...badRequest('staff_inactive'), ...notFound('booking_not_found', 'staff_not_found') },
  }),
  // --- hotel and transport bookings -------------------------------------------------------------------
  ...serviceBookingDefs(
    'hotel',
    'Hotel',
    {
      list: 'companyListHotelBookings',
      pending: 'companyListPendingHotelBookings',
      get: 'companyGetHotelBooking',
    },
    'Bookings pending confirmation and on-request bookings.',
  ),
  ...serviceBookingDefs(
    'transport',
    'Transport',
    {
      list: 'companyListTransportBookings',
      pending: 'companyListPendingTransportBookings',
      get: 'companyGetTransportBooking',
    },
    'Bookings pending confirmation and on-hold bookings (status on_request).',
  ),
  // --- markup rules (company_admin) --------------------------------------------------------------------
  co({
    method: 'get',
    path: '/api/v1/company/markup-rules',
    operationId: 'companyListMarkupRules',
    summary: 'The company’s markup rules',
    roles: ADMIN,
    parameters: pageParams(),
    responses: ok('MarkupRulePage', 'A page of rules.'),
  }),
  co({
    method: 'post',
    path: '/api/v1/company/markup-rules',
    operationId: 'companyCreateMarkupRule',
    summary: 'Create a markup rule',
    description:
      'Applied to the prices of the company’s clients. company_id is ignored (always the caller’s company).',
    roles: ADMIN,
    body: ref('CreateMarkupRuleRequest'),
    responses: {
      201: { description: 'Created.', content: { 'application/json': { schema: ref('MarkupRule') } } },
    },
    errors: badRequest('invalid_fare_range'),
  }),
  co({
    method: 'patch',
    path: '/api/v1/company/markup-rules/{rule_id}',
    operationId: 'companyUpdateMarkupRule',
    summary: 'Update a markup rule',
    roles: ADMIN,
    parameters: [idParam('rule_id', 'markup rule', 32)],
    body: ref('UpdateMarkupRuleRequest'),
    responses: ok('MarkupRule', 'The updated rule.'),
    errors: { ...badRequest('invalid_fare_range'), ...notFound('rule_not_found') },
  }),
  co({
    method: 'delete',
    path: '/api/v1/company/markup-rules/{rule_id}',
    operationId: 'companyDeleteMarkupRule',
    summary: 'Delete a markup rule',
    roles: ADMIN,
    parameters: [idParam('rule_id', 'markup rule', 32)],
    responses: ok('DeleteResult', 'Deleted.'),
    errors: notFound('rule_not_found'),
  }),
  // --- profile ----------------------------------------------------------------------------------------
  co({
    method: 'get',
    path: '/api/v1/company/profile',
    operationId: 'companyGetProfile',
    summary: 'The company’s profile',
    responses: ok('Company', 'The company.'),
  }),
  co({
    method: 'patch',
    path: '/api/v1/company/profile',
    operationId: 'companyUpdateProfile',
    summary: 'Update the company’s profile',
    roles: ADMIN,
    body: ref('CompanyProfileUpdateRequest'),
    responses: ok('Company', 'The updated company.'),
  }),
  co({
    method: 'get',
    path: '/api/v1/company/profile/settings',
    operationId: 'companyGetSettings',
    summary: 'The company’s settings',
    responses: ok('CompanySettings', 'Settings.'),
  }),
  co({
    method: 'patch',
    path: '/api/v1/company/profile/settings',
    operationId: 'companyUpdateSettings',
    summary: 'Update the company’s settings',
    roles: ADMIN,
    body: ref('CompanySettingsUpdate'),
    responses: ok('CompanySettings', 'The updated settings.'),
  }),
  // --- reports ----------------------------------------------------------------------------------------
  co({
    method: 'get',
    path: '/api/v1/company/reports/dashboard',
    operationId: 'companyGetDashboard',
    summary: 'Company KPIs',
    responses: ok('CompanyDashboard', 'KPIs.'),
  }),
  co({
    method: 'get',
    path: '/api/v1/company/reports/sales',
    operationId: 'companyGetSalesReport',
    summary: 'Sales report',
    parameters: [periodParam('30d')],
    responses: ok('SalesReport', 'Sales per day and currency.'),
  }),
  co({
    method: 'get',
    path: '/api/v1/company/reports/top-clients',
    operationId: 'companyGetTopClients',
    summary: 'Top clients by revenue',
    parameters: [periodParam('30d'), limit()],
    responses: ok('TopClientsReport', 'Top clients.'),
  }),
  co({
    method: 'get',
    path: '/api/v1/company/reports/top-routes',
    operationId: 'companyGetTopRoutes',
    summary: 'Top routes by bookings',
    parameters: [periodParam('30d'), limit()],
    responses: ok('TopRoutesReport', 'Top routes.'),
  }),
  // --- staff (company_admin) ---------------------------------------------------------------------------
  co({
    method: 'get',
    path: '/api/v1/company/staff',
    operationId: 'companyListStaff',
    summary: 'List staff',
    roles: ADMIN,
    parameters: pageParams(),
    responses: ok('StaffPage', 'A page of staff members.'),
  }),
  co({
    method: 'post',
    path: '/api/v1/company/staff/invite',
    operationId: 'companyInviteStaff',
    summary: 'Invite a staff member',
    description:
      'Emails an invitation with a join link. Only a company admin in their own session (not an API key, not an impersonation token): the invitation creates a credential. An address that already belongs to a member of this company is 400 `email_already_registered`; an address with an account anywhere else gets the answer a new address gets (its owner is mailed instead, and no invitation is made), so the call tells nothing about other tenants.',
    roles: ADMIN,
    credentials: 'own_session',
    body: ref('StaffInviteRequest'),
    responses: {
      201: { description: 'Invited.', content: { 'application/json': { schema: ref('StaffInvitation') } } },
    },
    errors: badRequest('email_already_registered'),
  }),
  co({
    method: 'patch',
    path: '/api/v1/company/staff/{staff_id}',
    operationId: 'companyUpdateStaff',
    summary: 'Update a staff member',
    description:
      'Only a company admin in their own session (not an API key, not an impersonation token): a role change gives a principal power.',
    roles: ADMIN,
    credentials: 'own_session',
    parameters: [idParam('staff_id', 'staff member', 32)],
    body: ref('StaffUpdateRequest'),
    responses: ok('StaffMember', 'The updated staff member.'),
    errors: { ...badRequest('cannot_demote_last_admin'), ...notFound('staff_not_found') },
  }),
  co({
    method: 'post',
    path: '/api/v1/company/staff/{staff_id}/deactivate',
    operationId: 'companyDeactivateStaff',
    summary: 'Deactivate a staff member',
    description: 'A company admin (not an API key: keys do not manage staff).',
    roles: ADMIN,
    credentials: 'person',
    parameters: [idParam('staff_id', 'staff member', 32)],
    responses: ok('StaffMember', 'Deactivated.'),
    errors: {
      ...badRequest('cannot_deactivate_self', 'cannot_demote_last_admin'),
      ...notFound('staff_not_found'),
    },
  }),
  // --- wallet (company_admin) --------------------------------------------------------------------------
  co({
    method: 'get',
    path: '/api/v1/company/wallet',
    operationId: 'companyGetWallet',
    summary: 'Wallet balance, credit limit and available credit',
    roles: ADMIN,
    responses: ok('Wallet', 'The wallet.'),
  }),
  co({
    method: 'get',
    path: '/api/v1/company/wallet/transactions',
    operationId: 'companyListWalletTransactions',
    summary: 'Wallet ledger',
    roles: ADMIN,
    parameters: [
      ...keysetPageParams('transaction_id'),
      queryParam('transaction_type', ref('TransactionType')),
    ],
    responses: ok('WalletTransactionPage', 'A page of transactions.'),
  }),
];

export const companyOps = surface('company', defs);
