/** Hotel and ground-transport search, offers and bookings. Offers mirror `suppliers/ports/hotel.ts` and `ports/transfer.ts`. */
import {
  arr,
  bool,
  date,
  dateTime,
  email,
  id64,
  input,
  int,
  type Json,
  keysetPage,
  minor,
  nullable,
  num,
  obj,
  objReq,
  ref,
  str,
  strEnum,
} from '../lib.ts';
import { fxFields } from './common.ts';

/**
 * A pickup time: RFC 3339 with `Z` or an offset (an instant), or a local date-time without one (the wall
 * clock at the pickup point, which is what the transfer suppliers work in).
 */
const pickupDateTime = (description: string) =>
  str({
    pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2})?$',
    description,
    examples: ['2026-12-20T14:30:00', '2026-12-20T10:30:00Z', '2026-12-20T14:30:00+04:00'],
  });

const batchResult = (offer: string, what: string): Json =>
  obj({
    search_id: str(),
    status: ref('SearchStatus'),
    results_by_provider: {
      type: 'object',
      description: `Provider name to its ${what}; providers that returned nothing map to an empty array.`,
      additionalProperties: arr(ref(offer)),
    },
    total_offers: int({ minimum: 0 }),
    completed_provider_count: int({ minimum: 0 }),
    total_provider_count: int({ minimum: 0 }),
    timed_out: bool({ description: 'True when the timeout cut the wait (then the status is 408).' }),
  });

const resultsPage = (offer: string): Json =>
  obj({
    search_id: str(),
    status: ref('SearchStatus'),
    items: arr(ref(offer)),
    total: int({ minimum: 0, description: 'Offers matching the filters so far.' }),
    page: int({ minimum: 1 }),
    page_size: int({ minimum: 1, maximum: 100 }),
    completed_provider_count: int({ minimum: 0 }),
    total_provider_count: int({ minimum: 0 }),
  });

const cancellation = (status: string): Json =>
  obj({
    booking_id: id64(),
    status: ref(status),
    cancelled: bool(),
    cancellation_fee: ref('Money', { description: 'What the provider keeps (0 when free).' }),
    refund: ref('Money', {
      description:
        'The booking total less the fee: what the provider does not keep. Not a card movement of the platform: see `payment`.',
    }),
    payment: ref('ReservationCancellationPayment'),
  });

export const schemas: Record<string, Json> = {
  ReservationCancellationPayment: obj(
    {
      action: strEnum(['none'], {
        description: 'What the cancellation did to a card payment: `none`, there is none to act on.',
      }),
      amount_minor: minor('What went back to a card: 0.'),
      currency: ref('Currency'),
      status: strEnum(['not_charged'], {
        description: '`not_charged`: the platform took no card payment for this booking.',
      }),
    },
    {
      description:
        'The money side of a hotel or transport cancellation. The platform takes card payments for flight bookings only (`/bookings/{booking_id}/authorize`); a hotel or transport booking is not charged through it, so its cancellation refunds nothing here: the fee and the `refund` figure are what the provider keeps and does not keep. The same answer is recorded in the booking’s audit trail (`cancelled`, details.payment).',
    },
  ),
  SearchInitiation: objReq(
    {
      search_id: str(),
      status: ref('SearchStatus'),
      stream_url: str({ description: 'Offer-by-offer SSE stream.' }),
      stream_by_provider_url: str({ description: 'Provider-by-provider SSE stream.' }),
      batch_url: str({ description: 'Wait-for-all batch endpoint.' }),
      results_url: str({ description: 'Paginated, filterable results endpoint (poll).' }),
      expires_at: dateTime({ description: 'After this the search answers 410.' }),
      destination: ref('ResolvedDestination', {
        description:
          'Hotel searches only: the place the destination was read as, which every provider searches.',
      }),
    },
    ['search_id', 'status', 'stream_url', 'stream_by_provider_url', 'batch_url', 'results_url', 'expires_at'],
    { description: 'Hotel and transport search initiation (202).' },
  ),
  DestinationCity: obj({
    name: str(),
    country: str({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' }),
    region: nullable(str({ description: 'State, province or region, when the data has one.' })),
  }),
  ResolvedDestination: obj(
    {
      kind: strEnum(['city_code', 'airport', 'city', 'coordinates'], {
        description:
          '`city_code` an IATA city code (LON), `airport` an IATA airport code (hotels around the city it serves), `city` a city name, `coordinates` "lat,lon".',
      }),
      name: str({ description: 'The city (for coordinates: the coordinates as sent).' }),
      country: nullable(
        str({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2; null for coordinates.' }),
      ),
      region: nullable(str()),
      latitude: num({ minimum: -90, maximum: 90 }),
      longitude: num({ minimum: -180, maximum: 180 }),
      code: nullable(
        str({ pattern: '^[A-Z]{3}$', description: 'The IATA code the destination was given as.' }),
      ),
      alternatives: arr(ref('DestinationCity'), {
        description:
          'Other cities of the same name, most populous first. To search one of them, send its name with its country or region after a comma ("London, CA", "Portland, Maine").',
      }),
    },
    { description: 'The place a hotel search reads its destination as.' },
  ),
  // --- hotel ----------------------------------------------------------------------------------------
  HotelRoomRequest: input(
    {
      adults: int({ minimum: 1, maximum: 9, default: 2 }),
      children: int({ minimum: 0, maximum: 6, default: 0 }),
      child_ages: arr(int({ minimum: 0, maximum: 17 }), { maxItems: 6, default: [] }),
    },
    [],
  ),
  HotelSortBy: strEnum(['price_asc', 'price_desc', 'star_rating', 'distance']),
  HotelSearchRequest: input(
    {
      destination: str({
        minLength: 2,
        maxLength: 100,
        description:
          'City name, IATA city code (LON, NYC, TYO, …) or airport code, or "lat,lon". A city name means the most populous city of that name (London: London GB, not London, Ontario; Portland: Portland, Oregon); former names are understood (Bombay, Peking, Saigon). To choose another city of the same name add its country or region after a comma: an ISO 3166-1 alpha-2 code, a country name, a region or US state ("London, CA", "Portland, Maine", "Portland, US-ME", "Birmingham, AL"), or send its IATA code. Free text whose last comma-separated part is a city ("Dubai Marina, Dubai") means that city. A code or city the reference data does not know (or coordinates out of range, or a qualifier no city of that name has) is 422 `unknown_location` with loc ["body","destination"].',
      }),
      check_in: date(),
      check_out: date({ description: 'After check_in.' }),
      rooms: arr(ref('HotelRoomRequest'), {
        minItems: 1,
        maxItems: 8,
        default: [{ adults: 2, children: 0, child_ages: [] }],
      }),
      nationality: str({
        pattern: '^[A-Z]{2}$',
        default: 'GB',
        description: 'Guest nationality, ISO 3166-1 alpha-2.',
      }),
      currency: ref('Currency', { default: 'USD' }),
      min_star_rating: int({ minimum: 1, maximum: 5 }),
      max_results: int({ minimum: 1, maximum: 500, default: 100 }),
      sort_by: ref('HotelSortBy', { default: 'price_asc' }),
      company_code: str({ minLength: 1, maxLength: 50 }),
      user_code: str({ minLength: 1, maxLength: 50 }),
    },
    ['destination', 'check_in', 'check_out', 'company_code', 'user_code'],
    {
      examples: [
        {
          destination: 'DXB',
          check_in: '2026-12-20',
          check_out: '2026-12-23',
          rooms: [{ adults: 2, children: 0, child_ages: [] }],
          currency: 'GBP',
          company_code: 'ACME',
          user_code: 'agent01',
        },
      ],
    },
  ),
  CancellationPolicy: obj({
    from: dateTime({ description: 'From this moment the fee applies.' }),
    fee: ref('Money'),
  }),
  HotelOffer: obj(
    {
      offer_id: str(),
      search_id: str(),
      supplier: ref('HotelSupplier'),
      rate_key: str({ description: 'Opaque; pass to check-rate and book.' }),
      rate_type: strEnum(['BOOKABLE', 'RECHECK'], {
        description: 'RECHECK must go through check-rate before booking.',
      }),
      hotel: obj({
        hotel_id: str(),
        name: str(),
        star_rating: num({ minimum: 0, maximum: 5 }),
        address: str(),
        city: str(),
        country: str(),
        latitude: num(),
        longitude: num(),
        distance_km: nullable(num({ minimum: 0 })),
      }),
      room: obj({ room_type: str(), room_name: str(), board: str(), board_name: str() }),
      check_in: date(),
      check_out: date(),
      nights: int({ minimum: 1 }),
      rooms: int({ minimum: 1 }),
      adults: int({
        minimum: 1,
        description:
          'Adults the rate was priced for, over all rooms. A booking must name exactly these guests.',
      }),
      children: int({ minimum: 0, description: 'Children the rate was priced for, over all rooms.' }),
      price: obj(
        {
          currency: ref('Currency'),
          base_minor: minor(),
          taxes_minor: minor(),
          total_minor: minor(),
        },
        {
          description:
            'In the currency the search asked for (cancellation fees too): converted at `fx_rate` from `supplier_price` when the supplier prices in another currency.',
        },
      ),
      ...fxFields('`price.total_minor`'),
      refundable: bool(),
      cancellation_policies: arr(ref('CancellationPolicy')),
    },
    {
      description:
        'A normalized hotel offer (mirrors `HotelOffer` in the supplier ports, plus offer_id and search_id).',
    },
  ),
  HotelBatchResult: batchResult('HotelOffer', 'hotel offers'),
  HotelResultsPage: resultsPage('HotelOffer'),
  HotelCheckRateRequest: input(
    { rate_key: str({ minLength: 1, maxLength: 2000 }), provider: ref('HotelSupplier') },
    ['rate_key', 'provider'],
  ),
  HotelRateCheck: obj({
    available: bool(),
    price_changed: bool(),
    previous_total_minor: minor(),
    price_change_cause: ref('PriceChangeCause'),
    offer: ref('HotelOffer'),
  }),
  HotelGuest: input(
    {
      room: int({
        minimum: 1,
        maximum: 8,
        description:
          '1-based room number. Defaults to 1 when the rate has one room; required (422) when it has more.',
      }),
      type: strEnum(['AD', 'CH'], {
        description: 'Adult or child. Defaults to AD, or to CH when an age under 18 is given.',
      }),
      first_name: str({ minLength: 1, maxLength: 60 }),
      last_name: str({
        minLength: 1,
        maxLength: 60,
        description: 'Sandbox triggers: PENDING (502 booking_pending), REJECT (400 supplier_rejected).',
      }),
      age: int({ minimum: 0, maximum: 120, description: 'Required for children.' }),
    },
    ['first_name', 'last_name'],
    {
      description:
        'A guest. A single room of adults needs first_name and last_name only. Booked guests are returned with room and type filled in.',
    },
  ),
  HotelBookRequest: input(
    {
      rate_key: str({ minLength: 1, maxLength: 2000 }),
      provider: ref('HotelSupplier'),
      guests: arr(ref('HotelGuest'), {
        minItems: 1,
        maxItems: 40,
        description: 'The first adult is the booking holder.',
      }),
      contact_email: email(),
      contact_phone: str({ minLength: 5, maxLength: 30 }),
      special_requests: str({ maxLength: 500 }),
      client_ref: str({ maxLength: 64, description: 'Your own reference, echoed back.' }),
    },
    ['rate_key', 'provider', 'guests', 'contact_email', 'contact_phone'],
  ),
  HotelBooking: obj({
    booking_id: id64(),
    status: ref('HotelBookingStatus'),
    provider: ref('HotelSupplier'),
    supplier_booking_ref: nullable(str()),
    hotel_confirmation: nullable(str()),
    rate_key: str(),
    hotel: obj({ hotel_id: str(), name: str(), address: str(), city: str(), country: str() }),
    room: obj({ room_type: str(), room_name: str(), board: str(), board_name: str() }),
    check_in: date(),
    check_out: date(),
    nights: int({ minimum: 1 }),
    guests: arr(ref('HotelGuest')),
    contact_email: str(),
    contact_phone: str(),
    special_requests: nullable(str()),
    client_ref: nullable(str()),
    total: ref('Money', { description: 'What the booking charges, in the currency it was shown in.' }),
    ...fxFields('`total` (what the provider charges, recorded for reconciliation)'),
    cancellation_policies: arr(ref('CancellationPolicy')),
    cancellation_fee: nullable(ref('Money', { description: 'Set once cancelled.' })),
    user_id: str(),
    company_id: nullable(int()),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
  HotelBookingPage: keysetPage('HotelBooking', 'A page of hotel bookings.'),
  HotelBookingCancellation: cancellation('HotelBookingStatus'),
  HotelCancellationQuote: obj(
    {
      booking_id: int({ format: 'int64' }),
      status: ref('HotelBookingStatus'),
      cancellation_fee: ref('Money', {
        description: 'What the provider would keep if cancelled now (0 when free).',
      }),
      refund: ref('Money', { description: 'What would go back to the customer.' }),
      source: strEnum(['supplier_simulation'], {
        description: 'The provider’s own cancellation simulation (nothing was cancelled).',
      }),
    },
    { description: 'What cancelling the booking now would cost, in the booking’s currency.' },
  ),
  AdminHotelBooking: {
    allOf: [ref('HotelBooking'), obj({ audit_trail: arr(ref('AuditEntry')) })],
  },
  PendingHotelBookings: obj({
    pending_confirmation: arr(ref('HotelBooking')),
    on_request: arr(ref('HotelBooking')),
  }),
  // --- transport ------------------------------------------------------------------------------------
  TransferType: strEnum(['PRIVATE', 'SHARED', 'TAXI', 'HOURLY']),
  TransportSortBy: strEnum(['price_asc', 'price_desc', 'duration', 'vehicle_category']),
  TransportSearchRequest: input(
    {
      pickup_location: str({
        minLength: 2,
        maxLength: 200,
        description:
          'IATA airport code (an IATA city code such as LON means its main airport, LHR), "lat,lon", a city name (its centre; the same rules as a hotel destination: the most populous city of the name unless a country or region follows a comma), or a free-text address or hotel name. Three letters are read as an IATA code: an unknown one (or coordinates out of range) is 422 `unknown_location` naming the field.',
      }),
      dropoff_location: str({
        minLength: 2,
        maxLength: 200,
        description: 'As pickup_location.',
      }),
      pickup_datetime: pickupDateTime(
        'RFC 3339 with `Z` or an offset (2026-12-20T10:30:00Z, 2026-12-20T14:30:00+04:00), or the local time at the pickup point without an offset (2026-12-20T14:30:00). The transfer suppliers work in local time: a time with a zone is converted to the pickup point’s time zone (an airport code’s, or for "lat,lon" the nearest airport’s; for a free-text pickup, the drop-off’s when that is an airport or coordinates). When neither point has a known time zone, send the local time: a time with a zone is then 422. Seconds are optional; fractions are dropped.',
      ),
      passengers: int({ minimum: 1, maximum: 50, default: 1 }),
      luggage: int({ minimum: 0, maximum: 50, default: 1 }),
      return_datetime: pickupDateTime(
        'Pickup time of the return transfer, if any; the same forms as pickup_datetime, converted to the same time zone.',
      ),
      transfer_type: ref('TransferType'),
      currency: ref('Currency', { default: 'USD' }),
    },
    ['pickup_location', 'dropoff_location', 'pickup_datetime'],
    {
      examples: [
        {
          pickup_location: 'DXB',
          dropoff_location: 'Atlantis The Palm, Dubai',
          pickup_datetime: '2026-12-20T14:30:00',
          passengers: 2,
          luggage: 2,
          currency: 'GBP',
        },
      ],
    },
  ),
  TransferOffer: obj(
    {
      offer_id: str(),
      search_id: str(),
      supplier: ref('TransferSupplier'),
      quote_id: str({ description: 'Pass to quote and book.' }),
      transfer_type: ref('TransferType'),
      vehicle: obj({
        category: str(),
        description: str(),
        max_passengers: int({ minimum: 1 }),
        max_luggage: int({ minimum: 0 }),
      }),
      provider_name: str(),
      pickup: obj({ location: str(), datetime: str() }),
      dropoff: obj({ location: str() }),
      duration_minutes: nullable(int({ minimum: 0 })),
      distance_km: nullable(num({ minimum: 0 })),
      price: obj(
        { currency: ref('Currency'), total_minor: minor() },
        {
          description:
            'In the currency the search asked for (cancellation fees too): converted at `fx_rate` from `supplier_price` when the supplier prices in another currency.',
        },
      ),
      ...fxFields('`price.total_minor`'),
      cancellation_policies: arr(ref('CancellationPolicy')),
      expires_at: dateTime(),
    },
    {
      description:
        'A normalized transfer offer (mirrors `TransferOffer` in the supplier ports, plus offer_id and search_id).',
    },
  ),
  TransportBatchResult: batchResult('TransferOffer', 'transfer offers'),
  TransportResultsPage: resultsPage('TransferOffer'),
  TransportQuoteRequest: input(
    {
      quote_id: str({
        minLength: 1,
        maxLength: 2000,
        description: 'Opaque and server-signed; from search results.',
      }),
      provider: ref('TransferSupplier'),
    },
    ['quote_id', 'provider'],
  ),
  TransportQuote: obj({
    available: bool(),
    price_changed: bool(),
    previous_total_minor: minor(),
    price_change_cause: ref('PriceChangeCause'),
    offer: ref('TransferOffer'),
  }),
  TransferPassenger: input(
    {
      first_name: str({ minLength: 1, maxLength: 60 }),
      last_name: str({
        minLength: 1,
        maxLength: 60,
        description: 'Sandbox triggers: PENDING (502 booking_pending), REJECT (400 supplier_rejected).',
      }),
      title: str({ maxLength: 10 }),
      email: email(),
      phone: str({ maxLength: 30 }),
    },
    ['first_name', 'last_name'],
  ),
  TransportContact: input(
    { email: email(), phone: str({ minLength: 5, maxLength: 30 }), name: str({ maxLength: 120 }) },
    ['email', 'phone'],
  ),
  TransportBookRequest: input(
    {
      quote_id: str({ minLength: 1, maxLength: 2000 }),
      provider: ref('TransferSupplier'),
      passengers: arr(ref('TransferPassenger'), {
        minItems: 1,
        maxItems: 50,
        description: 'The first is the lead passenger.',
      }),
      contact: ref('TransportContact'),
      flight_number: str({ maxLength: 10, pattern: '^[A-Z0-9]{2}[0-9]{1,4}[A-Z]?$' }),
      hotel_name: str({ maxLength: 200 }),
      special_requests: str({ maxLength: 500 }),
    },
    ['quote_id', 'provider', 'passengers', 'contact'],
  ),
  TransportBooking: obj({
    booking_id: id64(),
    status: ref('TransportBookingStatus'),
    provider: ref('TransferSupplier'),
    quote_id: str(),
    supplier_booking_ref: nullable(str()),
    confirmation_number: nullable(str()),
    transfer_type: ref('TransferType'),
    vehicle: obj({ category: str(), description: str() }),
    pickup: obj({ location: str(), datetime: str() }),
    dropoff: obj({ location: str() }),
    passengers: arr(ref('TransferPassenger')),
    contact: ref('TransportContact'),
    flight_number: nullable(str()),
    hotel_name: nullable(str()),
    special_requests: nullable(str()),
    total: ref('Money', { description: 'What the booking charges, in the currency it was shown in.' }),
    ...fxFields('`total` (what the provider charges, recorded for reconciliation)'),
    cancellation_fee: nullable(ref('Money', { description: 'Set once cancelled.' })),
    user_id: str(),
    company_id: nullable(int()),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
  TransportBookingPage: keysetPage('TransportBooking', 'A page of transport bookings.'),
  TransportBookingCancellation: cancellation('TransportBookingStatus'),
  AdminTransportBooking: {
    allOf: [ref('TransportBooking'), obj({ audit_trail: arr(ref('AuditEntry')) })],
  },
  PendingTransportBookings: obj({
    pending_confirmation: arr(ref('TransportBooking')),
    on_request: arr(ref('TransportBooking'), {
      description: 'Held by the provider until it confirms (on hold).',
    }),
  }),
};
