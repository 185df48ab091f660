export { clientRef, HotelbedsAdapter } from './adapter.ts';
export type { HotelbedsConfig } from './client.ts';
