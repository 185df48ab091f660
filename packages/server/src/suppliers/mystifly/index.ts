export { MystiflyAdapter, type MystiflyAdapterConfig } from './adapter.ts';
