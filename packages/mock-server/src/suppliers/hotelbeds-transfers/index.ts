/** Hotelbeds Transfers emulator: availability by route, bookings by rateKey, cancellation (README.md). */
import type { HttpHandler } from 'msw';
import { HttpResponse } from 'msw';
import { Faults } from '../../shared/kit.ts';
import type { EmulatorOptions } from '../../shared/options.ts';
import { clockOf, type GateCtx, gated, type HotelbedsCredentials, hbError } from '../hotelbeds/auth.ts';
import { availability, createBooking, type TransferBooking, view } from './routes.ts';

export interface HotelbedsTransfersOptions extends EmulatorOptions {
  baseUrl: string;
  credentials?: HotelbedsCredentials;
}

export interface HotelbedsTransfersState {
  bookings: Map<string, TransferBooking>;
  /** Availability calls per route: triggers XPC and XSO act from the second search on. */
  searches: Map<string, number>;
  faults: Faults;
  calls: string[];
}

const AVAIL =
  '/transfer-api/1.0/availability/:language/from/:fromType/:fromCode/to/:toType/:toCode/:outbound';

export function hotelbedsTransfersHandlers(options: HotelbedsTransfersOptions): {
  handlers: HttpHandler[];
  state: HotelbedsTransfersState;
} {
  const state: HotelbedsTransfersState = {
    bookings: new Map(),
    searches: new Map(),
    faults: new Faults(),
    calls: [],
  };
  const ctx: GateCtx = { options, faults: state.faults, calls: state.calls, counter: { n: 0 } };
  const now = clockOf(options);
  const find = (ref: string | undefined) => (ref ? state.bookings.get(ref) : undefined);
  const handlers = [
    gated(ctx, 'get', `${AVAIL}/:inbound/:adults/:children/:infants`, ({ params }) =>
      availability(options, state, params, now()),
    ),
    gated(ctx, 'get', `${AVAIL}/:adults/:children/:infants`, ({ params }) =>
      availability(options, state, params, now()),
    ),
    gated(ctx, 'post', '/transfer-api/1.0/bookings', ({ request }) =>
      createBooking(options, state, request, now()),
    ),
    gated(ctx, 'get', '/transfer-api/1.0/bookings/:language/reference/:ref', ({ params }) => {
      const b = find(params.ref);
      if (!b) return hbError(404, 'NOT_FOUND', `Booking ${params.ref} not found.`);
      return HttpResponse.json({ bookings: [view(options, b)] });
    }),
    gated(ctx, 'get', '/transfer-api/1.0/bookings/:language', ({ request }) => {
      const ref = new URL(request.url).searchParams.get('clientReference');
      if (!ref) return hbError(400, 'INVALID_REQUEST', 'clientReference is required.');
      const hits = [...state.bookings.values()].filter((b) => b.clientReference === ref);
      if (hits.length === 0) return new HttpResponse(null, { status: 204 });
      return HttpResponse.json({ bookings: hits.map((b) => view(options, b)) });
    }),
    gated(ctx, 'delete', '/transfer-api/1.0/booking/:language/reference/:ref', ({ params }) => {
      const b = find(params.ref);
      if (!b) return hbError(404, 'NOT_FOUND', `Booking ${params.ref} not found.`);
      if (b.status === 'CANCELLED') return hbError(400, 'INVALID_DATA', 'Booking is already cancelled.');
      b.status = 'CANCELLED';
      b.cancelledAt = now();
      return HttpResponse.json({ bookings: [view(options, b)] });
    }),
  ];
  return { handlers, state };
}
