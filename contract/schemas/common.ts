/** Shared enums, money, errors and small building blocks. */

import { CURRENCIES, CURRENCY_TABLE } from '../currencies.ts';
import {
  BOOKING_STATUSES,
  FLIGHT_SUPPLIERS,
  HOTEL_SUPPLIERS,
  PAYMENT_STATES,
  ROLES,
  SERVICE_BOOKING_STATUSES,
  TRANSFER_SUPPLIERS,
} from '../enums.ts';
import {
  arr,
  bool,
  dateTime,
  id64,
  int,
  type Json,
  keysetPage,
  minor,
  nullable,
  num,
  obj,
  objReq,
  ref,
  type Schema,
  str,
  strEnum,
} from '../lib.ts';

export const money = (description?: string): Schema => ref('Money', description ? { description } : {});

/**
 * The FX fields of an offer or booking (contracts.md §6): the supplier's own amount behind the price shown,
 * and the rate that converted it.
 */
export const fxFields = (what: string): Record<string, Schema> => ({
  supplier_price: money(
    `The supplier's own amount behind ${what}, in the supplier's currency (for flights base + taxes, without our markup). When its currency differs from the one shown, ${what} was converted from it at \`fx_rate\`.`,
  ),
  fx_rate: num({
    exclusiveMinimum: 0,
    description: `Units of the shown currency per 1 unit of the supplier's currency (6 significant digits; 1 when nothing was converted). The rate is taken from the platform's rates table when the offer is created and locked with it: re-checks of the offer convert at it, and what is charged is ${what} as shown. A revalidation at today's rate reports any difference as a price change (\`price_change_cause\`).`,
  }),
});

export const schemas: Record<string, Json> = {
  Currency: strEnum(CURRENCIES, {
    description: `ISO 4217 code; one of the 15 currencies the service accepts. Amounts in \`*_minor\` fields are integers in the currency's minor unit (ISO 4217 exponent, \`x-minor-units\`): ${CURRENCIES.map((c) => `${c} ${CURRENCY_TABLE[c].minor_units}`).join(', ')}. Three-decimal currencies (BHD, KWD, OMR) are priced and charged in steps of 10 minor units (\`x-payable-step-minor\`), as the payment provider requires; so KWD 55.000 is \`55000\`.`,
    'x-minor-units': Object.fromEntries(CURRENCIES.map((c) => [c, CURRENCY_TABLE[c].minor_units])),
    'x-payable-step-minor': Object.fromEntries(
      CURRENCIES.map((c) => [c, CURRENCY_TABLE[c].payable_step_minor]),
    ),
  }),
  Money: obj(
    {
      currency: ref('Currency'),
      amount_minor: minor(),
    },
    { description: 'An amount in integer minor units with its currency.' },
  ),
  PriceChangeCause: nullable(
    strEnum(['supplier', 'rate', 'supplier_and_rate'], {
      description:
        "Why the price changed: the supplier's own amount moved (`supplier`), only the exchange rate between the supplier's currency and the one shown did (`rate`; the offer then keeps the new rate), or both. null when the price did not change.",
    }),
  ),
  SortOrder: strEnum(['asc', 'desc']),
  ReportPeriod: strEnum(['today', '7d', '30d', '90d', '365d', 'mtd', 'ytd'], {
    description: 'Reporting window ending now. mtd = month to date, ytd = year to date (UTC).',
  }),
  Role: strEnum(ROLES),
  UserStatus: strEnum(['active', 'pending', 'suspended', 'inactive']),
  CompanyType: strEnum(['travel_agency', 'corporate', 'consolidator', 'sub_agent', 'ota']),
  CompanyStatus: strEnum(['active', 'suspended', 'deleted'], {
    description: 'suspended blocks every operation of the company; deleted is a soft delete.',
  }),
  ClientType: strEnum(['traveler', 'sub_agent', 'corporate']),
  BookingStatus: strEnum(BOOKING_STATUSES, { description: 'Flight booking status.' }),
  HotelBookingStatus: strEnum(SERVICE_BOOKING_STATUSES, {
    description:
      'pending: the supplier has not yet confirmed (reconciliation settles it); on_request: the hotel confirms later; failed: no reservation exists.',
  }),
  TransportBookingStatus: strEnum(SERVICE_BOOKING_STATUSES, {
    description:
      'pending: the supplier has not yet confirmed (reconciliation settles it); on_request: held by the provider until it confirms; failed: no reservation exists.',
  }),
  PaymentState: strEnum(PAYMENT_STATES, {
    description:
      'PENDING (created, not yet authorized) → AUTHORIZED → CAPTURED → SETTLED (funds paid out by the provider). AUTHORIZED → VOIDED (released before capture). CAPTURED/SETTLED → REFUNDED once refunded_minor equals captured_minor (a partial refund keeps CAPTURED/SETTLED). FAILED: the authorization was declined or errored.',
  }),
  FlightSupplier: strEnum(FLIGHT_SUPPLIERS, { description: 'Flight supplier (GDS / NDC / consolidator).' }),
  HotelSupplier: strEnum(HOTEL_SUPPLIERS),
  TransferSupplier: strEnum(TRANSFER_SUPPLIERS),
  CabinClass: strEnum(['Economy', 'Premium', 'Business', 'First']),
  JourneyType: strEnum(['OneWay', 'Return', 'MultiCity']),
  PassengerType: strEnum(['ADT', 'CHD', 'INF'], { description: 'Adult, child (2-11), infant (under 2).' }),
  Gender: strEnum(['M', 'F', 'O']),
  DocumentType: strEnum(['passport', 'id_card', 'visa']),
  MarkupRuleType: strEnum(['fixed', 'percentage', 'per_pax', 'per_segment'], {
    description:
      'fixed: amount per booking; percentage: amount % of the base fare; per_pax: amount per passenger; per_segment: amount per flight segment.',
  }),
  MarkupCabinClass: strEnum(['economy', 'premium_economy', 'business', 'first']),
  EmptyObject: {
    type: 'object',
    additionalProperties: false,
    maxProperties: 0,
    description: 'An empty JSON object `{}`.',
  },
  ErrorResponse: objReq(
    {
      detail: str({ description: 'A human-readable sentence. Do not branch on it.' }),
      code: str({
        pattern: '^[a-z][a-z0-9_]*$',
        description:
          'Stable snake_case code; programs branch on it. Listed per operation in `x-error-codes`.',
      }),
      request_id: str({ description: 'The id of the request, for support and logs.' }),
    },
    ['detail', 'code', 'request_id'],
    {
      description: 'The body of every error except 422.',
      examples: [
        {
          detail: 'The offer has expired; search again.',
          code: 'offer_expired',
          request_id: 'req_01JD3XB7TZ',
        },
      ],
    },
  ),
  PendingBookingError: {
    description:
      'createPnr / hotel book / transport book 502: the supplier neither confirmed nor rejected. The booking exists; reconciliation is queued. Poll the booking_id; do not retry (a retry may create a duplicate reservation). Replays of the same Idempotency-Key return this same body.',
    allOf: [
      ref('ErrorResponse'),
      objReq(
        {
          code: { const: 'booking_pending' },
          booking_id: id64({ description: 'The booking to poll.' }),
          status: strEnum(['pending_pnr', 'pending'], {
            description: 'pending_pnr for flight bookings, pending for hotel and transport bookings.',
          }),
        },
        ['booking_id', 'status'],
      ),
    ],
  },
  PendingCancellationError: {
    description:
      'Hotel / transport cancel 502: the provider may have cancelled but its answer was lost. The cancellation is recorded and a reconciliation job settles it by asking the provider. Poll the booking_id.',
    allOf: [
      ref('ErrorResponse'),
      objReq(
        {
          code: { const: 'cancellation_pending' },
          booking_id: id64({ description: 'The booking to poll.' }),
          status: str({ description: 'The booking status as it stands (not yet cancelled).' }),
        },
        ['booking_id', 'status'],
      ),
    ],
  },
  ValidationIssue: objReq(
    {
      loc: arr(
        { anyOf: [str(), int()] },
        {
          description:
            'Where the problem is: starts with `body`, `query`, `path` or `header`, e.g. ["body","email"].',
        },
      ),
      msg: str(),
      type: str({
        description: 'Machine-readable kind, e.g. missing, string_too_short, idempotency_key_reused.',
      }),
    },
    ['loc', 'msg', 'type'],
  ),
  HTTPValidationError: objReq(
    {
      detail: arr(ref('ValidationIssue')),
      code: str({
        description:
          'Present when one code describes the error, e.g. `idempotency_key_reused` (same key, different body).',
      }),
    },
    ['detail'],
    {
      description: 'The 422 body.',
      examples: [{ detail: [{ loc: ['body', 'email'], msg: 'Field required', type: 'missing' }] }],
    },
  ),
  DeleteResult: obj({
    id: id64(),
    deleted: bool({ const: true }),
  }),
  Address: objReq(
    {
      line1: str({ maxLength: 200 }),
      line2: str({ maxLength: 200 }),
      city: str({ maxLength: 100 }),
      state: str({ maxLength: 100 }),
      postal_code: str({ maxLength: 20 }),
      country: str({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' }),
    },
    [],
    { additionalProperties: false },
  ),
  ComponentHealth: obj({
    status: strEnum(['ok', 'degraded', 'down']),
    latency_ms: nullable(num({ minimum: 0 })),
  }),
  AuditEntry: obj({
    audit_id: id64(),
    event: str({ description: 'e.g. booking.status_overridden, user.impersonated, payment.manual_refund.' }),
    actor_user_id: nullable(str()),
    impersonator_id: nullable(str()),
    company_id: nullable(int()),
    target_type: nullable(str()),
    target_id: nullable(str()),
    details: { type: 'object', additionalProperties: true },
    ip: nullable(str()),
    request_id: nullable(str()),
    created_at: dateTime(),
  }),
  AuditPage: keysetPage('AuditEntry', 'A page of audit entries, newest first.'),
  BookingStatsSummary: obj({
    total: int({ minimum: 0 }),
    by_status: {
      type: 'object',
      additionalProperties: int({ minimum: 0 }),
      description: 'Count of bookings per status (every status present, 0 when none).',
    },
    value_by_currency: arr(ref('Money'), {
      description: 'Total booked value per currency (cancelled excluded).',
    }),
    generated_at: dateTime(),
  }),
};
