/**
 * @travel/sdk: the typed client of the travel service. Everything public is exported by name here;
 * types with `export type`.
 */

export type { components, operations, paths } from '@travel/contract';
export type { TravelClient, TravelClientOptions } from './client.ts';
export { createTravelClient } from './client.ts';
export type { ApiErrorInit, ErrorCode, ErrorSource, ValidationIssue } from './core/errors.ts';
export {
  AuthenticationError,
  BookingPendingError,
  ConflictError,
  ConnectionError,
  createApiError,
  NotFoundError,
  NotSupportedError,
  OfferExpiredError,
  PaymentDeclinedError,
  PermissionError,
  PriceChangedError,
  RateLimitError,
  ServerError,
  SessionEndedError,
  SupplierError,
  TravelApiError,
  ValidationError,
} from './core/errors.ts';
export type { IdempotentCallOptions } from './core/idempotency.ts';
export {
  IDEMPOTENCY_HEADER,
  REQUIRED_IDEMPOTENCY_OPERATIONS,
  resolveIdempotencyKey,
} from './core/idempotency.ts';
export type { Logger, LogRecord } from './core/logging.ts';
export { isSensitiveField, REDACTED, redact, redactUrl } from './core/logging.ts';
export type { Page, PageIterator } from './core/pagination.ts';
export { paginate } from './core/pagination.ts';
export type { PendingOutcome, PendingPollOptions, PendingResult, SettleRules } from './core/pending.ts';
export { FLIGHT_BOOKING_RULES, pollUntilSettled, settleOutcome } from './core/pending.ts';
export type { RequestOptions } from './core/request.ts';
export type { ApiResult, FetchResult } from './core/result.ts';
export { toApiError, unwrap, unwrapWithMeta } from './core/result.ts';
export type { RetryContext, RetryOptions, Sleep } from './core/retry.ts';
export { backoffDelay, DEFAULT_RETRY, isRetryable } from './core/retry.ts';
export type { OnTokens, SessionTokens, TravelAuth } from './core/session.ts';
export type { SseEvent, StreamOptions } from './core/stream.ts';
export { streamEvents } from './core/stream.ts';
export type { FetchLike, ResponseMeta, TokenSource } from './core/transport.ts';
export { responseMeta } from './core/transport.ts';
export type { Currency } from './money.ts';
export { CURRENCIES, formatMoney, isCurrency, minorUnits } from './money.ts';
export type { BookingCallOptions, BookingResult } from './resources/booking-outcome.ts';
export type { Booking, BookingRef, CreateBookingRequest, ScheduleChange } from './resources/bookings.ts';
export type {
  FlightBatch,
  FlightGdsStreamEvent,
  FlightOffer,
  FlightSearch,
  FlightSearchRequest,
  FlightSearchStarted,
  FlightStreamEvent,
} from './resources/flights.ts';
export type {
  HotelBooking,
  HotelOffer,
  HotelProviderStreamEvent,
  HotelSearch,
  HotelStreamEvent,
} from './resources/hotels.ts';
export { HOTEL_BOOKING_RULES } from './resources/hotels.ts';
export type { BatchResult } from './resources/search-handle.ts';
export type { TicketAction } from './resources/tickets.ts';
export type {
  TransferBooking,
  TransferOffer,
  TransferSearch,
  TransportProviderStreamEvent,
  TransportStreamEvent,
} from './resources/transfers.ts';
export { TRANSFER_BOOKING_RULES } from './resources/transfers.ts';
export type { BodyOf, QueryOf, ResponseOf } from './resources/types.ts';
export { VERSION } from './version.ts';
export type { ConstructEventOptions, TravelEvent } from './webhooks.ts';
export { WebhookSignatureError, webhooks } from './webhooks.ts';
