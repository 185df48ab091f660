export { StripeAdapter } from './adapter.ts';
