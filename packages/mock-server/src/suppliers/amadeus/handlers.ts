import type { HttpHandler } from 'msw';
import type { EmulatorOptions } from '../../shared/options.ts';
import { makeRouter } from './kit.ts';
import { authRoutes, type Credentials } from './routes-auth.ts';
import { extensionRoutes } from './routes-ext.ts';
import { orderRoutes } from './routes-orders.ts';
import { shoppingRoutes } from './routes-shopping.ts';
import { transferRoutes } from './routes-transfers.ts';
import { type AmadeusState, createAmadeusState } from './state.ts';

/**
 * The Amadeus for Developers emulator: MSW handlers for the published self-service operations (auth,
 * flight offers, pricing, upselling, seat maps, flight orders, transfers) plus our documented extensions.
 * State (tokens, orders, tickets, EMDs, transfer orders) lives in the returned `state`, one per call.
 */
export interface AmadeusEmulatorOptions extends EmulatorOptions {
  baseUrl: string;
  /** When given, only these client credentials get a token; otherwise any non-empty pair does. */
  credentials?: Credentials[];
}

export function amadeusHandlers(options: AmadeusEmulatorOptions): {
  handlers: HttpHandler[];
  state: AmadeusState;
} {
  const state = createAmadeusState(options);
  const r = makeRouter(state, options.baseUrl);
  // Order matters: the lookup GET on /flight-orders and fixed sub-paths before the `:id` patterns.
  const handlers = [
    ...authRoutes(r, state, options.credentials),
    ...shoppingRoutes(r, state),
    ...extensionRoutes(r, state),
    ...orderRoutes(r, state),
    ...transferRoutes(r, state),
  ];
  return { handlers, state };
}

export type { AmadeusState } from './state.ts';
