/**
 * Operations whose handlers' response bodies are not yet checked against the contract at compile time
 * (`ResultOf` in types.ts): they may answer any `HandlerResult`. Shrink-only: remove an operation once its
 * handler returns the contract's types (`pnpm tsc` then checks it); never add one
 * (test/contract-types.test.ts holds the count).
 */
export type UncheckedResponses =
  | 'adminGetLiveReport'
  | 'adminGetSettlementReport'
  | 'adminManualRefund'
  | 'authorizePayment'
  | 'cancelBooking'
  | 'cancelHotelBooking'
  | 'cancelTransportBooking'
  | 'capturePayment'
  | 'createPnr'
  | 'customerCancelHotelBooking'
  | 'customerCancelTransportBooking'
  | 'getBagCatalogue'
  | 'getFlightBatchResults'
  | 'getFlightOffer'
  | 'getHotelBatchResults'
  | 'getHotelSearchResults'
  | 'getTransportBatchResults'
  | 'getTransportSearchResults'
  | 'getUpsellOffers'
  | 'issueAncillaryEmds'
  | 'issueSeats'
  | 'issueTickets'
  | 'performTicketAction'
  | 'purchaseAncillaries'
  | 'refundPayment'
  | 'repriceWithBags'
  | 'revalidateOffer'
  | 'voidPayment';
