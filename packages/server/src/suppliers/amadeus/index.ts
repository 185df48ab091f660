export { AmadeusFlightAdapter } from './adapter.ts';
