export { DuffelFlightAdapter } from './adapter.ts';
