export { AmadeusTransfersAdapter, type AmadeusTransfersConfig } from './adapter.ts';
