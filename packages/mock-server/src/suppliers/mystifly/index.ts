/** Mystifly OnePoint style consolidator emulator (see README.md for the protocol and the triggers). */
import type { HttpHandler } from 'msw';
import { type MystiflyOptions, makeCtx } from './context.ts';
import { bookingRoutes } from './routes-booking.ts';
import { ptrRoutes } from './routes-ptr.ts';
import { searchRoutes } from './routes-search.ts';
import { type MystiflyState, newState } from './state.ts';

export type { MystiflyOptions } from './context.ts';
export { changeMystiflySchedule } from './schedule-changes.ts';
export type { MystiflyState } from './state.ts';

export function mystiflyHandlers(options: MystiflyOptions): {
  handlers: HttpHandler[];
  state: MystiflyState;
} {
  const state = newState();
  const ctx = makeCtx(options, state);
  return { handlers: [...searchRoutes(ctx), ...bookingRoutes(ctx), ...ptrRoutes(ctx)], state };
}
