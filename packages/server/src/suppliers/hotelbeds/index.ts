export { HotelbedsAdapter } from './adapter.ts';
