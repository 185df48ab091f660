/** Contract-shaped sample data for run-function tests. */
import type {
  Booking,
  FlightOffer,
  HotelBooking,
  HotelOffer,
  TransferBooking,
  TransferOffer,
} from '@travel/sdk';

export function offer(
  id: string,
  total: number,
  supplier: FlightOffer['supplier'] = 'amadeus',
  stops = 0,
): FlightOffer {
  return {
    offer_id: id,
    search_id: 'fs_1',
    supplier,
    slices: [
      {
        origin: 'LHR',
        destination: 'DXB',
        departure_date: '2026-12-20',
        duration_minutes: 415 + stops * 90,
        stops,
        segments: [
          {
            segment_id: 's1',
            marketing_carrier: 'EK',
            operating_carrier: 'EK',
            flight_number: '2',
            origin: 'LHR',
            destination: 'DXB',
            departure_at: '2026-12-20T09:00',
            arrival_at: '2026-12-20T19:55',
            duration_minutes: 415,
            cabin: 'Economy',
            booking_class: 'Y',
            aircraft: '388',
          },
        ],
      },
    ],
    validating_carrier: 'EK',
    cabin: 'Economy',
    fare_brand: null,
    refundable: total > 50_000,
    changeable: true,
    baggage: {} as FlightOffer['baggage'],
    price: {
      currency: 'GBP',
      base_minor: total - 5000,
      taxes_minor: 5000,
      markup_minor: 0,
      total_minor: total,
    },
    supplier_price: { currency: 'GBP', amount_minor: total },
    fx_rate: 1,
    passengers: { adults: 1, children: 0, infants: 0 },
    lcc: false,
    expires_at: '2026-06-01T11:00:00Z',
    booking_requirements: {
      passengers: [
        {
          passenger_type: 'ADT',
          identity_document: false,
          document_types: [],
          date_of_birth: true,
          nationality: false,
          phone: false,
        },
      ],
    },
  };
}

export function booking(status: Booking['status'], overrides: Partial<Booking> = {}): Booking {
  return {
    booking_id: 42,
    pnr: status === 'pending_pnr' ? null : 'X7KQ2M',
    status,
    passengers: [],
    contact: { email: 'ada@example.org', phone: '+447700900123' },
    flights: [],
    pricing: {
      currency: 'GBP',
      base_minor: 40000,
      taxes_minor: 5000,
      markup_minor: 0,
      bags_minor: 0,
      total_minor: 45000,
    },
    payment_mode: 'PNR_FIRST',
    supplier: 'amadeus',
    supplier_order_ref: null,
    offer_id: 'off_1',
    client_ref: null,
    snapshot_id: null,
    search_id: null,
    ticketing_deadline: null,
    assigned_to_user_id: null,
    user_id: 'u1',
    company_id: 1,
    created_at: '2026-06-01T10:00:00Z',
    updated_at: '2026-06-01T10:00:00Z',
    ...overrides,
  } as Booking;
}

export function hotelOffer(rateKey: string, total: number, over: Partial<HotelOffer> = {}): HotelOffer {
  return {
    offer_id: `ho_${rateKey}`,
    search_id: 'hs_1',
    supplier: 'hotelbeds',
    rate_key: rateKey,
    rate_type: 'BOOKABLE',
    hotel: {
      hotel_id: 'h1',
      name: 'Palm View',
      star_rating: 4,
      address: '1 Palm Road',
      city: 'Dubai',
      country: 'AE',
      latitude: 25.1,
      longitude: 55.1,
      distance_km: null,
    },
    room: { room_type: 'DBL', room_name: 'Double', board: 'RO', board_name: 'Room only' },
    check_in: '2026-12-20',
    check_out: '2026-12-23',
    nights: 3,
    rooms: 1,
    adults: 2,
    children: 0,
    price: { currency: 'GBP', base_minor: total - 1000, taxes_minor: 1000, total_minor: total },
    supplier_price: { currency: 'GBP', amount_minor: total },
    fx_rate: 1,
    refundable: true,
    cancellation_policies: [],
    ...over,
  } as HotelOffer;
}

export function transferOffer(quoteId: string, total: number): TransferOffer {
  return {
    offer_id: `to_${quoteId}`,
    search_id: 'ts_1',
    supplier: 'hotelbeds_transfers',
    quote_id: quoteId,
    transfer_type: 'PRIVATE',
    vehicle: { category: 'CAR', description: 'Car Standard', max_passengers: 3, max_luggage: 3 },
    provider_name: 'Hotelbeds',
    pickup: { location: 'DXB', datetime: '2026-12-20T14:30' },
    dropoff: { location: 'Dubai Marina' },
    duration_minutes: 25,
    distance_km: 30,
    price: { currency: 'EUR', total_minor: total },
    supplier_price: { currency: 'EUR', amount_minor: total },
    fx_rate: 1,
    cancellation_policies: [],
    expires_at: '2026-06-01T11:00:00Z',
  } as TransferOffer;
}

/** A confirmed hotel booking as `getHotelBooking` answers it. */
export function hotelBooking(id: number, over: Partial<HotelBooking> = {}): HotelBooking {
  return {
    booking_id: id,
    status: 'confirmed',
    provider: 'hotelbeds',
    supplier_booking_ref: '1-7717778',
    hotel_confirmation: null,
    rate_key: 'rk_cheap',
    hotel: { hotel_id: '1', name: 'City Dubai Inn', address: '10 Kings Road', city: 'Dubai', country: 'AE' },
    room: { room_type: 'DBL.ST', room_name: 'DOUBLE STANDARD', board: 'RO', board_name: 'ROOM ONLY' },
    check_in: '2027-02-02',
    check_out: '2027-02-04',
    nights: 2,
    guests: [{ room: 1, type: 'AD', first_name: 'Ada', last_name: 'Lovelace' }],
    contact_email: 'ada@example.org',
    contact_phone: '+447700900123',
    special_requests: null,
    client_ref: null,
    total: { currency: 'GBP', amount_minor: 30_000 },
    supplier_price: { currency: 'EUR', amount_minor: 35_000 },
    fx_rate: 0.857,
    cancellation_policies: [{ from: '2027-01-30T00:00:00Z', fee: { currency: 'GBP', amount_minor: 15_000 } }],
    cancellation_fee: null,
    user_id: 'u1',
    company_id: 1,
    created_at: '2026-11-24T10:00:00Z',
    updated_at: '2026-11-24T10:00:00Z',
    ...over,
  };
}

/** A confirmed transfer booking as `getTransportBooking` answers it. */
export function transferBooking(id: number, over: Partial<TransferBooking> = {}): TransferBooking {
  return {
    booking_id: id,
    status: 'confirmed',
    provider: 'hotelbeds_transfers',
    quote_id: 'q1',
    supplier_booking_ref: 'TR-1',
    confirmation_number: 'HBT-123',
    transfer_type: 'PRIVATE',
    vehicle: { category: 'sedan', description: 'Standard car' },
    pickup: { location: 'DXB', datetime: '2027-02-02T14:30' },
    dropoff: { location: 'Dubai Marina' },
    passengers: [{ first_name: 'Ada', last_name: 'Lovelace' }],
    contact: { email: 'ada@example.org', phone: '+447700900123' },
    flight_number: null,
    hotel_name: null,
    special_requests: null,
    total: { currency: 'GBP', amount_minor: 6_000 },
    supplier_price: { currency: 'GBP', amount_minor: 6_000 },
    fx_rate: 1,
    cancellation_fee: null,
    user_id: 'u1',
    company_id: 1,
    created_at: '2026-11-24T10:00:00Z',
    updated_at: '2026-11-24T10:00:00Z',
    ...over,
  } as TransferBooking;
}
