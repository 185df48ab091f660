export { type DuffelEmulatorOptions, type DuffelState, duffelHandlers, type FaultRule } from './handlers.ts';
export { seatRefused, VOID_WINDOW_MS } from './triggers.ts';
