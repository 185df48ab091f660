export { DuffelStaysAdapter } from './adapter.ts';
