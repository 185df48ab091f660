export { MystiflyAdapter } from './adapter.ts';
