/** Stripe PaymentIntents emulator (see README.md for the test tokens). */
export { type StripeEmulatorOptions, stripeHandlers, stripeNotFound } from './handlers.ts';
export type { StripeState } from './state.ts';
export { TOKENS as STRIPE_TEST_TOKENS } from './triggers.ts';
