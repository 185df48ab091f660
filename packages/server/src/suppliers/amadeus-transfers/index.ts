export { AmadeusTransfersAdapter } from './adapter.ts';
