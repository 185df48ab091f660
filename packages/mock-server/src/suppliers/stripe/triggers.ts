/**
 * Test tokens and test PaymentMethods, as Stripe's test cards: the token decides the outcome of an
 * authorization. `tok_sandbox_*` are ours (contracts section 4 fixes `tok_sandbox_ok` and
 * `tok_sandbox_decline`); the `pm_card_*` and `tok_*` names are Stripe's own test values.
 * Keep this table and README.md in step.
 */

export interface CardInfo {
  brand: 'visa' | 'mastercard' | 'amex' | 'discover';
  last4: string;
  funding: 'credit' | 'debit';
  country: string;
}

/** What happens when a PaymentIntent is confirmed with the token. */
export type TokenOutcome =
  | { kind: 'authorize' }
  /** 402 card_error; the PaymentIntent is kept in requires_payment_method with last_payment_error. */
  | { kind: 'card_error'; code: string; declineCode: string | undefined; message: string }
  /** 500 api_error before anything is created: safe to retry. */
  | { kind: 'api_error_before' }
  /** The PaymentIntent is authorized, then the answer is lost (ambiguous failure). */
  | { kind: 'after_create'; fault: 'api_error' | 'timeout' | 'connection_reset' }
  /** Authorizes, but only after `ms`: holds the idempotency key in flight (409 conflict tests). */
  | { kind: 'slow'; ms: number };

export interface TokenSpec {
  card: CardInfo;
  outcome: TokenOutcome;
}

const visa: CardInfo = { brand: 'visa', last4: '4242', funding: 'credit', country: 'US' };
const mastercard: CardInfo = { brand: 'mastercard', last4: '4444', funding: 'credit', country: 'US' };
const amex: CardInfo = { brand: 'amex', last4: '8431', funding: 'credit', country: 'US' };
const visaDebit: CardInfo = { brand: 'visa', last4: '5556', funding: 'debit', country: 'US' };
const ok: TokenOutcome = { kind: 'authorize' };

const declined = (
  last4: string,
  code: string,
  declineCode: string | undefined,
  message: string,
): TokenSpec => ({
  card: { brand: 'visa', last4, funding: 'credit', country: 'US' },
  outcome: { kind: 'card_error', code, declineCode, message },
});

const generic = declined('0002', 'card_declined', 'generic_decline', 'Your card was declined.');
const insufficient = declined(
  '9995',
  'card_declined',
  'insufficient_funds',
  'Your card has insufficient funds.',
);
const lost = declined('9987', 'card_declined', 'lost_card', 'Your card was declined.');
const stolen = declined('9979', 'card_declined', 'stolen_card', 'Your card was declined.');
const expired = declined('0069', 'expired_card', 'expired_card', 'Your card has expired.');
const cvc = declined('0127', 'incorrect_cvc', 'incorrect_cvc', "Your card's security code is incorrect.");
const processing = declined(
  '0119',
  'processing_error',
  'processing_error',
  'An error occurred while processing your card. Try again in a little bit.',
);
const fraud = declined('0019', 'card_declined', 'fraudulent', 'Your card was declined.');

export const TOKENS: Readonly<Record<string, TokenSpec>> = {
  // Succeed
  tok_sandbox_ok: { card: visa, outcome: ok },
  tok_visa: { card: visa, outcome: ok },
  tok_mastercard: { card: mastercard, outcome: ok },
  tok_amex: { card: amex, outcome: ok },
  tok_visa_debit: { card: visaDebit, outcome: ok },
  pm_card_visa: { card: visa, outcome: ok },
  pm_card_mastercard: { card: mastercard, outcome: ok },
  pm_card_amex: { card: amex, outcome: ok },
  pm_card_visa_debit: { card: visaDebit, outcome: ok },
  // Declines (402 card_error)
  tok_sandbox_decline: generic,
  tok_chargeDeclined: generic,
  pm_card_chargeDeclined: generic,
  tok_sandbox_insufficient_funds: insufficient,
  tok_chargeDeclinedInsufficientFunds: insufficient,
  pm_card_chargeDeclinedInsufficientFunds: insufficient,
  tok_sandbox_lost_card: lost,
  pm_card_chargeDeclinedLostCard: lost,
  tok_sandbox_stolen_card: stolen,
  pm_card_chargeDeclinedStolenCard: stolen,
  tok_sandbox_expired_card: expired,
  tok_chargeDeclinedExpiredCard: expired,
  pm_card_chargeDeclinedExpiredCard: expired,
  tok_sandbox_incorrect_cvc: cvc,
  pm_card_chargeDeclinedIncorrectCvc: cvc,
  tok_sandbox_card_processing_error: processing,
  pm_card_chargeDeclinedProcessingError: processing,
  tok_sandbox_fraudulent: fraud,
  pm_card_chargeDeclinedFraudulent: fraud,
  // Supplier faults (ours)
  tok_sandbox_processing_error: { card: visa, outcome: { kind: 'api_error_before' } },
  tok_sandbox_error_after_create: {
    card: visa,
    outcome: { kind: 'after_create', fault: 'api_error' },
  },
  tok_sandbox_timeout: { card: visa, outcome: { kind: 'after_create', fault: 'timeout' } },
  tok_sandbox_connection_reset: {
    card: visa,
    outcome: { kind: 'after_create', fault: 'connection_reset' },
  },
  tok_sandbox_slow: { card: visa, outcome: { kind: 'slow', ms: 1000 } },
};

export function lookupToken(token: string): TokenSpec | undefined {
  return Object.hasOwn(TOKENS, token) ? TOKENS[token] : undefined;
}
