import { invalidRequest } from './errors.ts';

/**
 * Stripe's rule for three-decimal currencies (https://docs.stripe.com/currencies, "Three-decimal
 * currencies"): PaymentIntents, captures and refunds accept them, but "to ensure compatibility with
 * Stripe's payments partners, these API calls require the least-significant (last) digit to be 0. Your
 * integration must round amounts to the nearest ten" (5.124 KWD must be sent as 5120 or 5130).
 */
export const THREE_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** 400 invalid_request_error when a three-decimal `amount` does not end in 0. */
export function checkAmountStep(amount: number, currency: string, param: string): void {
  const c = currency.toLowerCase();
  if (THREE_DECIMAL_CURRENCIES.has(c) && amount % 10 !== 0) {
    throw invalidRequest(
      'invalid_charge_amount',
      `Amounts in ${c.toUpperCase()} (a three-decimal currency) must be a multiple of 10 in the smallest currency unit: the last digit must be 0. ${amount} is not; round it to the nearest ten.`,
      param,
    );
  }
}
