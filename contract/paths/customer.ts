import { idParam, keysetPageParams, queryParam, ref } from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, notFound, ok } from './shared.ts';

/** Customer endpoints: role customer, tenant-scoped (only the caller’s own records). */
const cu = (d: Omit<OpDef, 'auth' | 'roles' | 'tenant'>): OpDef => ({
  auth: 'role',
  roles: ['customer'],
  tenant: true,
  ...d,
});

/** The operationIds, spelled out so that a grep for one finds its definition. */
interface CustomerBookingOps {
  list: string;
  get: string;
  cancel: string;
}

function bookingDefs(
  seg: 'bookings' | 'hotel-bookings' | 'transport-bookings',
  noun: '' | 'Hotel' | 'Transport',
  ops: CustomerBookingOps,
): OpDef[] {
  const schema = noun === '' ? 'FlightBooking' : `${noun}Booking`;
  const status = noun === '' ? 'BookingStatus' : `${noun}BookingStatus`;
  const what = noun === '' ? 'flight booking' : `${noun.toLowerCase()} booking`;
  const nf = noun === '' ? 'booking_not_found' : `${noun.toLowerCase()}_booking_not_found`;
  const base = `/api/v1/customer/${seg}`;
  return [
    cu({
      method: 'get',
      path: base,
      operationId: ops.list,
      summary: `My ${what}s`,
      parameters: [...keysetPageParams('booking_id'), queryParam('status', ref(status))],
      responses: ok(`${schema}Page`, 'A page of bookings, newest first.'),
    }),
    cu({
      method: 'get',
      path: `${base}/{booking_id}`,
      operationId: ops.get,
      summary: `One of my ${what}s`,
      parameters: [idParam('booking_id', what)],
      responses: ok(schema, 'The booking.'),
      errors: notFound(nf),
    }),
    cu({
      method: 'post',
      path: `${base}/{booking_id}/cancel`,
      operationId: ops.cancel,
      summary: `Cancel one of my ${what}s`,
      description: noun === '' ? 'Requests cancellation; reason is optional.' : undefined,
      parameters: [idParam('booking_id', what)],
      ...(noun === '' ? { body: ref('CustomerCancelRequest'), bodyRequired: false } : {}),
      responses: ok(
        noun === '' ? 'BookingCancellation' : `${noun}BookingCancellation`,
        'Cancellation outcome.',
      ),
      errors: {
        ...badRequest('cancellation_failed', 'invalid_booking_state', 'not_cancellable'),
        ...notFound(nf),
      },
    }),
  ];
}

const defs: OpDef[] = [
  ...bookingDefs('bookings', '', {
    list: 'customerListBookings',
    get: 'customerGetBooking',
    cancel: 'customerCancelBooking',
  }),
  ...bookingDefs('hotel-bookings', 'Hotel', {
    list: 'customerListHotelBookings',
    get: 'customerGetHotelBooking',
    cancel: 'customerCancelHotelBooking',
  }),
  ...bookingDefs('transport-bookings', 'Transport', {
    list: 'customerListTransportBookings',
    get: 'customerGetTransportBooking',
    cancel: 'customerCancelTransportBooking',
  }),
  cu({
    method: 'get',
    path: '/api/v1/customer/payments',
    operationId: 'customerListPayments',
    summary: 'My payments',
    parameters: keysetPageParams('payment_id'),
    responses: ok('PaymentPage', 'A page of payments, newest first.'),
  }),
  cu({
    method: 'get',
    path: '/api/v1/customer/payments/receipts/{payment_id}',
    operationId: 'customerGetReceipt',
    summary: 'Receipt of one of my payments',
    parameters: [idParam('payment_id', 'payment')],
    responses: ok('PaymentReceipt', 'The receipt.'),
    errors: notFound('payment_not_found'),
  }),
  cu({
    method: 'get',
    path: '/api/v1/customer/profile',
    operationId: 'customerGetProfile',
    summary: 'My profile',
    responses: ok('CustomerProfile', 'The profile.'),
  }),
  cu({
    method: 'patch',
    path: '/api/v1/customer/profile',
    operationId: 'customerUpdateProfile',
    summary: 'Update my profile',
    body: ref('CustomerProfileUpdateRequest'),
    responses: ok('CustomerProfile', 'The updated profile.'),
  }),
  cu({
    method: 'get',
    path: '/api/v1/customer/profile/preferences',
    operationId: 'customerGetPreferences',
    summary: 'My travel preferences',
    responses: ok('CustomerPreferences', 'Preferences.'),
  }),
  cu({
    method: 'patch',
    path: '/api/v1/customer/profile/preferences',
    operationId: 'customerUpdatePreferences',
    summary: 'Update my travel preferences',
    body: ref('CustomerPreferencesUpdateRequest'),
    responses: ok('CustomerPreferences', 'The updated preferences.'),
  }),
  cu({
    method: 'get',
    path: '/api/v1/customer/travelers',
    operationId: 'customerListTravelers',
    summary: 'My saved travelers',
    responses: ok('SavedTravelerList', 'Saved travelers, primary first.'),
  }),
  cu({
    method: 'post',
    path: '/api/v1/customer/travelers',
    operationId: 'customerCreateTraveler',
    summary: 'Save a traveler',
    body: ref('SavedTravelerCreateRequest'),
    responses: {
      201: { description: 'Saved.', content: { 'application/json': { schema: ref('SavedTraveler') } } },
    },
    errors: badRequest('traveler_limit_reached'),
  }),
  cu({
    method: 'patch',
    path: '/api/v1/customer/travelers/{traveler_id}',
    operationId: 'customerUpdateTraveler',
    summary: 'Update a saved traveler',
    parameters: [idParam('traveler_id', 'saved traveler', 32)],
    body: ref('SavedTravelerUpdateRequest'),
    responses: ok('SavedTraveler', 'The updated traveler.'),
    errors: notFound('traveler_not_found'),
  }),
  cu({
    method: 'delete',
    path: '/api/v1/customer/travelers/{traveler_id}',
    operationId: 'customerDeleteTraveler',
    summary: 'Delete a saved traveler',
    parameters: [idParam('traveler_id', 'saved traveler', 32)],
    responses: ok('DeleteResult', 'Deleted.'),
    errors: notFound('traveler_not_found'),
  }),
];

export const customerOps = surface('customer', defs);
