export { HotelbedsTransfersAdapter } from './adapter.ts';
