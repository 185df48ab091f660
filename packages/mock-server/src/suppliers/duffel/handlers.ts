import type { HttpHandler } from 'msw';
import type { EmulatorOptions } from '../../shared/options.ts';
import { airRoutes } from './air-handlers.ts';
import { makeRouter } from './http.ts';
import { orderRoutes } from './order-handlers.ts';
import { scheduleChangeRoutes } from './schedule-changes.ts';
import { servicingRoutes } from './servicing-handlers.ts';
import { createDuffelState, type DuffelState } from './state.ts';
import { staysRoutes } from './stays-handlers.ts';

export type DuffelEmulatorOptions = EmulatorOptions & {
  /** Where the emulator answers, e.g. `https://api.duffel.com` or `http://localhost:4010/duffel`. */
  baseUrl: string;
  /** The account's currency: every offer and rate is priced in it (Duffel prices in the seller's currency). */
  currency?: string;
  /** How long the TIMEOUT trigger and `hang` faults keep the caller waiting (default 30 s). */
  hangMs?: number;
};

/**
 * The Duffel emulator (flights + Stays) as MSW handlers. State lives in the returned `state`, one per
 * call, so parallel tests do not share orders; `state` also carries the knobs (faults, price drift).
 */
export function duffelHandlers(options: DuffelEmulatorOptions): {
  handlers: HttpHandler[];
  state: DuffelState;
} {
  const state = createDuffelState(options);
  const router = makeRouter(state, options, options.baseUrl);
  const handlers = [
    ...airRoutes(state, router),
    ...orderRoutes(state, router),
    ...servicingRoutes(state, router),
    ...scheduleChangeRoutes(state, router),
    ...staysRoutes(state, router),
  ];
  return { handlers, state };
}

export type { DuffelState } from './state.ts';
