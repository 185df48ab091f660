export { duffelHandlers } from './handlers.ts';
