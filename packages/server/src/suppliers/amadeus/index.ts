export { type AmadeusAdapterConfig, AmadeusFlightAdapter } from './adapter.ts';
