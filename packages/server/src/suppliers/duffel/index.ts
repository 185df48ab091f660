export { DuffelFlightAdapter } from './adapter.ts';
export type { DuffelClientConfig } from './client.ts';
