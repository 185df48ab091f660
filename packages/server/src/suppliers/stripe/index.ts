export { StripeAdapter, type StripeAdapterConfig } from './adapter.ts';
