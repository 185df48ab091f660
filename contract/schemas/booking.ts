/** Flight bookings, payments, ticketing, seats, baggage and ancillaries. */

import { ANCILLARY_STATUSES } from '../enums.ts';
import {
  arr,
  bool,
  date,
  dateTime,
  email,
  freeObject,
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

const bookingId = () => id64();

export const schemas: Record<string, Json> = {
  // --- booking ----------------------------------------------------------------------------------------
  PaymentMode: strEnum(['PAYMENT_FIRST', 'PNR_FIRST', 'PNR_ONLY'], {
    description:
      'PAYMENT_FIRST: authorize before the PNR is created; PNR_FIRST: create the PNR (held where possible), then pay; PNR_ONLY: create the PNR without payment (agency settles later).',
  }),
  TravelDocument: input(
    {
      type: ref('DocumentType'),
      number: str({ minLength: 1, maxLength: 30 }),
      expiry: date(),
      issuing_country: str({ pattern: '^[A-Z]{2}$' }),
    },
    ['type', 'number', 'expiry', 'issuing_country'],
  ),
  Passenger: input(
    {
      passenger_id: str({
        maxLength: 20,
        description: '1-based traveler index as a string ("1", "2", …) unless you give your own id.',
      }),
      traveler_id: int({
        minimum: 1,
        format: 'int32',
        description:
          'A saved traveler (GET /api/v1/customer/travelers) to book without retyping: your own, or for company staff a saved traveler of one of the company’s clients (a customer whose e-mail is a client’s). Its stored fields fill every field you leave out; fields you send win. Another’s traveler is 404 `traveler_not_found`.',
      }),
      type: ref('PassengerType', {
        description:
          'Defaults from date_of_birth: the age on the first departure day makes an ADT (12+), CHD (2-11) or INF (under 2).',
      }),
      title: strEnum(['MR', 'MRS', 'MS', 'MISS', 'MSTR', 'DR']),
      first_name: str({ minLength: 1, maxLength: 60 }),
      last_name: str({
        minLength: 1,
        maxLength: 60,
        description:
          'Sandbox triggers: PENDING (the supplier neither confirms nor rejects: 502 booking_pending), REJECT (400 supplier_rejected).',
      }),
      gender: ref('Gender'),
      date_of_birth: date(),
      nationality: nullable(str({ pattern: '^[A-Z]{2}$' })),
      email: nullable(email()),
      phone: nullable(str({ maxLength: 30 })),
      document: ref('TravelDocument'),
      doc_type: nullable(
        ref('DocumentType', { description: 'Flat form of document.type (the saved-traveler record).' }),
      ),
      doc_number: nullable(
        str({ minLength: 1, maxLength: 30, description: 'Flat form of document.number.' }),
      ),
      doc_expiry: nullable(date({ description: 'Flat form of document.expiry.' })),
      doc_issuing_country: nullable(
        str({ pattern: '^[A-Z]{2}$', description: 'Flat form of document.issuing_country.' }),
      ),
      is_primary: bool({
        description: 'Accepted (and ignored) so a saved-traveler record is a valid passenger as it is.',
      }),
      nickname: nullable(str({ maxLength: 50, description: 'Accepted and ignored, as is_primary.' })),
    },
    [],
    {
      // The two ways of being complete, as generated clients can type them (issue 33).
      anyOf: [
        {
          title: 'SavedTravelerPassenger',
          type: 'object',
          properties: { traveler_id: { type: 'integer' } },
          required: ['traveler_id'],
        },
        {
          title: 'NamedPassenger',
          type: 'object',
          properties: {
            first_name: str(),
            last_name: str(),
            gender: ref('Gender'),
            date_of_birth: date(),
          },
          required: ['first_name', 'last_name', 'gender', 'date_of_birth'],
        },
      ],
      description:
        'A passenger: either traveler_id (a saved traveler), or at least first_name, last_name, gender and date_of_birth (a missing one is 422 with its loc). The saved-traveler record (first_name, last_name, date_of_birth, gender, nationality, doc_type, doc_number, doc_expiry, doc_issuing_country) is a valid passenger as it is: the flat doc_* fields are the same document as the nested `document` (sending both, they must agree). What else the offer needs is in its `booking_requirements`; a missing required field is 422 `passenger_details_required` naming each one.',
    },
  ),
  BookedPassenger: {
    description: 'A passenger of a booking: as sent, with passenger_id always set.',
    allOf: [ref('Passenger'), objReq({ passenger_id: str() }, ['passenger_id'])],
  },
  OfferError: {
    description:
      'A 400 of an operation on an offer. With `currency_mismatch` it names the offer’s currency in `offer_currency`, so a client can resend in it (or read it first: GET /api/v1/flight/offers/{offer_id}).',
    allOf: [
      ref('ErrorResponse'),
      objReq(
        {
          offer_currency: ref('Currency', {
            description: 'With currency_mismatch: the currency the offer is priced in.',
          }),
        },
        [],
      ),
    ],
  },
  BookingContact: input({ email: email(), phone: str({ minLength: 5, maxLength: 30 }) }, ['email', 'phone']),
  QueuePlacement: input(
    {
      queue_number: str({ maxLength: 10 }),
      category: str({ maxLength: 10 }),
      office_id: str({ maxLength: 20 }),
    },
    ['queue_number'],
    { description: 'Place the PNR on a GDS queue after creation (GDS suppliers only).' },
  ),
  CreateBookingRequest: input(
    {
      offer_id: str({ minLength: 1, maxLength: 128 }),
      currency: ref('Currency'),
      passengers: arr(ref('Passenger'), {
        minItems: 1,
        maxItems: 9,
        description: 'Complete passenger details; the mix must match the offer.',
      }),
      contact: ref('BookingContact'),
      commission_percentage: num({ minimum: 0, maximum: 100 }),
      payment_mode: ref('PaymentMode', { default: 'PNR_FIRST' }),
      client_ref: str({ maxLength: 64, description: 'Your own reference, echoed back.' }),
      snapshot_id: str({ maxLength: 128 }),
      search_id: str({ maxLength: 64 }),
      additional_offer_ids: arr(str({ maxLength: 128 }), { maxItems: 5 }),
      order_remarks: arr(str({ minLength: 1, maxLength: 200 }), { maxItems: 20 }),
      queue_placement: ref('QueuePlacement'),
    },
    ['offer_id', 'currency', 'passengers', 'contact'],
    {
      examples: [
        {
          offer_id: 'off_01JD3XA0QW',
          currency: 'GBP',
          passengers: [
            {
              passenger_id: '1',
              type: 'ADT',
              title: 'MS',
              first_name: 'Ada',
              last_name: 'Lovelace',
              gender: 'F',
              date_of_birth: '1990-12-10',
              document: {
                type: 'passport',
                number: '533401234',
                expiry: '2031-05-01',
                issuing_country: 'GB',
              },
            },
          ],
          contact: { email: 'ada@example.org', phone: '+447700900123' },
          payment_mode: 'PNR_FIRST',
          client_ref: 'ACME-2026-0042',
        },
      ],
    },
  ),
  BookingPricing: obj({
    currency: ref('Currency'),
    base_minor: minor(),
    taxes_minor: minor(),
    markup_minor: minor(),
    bags_minor: minor(),
    total_minor: minor('base + taxes + markup + bags.'),
  }),
  FlightBooking: obj({
    booking_id: bookingId(),
    pnr: nullable(
      str({ pattern: '^[A-Z0-9]{6}$', description: 'Null until the supplier confirms the PNR.' }),
    ),
    status: ref('BookingStatus'),
    passengers: arr(ref('BookedPassenger')),
    contact: ref('BookingContact'),
    flights: arr(ref('FlightSegment'), { description: 'Every segment of the booking in flight order.' }),
    pricing: ref('BookingPricing', {
      description:
        'What the booking charges, in the currency it was booked in (the offer as shown): exactly what authorize must be called with.',
    }),
    ...fxFields('`pricing` (before markup; the supplier order total once the supplier confirms)'),
    payment_mode: ref('PaymentMode'),
    supplier: ref('FlightSupplier'),
    supplier_order_ref: nullable(str()),
    offer_id: str(),
    client_ref: nullable(str()),
    snapshot_id: nullable(str()),
    search_id: nullable(str()),
    ticketing_deadline: nullable(dateTime()),
    assigned_to_user_id: nullable(str()),
    user_id: str(),
    company_id: nullable(int()),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
  FlightBookingPage: keysetPage('FlightBooking', 'A page of flight bookings.'),
  AdminFlightBooking: {
    allOf: [
      ref('FlightBooking'),
      obj({
        payments: arr(ref('Payment')),
        tickets: arr(ref('TicketDocument')),
        ancillaries: arr(ref('Ancillary')),
        audit_trail: arr(ref('AuditEntry')),
      }),
    ],
  },
  BookingTimeline: objReq(
    {
      booking_id: int({ minimum: 1, format: 'int64' }),
      pnr: nullable(str()),
      entries: arr(ref('BookingTimelineEntry'), {
        description:
          'Oldest first: state changes (the audit trail), supplier and payment provider calls, money movements.',
      }),
      truncated: bool({
        description: 'True when older supplier calls were left out (at most 500 are kept in view).',
      }),
    },
    ['booking_id', 'pnr', 'entries', 'truncated'],
  ),
  BookingTimelineEntry: objReq(
    {
      at: dateTime(),
      kind: strEnum(['state', 'supplier_call', 'money']),
      summary: str({ description: 'One line for a human, e.g. "amadeus createOrder ok (200, 84 ms)".' }),
      state: nullable(
        objReq(
          {
            event: str({ description: 'e.g. booking.created, booking.ticketed, booking.ticket_void.' }),
            actor_user_id: nullable(str()),
            reason: nullable(str()),
            changes: { type: 'object', additionalProperties: true },
          },
          ['event', 'actor_user_id', 'reason', 'changes'],
        ),
      ),
      supplier_call: nullable(
        objReq(
          {
            supplier: str({ description: 'amadeus, duffel, mystifly, stripe, …' }),
            operation: str({
              description: 'The port operation: createOrder, authorize, capture, voidTickets, …',
            }),
            outcome: str({
              description:
                'ok, or the failure kind (rejected, declined, unavailable, timeout, unknown_outcome, …).',
            }),
            http_status: nullable(int()),
            attempts: int({ minimum: 1 }),
            duration_ms: int({ minimum: 0 }),
            request_id: nullable(str()),
            job_id: nullable(str()),
            trace_id: nullable(str()),
            request_excerpt: nullable(
              str({ description: 'What was sent, as redacted JSON cut at 1,500 characters.' }),
            ),
            response_excerpt: nullable(
              str({ description: 'What came back (or the failure), redacted and cut alike.' }),
            ),
          },
          [
            'supplier',
            'operation',
            'outcome',
            'http_status',
            'attempts',
            'duration_ms',
            'request_id',
            'job_id',
            'trace_id',
            'request_excerpt',
            'response_excerpt',
          ],
        ),
      ),
      money: nullable(
        objReq(
          {
            type: strEnum(['authorization', 'capture', 'void', 'refund']),
            status: strEnum(['succeeded', 'failed', 'pending']),
            amount_minor: minor(),
            currency: str({ pattern: '^[A-Z]{3}$' }),
            provider_ref: nullable(str()),
            failure_code: nullable(str()),
          },
          ['type', 'status', 'amount_minor', 'currency', 'provider_ref', 'failure_code'],
        ),
      ),
    },
    ['at', 'kind', 'summary', 'state', 'supplier_call', 'money'],
  ),
  PendingFlightBookings: obj({
    payment_pending: arr(ref('FlightBooking')),
    ticketing_pending: arr(ref('FlightBooking')),
    on_hold_expiring: arr(ref('FlightBooking'), {
      description: 'On hold with a ticketing deadline within 24 hours.',
    }),
  }),
  BookingCancellation: obj({
    booking_id: bookingId(),
    status: ref('BookingStatus'),
    cancelled: bool(),
    refund: nullable(ref('Money', { description: 'Refund amount where applicable.' })),
    cancellation_fee: nullable(ref('Money')),
  }),
  SupplierOrderStatus: strEnum(['confirmed', 'on_hold', 'pending', 'rejected', 'cancelled', 'ticketed']),
  SupplierOrder: obj({
    booking_id: bookingId(),
    supplier: ref('FlightSupplier'),
    order_ref: str(),
    pnr: str(),
    status: ref('SupplierOrderStatus'),
    ticketing_deadline: nullable(dateTime()),
    total: ref('Money'),
    raw: freeObject('The supplier’s raw order (shape owned by the supplier).'),
  }),
  FoidRequest: input(
    {
      number: str({ minLength: 1, maxLength: 30 }),
      identification_type: strEnum(['passport', 'id_card', 'credit_card', 'frequent_flyer'], {
        default: 'passport',
      }),
      carrier_code: str({ pattern: '^[A-Z0-9]{2}$' }),
      traveler_ids: arr(str({ maxLength: 20 }), { maxItems: 9 }),
      flight_offer_ids: arr(str({ maxLength: 128 }), { maxItems: 9 }),
    },
    ['number'],
  ),
  CommissionRequest: input(
    {
      amount: str({
        pattern: '^[0-9]+(\\.[0-9]{1,2})?$',
        description: 'Decimal amount. Supply amount or percentage.',
      }),
      percentage: num({ minimum: 0, maximum: 100, description: 'Supply amount or percentage.' }),
      commission_type: str({ maxLength: 30 }),
      vat: bool({ default: false }),
      traveler_ids: arr(str({ maxLength: 20 }), { maxItems: 9 }),
      segment_ids: arr(str({ maxLength: 20 }), { maxItems: 16 }),
    },
    [],
    { minProperties: 1 },
  ),
  BookingUpdateResult: obj({
    booking_id: bookingId(),
    success: bool(),
    message: str(),
  }),
  NotesRequest: input(
    {
      notes: arr(str({ maxLength: 500 }), {
        minItems: 1,
        maxItems: 20,
        description: 'Empty and whitespace-only notes are dropped; if none remain the answer is 400.',
      }),
    },
    ['notes'],
  ),
  NotesResult: obj({
    booking_id: bookingId(),
    success: bool({ description: 'False when the provider did not attach the notes (best-effort).' }),
    notes_added: int({ minimum: 0 }),
    reason: nullable(str()),
  }),
  // --- payments ---------------------------------------------------------------------------------------
  AuthorizeRequest: input(
    {
      token: str({
        minLength: 1,
        maxLength: 255,
        description:
          'Payment token from the payment service provider. Sandbox: tok_sandbox_ok succeeds, tok_sandbox_decline is declined.',
        examples: ['tok_sandbox_ok'],
      }),
      currency: ref('Currency'),
      amount_minor: int({ minimum: 1 }),
    },
    ['token', 'currency', 'amount_minor'],
  ),
  PaymentTransactionType: strEnum(['authorization', 'capture', 'void', 'refund']),
  PaymentTransaction: obj({
    transaction_id: id64(),
    payment_id: id64(),
    type: ref('PaymentTransactionType'),
    status: strEnum(['succeeded', 'failed', 'pending']),
    amount_minor: minor(),
    currency: ref('Currency'),
    provider_ref: nullable(str()),
    failure_code: nullable(str({ description: 'e.g. the decline code on a failed authorization.' })),
    reason: nullable(str()),
    created_at: dateTime(),
  }),
  Payment: obj({
    payment_id: id64(),
    booking_id: bookingId(),
    state: ref('PaymentState'),
    amount_minor: minor('Authorized amount.'),
    captured_minor: minor(),
    refunded_minor: minor(),
    currency: ref('Currency'),
    provider: strEnum(['stripe']),
    provider_payment_ref: nullable(str()),
    transactions: arr(ref('PaymentTransaction'), { description: 'Oldest first.' }),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
  PaymentPage: keysetPage('Payment', 'A page of payments.'),
  PaymentHistory: obj({
    booking_id: bookingId(),
    payments: arr(ref('Payment')),
    transactions: arr(ref('PaymentTransaction'), {
      description: 'Every transaction of every payment, oldest first.',
    }),
  }),
  PaymentReceipt: obj({
    receipt_number: str(),
    payment_id: id64(),
    booking_id: bookingId(),
    pnr: nullable(str()),
    state: ref('PaymentState'),
    amount_minor: minor(),
    captured_minor: minor(),
    refunded_minor: minor(),
    currency: ref('Currency'),
    line_items: arr(obj({ description: str(), amount_minor: minor() })),
    customer: obj({ full_name: str(), email: str() }),
    issued_at: dateTime(),
  }),
  ManualRefundRequest: input(
    {
      amount_minor: int({ minimum: 1 }),
      currency: ref('Currency'),
      reason: str({ minLength: 1, maxLength: 500 }),
      notify_customer: bool({ default: false }),
    },
    ['amount_minor', 'currency', 'reason'],
  ),
  // --- ticketing --------------------------------------------------------------------------------------
  TicketRequest: input(
    { capture: bool({ default: true, description: 'Capture the authorized payment as part of ticketing.' }) },
    [],
  ),
  CouponStatus: strEnum(['OPEN', 'USED', 'EXCHANGED', 'REFUNDED', 'VOID']),
  TicketCoupon: obj({
    coupon_number: int({ minimum: 1 }),
    segment_id: str(),
    origin: str(),
    destination: str(),
    flight: str(),
    status: ref('CouponStatus'),
  }),
  TicketDocument: obj(
    {
      ticket_number: str(),
      passenger_id: str(),
      passenger_name: str(),
      issuing_iata_number: str({ description: 'Empty string for low-cost content.' }),
      fare_calculation: str({ description: 'Empty string for low-cost content.' }),
      endorsements: str(),
      form_of_payment: str(),
      issued_at: dateTime(),
      allow_void: bool(),
      allow_refund: bool(),
      allow_reissue: bool(),
      coupons: arr(ref('TicketCoupon'), { description: 'One coupon per flight.' }),
    },
    { description: 'An e-ticket (mirrors `TicketDocument` in the supplier ports).' },
  ),
  PendingPayment: {
    allOf: [
      ref('Payment'),
      obj({
        outcome: strEnum(['pending'], { description: 'The provider has not confirmed the outcome yet.' }),
        message: str({ description: 'What happened and what to do, in plain words.' }),
      }),
    ],
    description:
      'A payment whose last movement is awaiting the provider’s confirmation (a `pending` transaction; an authorization shows state PENDING).',
  },
  PendingServiceChange: obj({
    booking_id: bookingId(),
    operation: strEnum(['seats_issue', 'ancillary_purchase', 'emd'], {
      description: 'Which paid service change is awaiting the supplier.',
    }),
    outcome: strEnum(['pending'], { description: 'The supplier has not confirmed the outcome yet.' }),
    message: str({ description: 'What happened and what to do, in plain words.' }),
  }),
  PendingTicketIssue: {
    allOf: [
      ref('TicketIssueResult'),
      obj({
        outcome: strEnum(['pending'], { description: 'The supplier has not confirmed the outcome yet.' }),
        message: str({ description: 'What happened and what to do, in plain words.' }),
      }),
    ],
    description:
      'Ticketing (or its capture) whose outcome is unknown: issued=false, raw_status "pending"; reconciliation reads the supplier and the booking becomes ticketed once tickets are found.',
  },
  TicketIssueResult: obj({
    booking_id: bookingId(),
    status: ref('BookingStatus'),
    issued: bool({
      description: 'False when issuance is asynchronous and still in process: poll ticket/status.',
    }),
    raw_status: str(),
    tickets: arr(ref('TicketDocument')),
    payment: nullable(ref('Payment')),
  }),
  TicketStatus: obj({
    booking_id: bookingId(),
    issued: bool(),
    raw_status: str({ description: 'The provider’s raw status code, e.g. "1" (Placed) or "6" (Ticketed).' }),
    raw_status_text: str(),
  }),
  TicketDocumentResponse: obj({
    booking_id: bookingId(),
    pnr: nullable(str()),
    tickets: arr(ref('TicketDocument')),
  }),
  TicketAction: strEnum(['void', 'refund', 'reissue']),
  TicketActionResult: objReq(
    {
      booking_id: bookingId(),
      action: ref('TicketAction'),
      confirmed: bool({ description: 'True when the real request was raised (confirm=true).' }),
      permitted: bool(),
      determination: str({
        description:
          "Machine-readable determination: ok, quoted, request_raised, void_window_expired, non_refundable, reissue_quote_only, refund_quote_unavailable (the supplier gave no refund amount in the order's currency: not a void; a confirmed refund is settled by an operator), …",
      }),
      message: str(),
      refund: ref('Money', {
        description:
          "What the customer gets back, in the booking's currency: the booking's total times the supplier's refund over its total (markup and conversion included), rounded down to a payable amount. A confirmed action gives back this much of a payment of the booking's total (see `payment`).",
      }),
      fee: ref('Money', {
        description:
          "What the change costs the customer, in the booking's currency: the rest of the booking's total (refund + fee = the total when the supplier quoted both).",
      }),
      supplier_refund: ref('Money', {
        description: "The supplier's refund as it quoted it, in its own currency.",
      }),
      supplier_fee: ref('Money', { description: "The supplier's fee as it quoted it, in its own currency." }),
      fx_rate: num({
        exclusiveMinimum: 0,
        description:
          "Units of the booking's currency per 1 unit of the supplier's: the booking's own rate (1 when nothing was converted). Present with a quote.",
      }),
      servicing_request_id: str(),
      coupon_status: ref('CouponStatus'),
      booking_status: ref('BookingStatus'),
      payment: nullable({
        $ref: '#/components/schemas/TicketPaymentSettlement',
        description:
          "A confirmed void or refund gives the money back in the same operation: what the booking's payment did. null on quotes, refusals and while the supplier's own answer is pending; `awaiting_supplier` while a consolidator works the request (the money moves when it completes).",
      }),
    },
    ['booking_id', 'action', 'confirmed', 'permitted', 'determination', 'message', 'booking_status'],
  ),
  TicketPaymentSettlement: objReq(
    {
      action: strEnum(['void', 'refund', 'partial_capture', 'none'], {
        description:
          'void: the card authorization was released; refund: captured money returned; partial_capture: only the fee the supplier keeps was captured and the rest of the authorization released; none: nothing to give back.',
      }),
      amount_minor: minor('Money returned to the customer, in the payment currency.'),
      currency: ref('Currency'),
      status: strEnum(
        ['succeeded', 'pending', 'awaiting_supplier', 'failed', 'manual_review', 'not_required'],
        {
          description:
            "succeeded; pending: the payment provider's answer was lost, it is being settled (see payment/history); awaiting_supplier: the consolidator has not completed the request yet; failed: the provider refused (an operator acts, see the audit log); manual_review: a refund confirmed without the supplier's quote, nothing moved, an operator decides the amount; not_required: no live payment, or nothing to give back.",
        },
      ),
    },
    ['action', 'amount_minor', 'currency', 'status'],
  ),
  ServicingState: strEnum(['Requested', 'InProcess', 'Completed', 'Deleted', 'Rejected', 'QuoteChanged']),
  ServicingRequest: objReq(
    {
      request_id: str(),
      type: ref('TicketAction'),
      state: ref('ServicingState'),
      created_at: dateTime(),
      updated_at: dateTime(),
      quote: ref('Money'),
    },
    ['request_id', 'type', 'state', 'created_at', 'updated_at'],
  ),
  ServicingList: obj({
    booking_id: bookingId(),
    items: arr(ref('ServicingRequest'), { description: 'Empty when no request was ever raised.' }),
    message: nullable(str({ description: 'The provider’s message, e.g. "No records found."' })),
  }),
  // --- seats --------------------------------------------------------------------------------------------
  SeatMapSeat: objReq(
    {
      seat_number: str(),
      available: bool(),
      chargeable: bool(),
      price: ref('Money'),
      characteristics: arr(str(), { description: 'e.g. WINDOW, AISLE, EXIT_ROW, EXTRA_LEGROOM.' }),
    },
    ['seat_number', 'available', 'chargeable', 'characteristics'],
  ),
  SeatMap: obj({
    segment_id: str(),
    cabin: ref('CabinClass'),
    rows: arr(obj({ row: int({ minimum: 1 }), seats: arr(ref('SeatMapSeat')) })),
  }),
  SeatMapResponse: obj({
    booking_id: bookingId(),
    seat_maps: arr(ref('SeatMap'), { description: 'One per segment.' }),
  }),
  SeatRequest: input(
    {
      segment_id: str({ minLength: 1, maxLength: 20 }),
      seat_number: str({ pattern: '^[0-9]{1,3}[A-K]$', description: 'Row and letter, e.g. 14C.' }),
      passenger_id: str({ minLength: 1, maxLength: 20 }),
    },
    ['segment_id', 'seat_number', 'passenger_id'],
  ),
  SeatRequestResult: objReq(
    {
      segment_id: str(),
      seat_number: str(),
      passenger_id: str(),
      accepted: bool(),
      status: strEnum(['pending', 'confirmed', 'refused'], {
        description:
          'pending until a chargeable seat is priced and issued (seats/issue); confirmed for free seats.',
      }),
      reason: str(),
      price: ref('Money'),
    },
    ['segment_id', 'seat_number', 'passenger_id', 'accepted', 'status'],
  ),
  SeatSelectionResult: {
    allOf: [ref('SeatRequestResult'), obj({ booking_id: bookingId() })],
  },
  SeatBatchRequest: input({ seats: arr(ref('SeatRequest'), { minItems: 1, maxItems: 90 }) }, ['seats']),
  SeatBatchResult: obj({
    booking_id: bookingId(),
    requested: int({ minimum: 0 }),
    stored: int({ minimum: 0, description: 'Seats the carrier accepted; partial success is normal.' }),
    results: arr(ref('SeatRequestResult')),
  }),
  IssuedEmd: obj({ tsm_reference: str(), emd_number: str() }),
  SeatIssueResult: obj({
    booking_id: bookingId(),
    priced: arr(ref('SeatRequestResult')),
    emds: arr(ref('IssuedEmd'), { description: 'Empty when issue_emd_documents=false.' }),
    documents_issued: bool(),
  }),
  // --- baggage and ancillaries -----------------------------------------------------------------------
  BaggageInfo: obj({
    booking_id: bookingId(),
    allowances: arr(
      obj({
        passenger_id: str(),
        segment_id: str(),
        cabin_bags: int({ minimum: 0 }),
        checked_bags: int({ minimum: 0 }),
        checked_bag_weight_kg: nullable(num({ minimum: 0 })),
      }),
    ),
    purchased_bags: arr(ref('PurchasedBag'), {
      description:
        'Chargeable bags on the booking: those booked with the PNR (bought_with booking) first, then those bought as ancillaries.',
    }),
    bag_options: arr(ref('BagOption'), { description: 'Bags that can still be bought.' }),
  }),
  PurchasedBag: obj({
    bought_with: strEnum(['booking', 'ancillary'], {
      description:
        'booking: chosen on a bag re-price (POST /api/v1/bookings/bags/reprice) and booked with the PNR, its price part of the booking’s pricing.bags_minor; ancillary: bought after booking through ancillaries/purchase.',
    }),
    ancillary_id: nullable(
      int({ format: 'int64', description: 'The ancillary; null for a bag booked with the PNR.' }),
    ),
    bag_option_id: nullable(
      str({ description: 'The bag option booked with the PNR; null for an ancillary.' }),
    ),
    code: str(),
    rfic: str(),
    rfisc: str(),
    booking_method: str({ description: '`bag_offer` for a bag booked with the PNR.' }),
    provider: str(),
    tsm_reference: nullable(str({ description: 'Ancillaries only.' })),
    emd_number: nullable(str({ description: 'Ancillaries only, once issued.' })),
    status: ref('PurchasedBagStatus'),
    quantity: int({ minimum: 1 }),
    passenger_ids: arr(str()),
    segment_ids: arr(str()),
    price: ref('Money', { description: 'For the whole quantity.' }),
    created_at: dateTime(),
  }),
  PurchasedBagStatus: strEnum(['pending', 'held', 'issued', 'voided', 'removed', 'refunded', 'failed'], {
    description:
      'An ancillary’s AncillaryStatus. A bag booked with the PNR: held (on the supplier order, not yet ticketed); pending (not on the order yet: the supplier sells no services on an unpaid hold, e.g. Duffel; added right after the hold is paid, at ticketing); issued (on the paid, ticketed order); failed (the supplier would not add it once paid; the reason is in the booking’s audit trail).',
  }),
  SsrResult: objReq(
    {
      booking_id: bookingId(),
      ssr_id: str(),
      status: str({ description: 'The carrier’s status of the request, e.g. requested, confirmed.' }),
      code: str(),
      free_text: str(),
      segment_id: nullable(str()),
      passenger_id: nullable(str()),
    },
    ['booking_id', 'ssr_id', 'status', 'code', 'free_text', 'segment_id', 'passenger_id'],
  ),
  ServiceGroup: strEnum(['BG', 'ST', 'ML', 'OT'], { description: 'BG baggage, ST seat, ML meal, OT other.' }),
  AncillaryItem: obj({
    code: str(),
    rfic: str(),
    rfisc: str(),
    description: str(),
    service_group: ref('ServiceGroup'),
    booking_method: str(),
    provider: str(),
    segment_ids: arr(str()),
    price: ref('Money'),
  }),
  AncillaryCatalogue: obj({
    booking_id: bookingId(),
    service_group: strEnum(['', 'BG', 'ST', 'ML']),
    items: arr(ref('AncillaryItem')),
  }),
  AncillaryPurchaseProduct: input(
    {
      customer_ref_ids: arr(str({ maxLength: 20 }), {
        minItems: 1,
        maxItems: 9,
        description: 'Passenger ids.',
      }),
      code: str({ minLength: 1, maxLength: 10 }),
      rfic: str({ minLength: 1, maxLength: 1 }),
      rfisc: str({ minLength: 1, maxLength: 5 }),
      booking_method: str({ minLength: 1, maxLength: 20 }),
      provider: str({ minLength: 1, maxLength: 50 }),
      segment_ref_ids: str({
        minLength: 1,
        maxLength: 200,
        description: 'Space-separated segment ids, e.g. "s1 s2".',
      }),
    },
    ['customer_ref_ids', 'code', 'rfic', 'rfisc', 'booking_method', 'provider', 'segment_ref_ids'],
  ),
  AncillaryPurchaseRequest: input(
    { products: arr(ref('AncillaryPurchaseProduct'), { minItems: 1, maxItems: 50 }) },
    ['products'],
  ),
  AncillaryStatus: strEnum(ANCILLARY_STATUSES, {
    description:
      'held: TSM created by purchase; issued: EMD issued; voided: issued EMD voided by cancel; removed: unissued service removed by cancel.',
  }),
  Ancillary: obj({
    ancillary_id: id64(),
    code: str(),
    rfic: str(),
    rfisc: str(),
    booking_method: str(),
    provider: str(),
    tsm_reference: str(),
    emd_number: nullable(str()),
    status: ref('AncillaryStatus'),
    passenger_ids: arr(str()),
    segment_ids: arr(str()),
    price: ref('Money'),
    created_at: dateTime(),
  }),
  AncillaryPurchaseResult: obj({
    booking_id: bookingId(),
    tsm_references: arr(str(), { description: 'One TSM per purchased service; pass to ancillaries/emd.' }),
    ancillaries: arr(ref('Ancillary')),
  }),
  EmdIssueRequest: input(
    {
      tsm_references: arr(str({ minLength: 1, maxLength: 30 }), {
        minItems: 1,
        maxItems: 50,
        description: 'Omitted: every TSM on the booking not yet issued.',
      }),
    },
    [],
  ),
  EmdIssueResult: obj({
    booking_id: bookingId(),
    emds: arr(ref('IssuedEmd'), { description: 'EMD numbers as read back after issuance.' }),
    ancillaries: arr(ref('Ancillary')),
  }),
  AncillaryCancelRequest: input(
    {
      ancillary_ids: arr(int({ minimum: 1, format: 'int64' }), {
        minItems: 1,
        maxItems: 50,
        description: 'Omitted: every ancillary not already cancelled or refunded.',
      }),
    },
    [],
  ),
  AncillaryCancelResult: obj({
    booking_id: bookingId(),
    results: arr(
      objReq(
        {
          ancillary_id: id64(),
          outcome: strEnum(['voided', 'removed', 'skipped', 'failed'], {
            description: 'voided: the issued EMD was voided; removed: the unissued service was removed.',
          }),
          reason: nullable(str()),
        },
        ['ancillary_id', 'outcome', 'reason'],
      ),
    ),
  }),
};
