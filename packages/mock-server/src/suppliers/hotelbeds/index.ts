/** Hotelbeds APItude hotel emulator: availability, checkrates, bookings (see README.md for triggers). */

import type { HttpHandler } from 'msw';
import { HttpResponse } from 'msw';
import { Faults } from '../../shared/kit.ts';
import { textToMinor } from '../../shared/money.ts';
import type { EmulatorOptions } from '../../shared/options.ts';
import { auditData, clockOf, type GateCtx, gated, type HotelbedsCredentials, hbError } from './auth.ts';
import { availability, bookingView, checkRates, createBooking, type HotelBooking } from './routes.ts';

export interface HotelbedsOptions extends EmulatorOptions {
  baseUrl: string;
  credentials?: HotelbedsCredentials;
}

export interface HotelbedsState {
  bookings: Map<string, HotelBooking>;
  /** RECHECK rateKeys that went through checkrates (only those may be booked). */
  checked: Set<string>;
  faults: Faults;
  calls: string[];
}

export function hotelbedsHandlers(options: HotelbedsOptions): {
  handlers: HttpHandler[];
  state: HotelbedsState;
} {
  const state: HotelbedsState = { bookings: new Map(), checked: new Set(), faults: new Faults(), calls: [] };
  const ctx: GateCtx = { options, faults: state.faults, calls: state.calls, counter: { n: 0 } };
  const now = clockOf(options);
  const handlers = [
    gated(ctx, 'post', '/hotel-api/1.0/hotels', ({ request }) => availability(options, request, now())),
    gated(ctx, 'post', '/hotel-api/1.0/checkrates', ({ request }) =>
      checkRates(options, state, request, now()),
    ),
    gated(ctx, 'post', '/hotel-api/1.0/bookings', ({ request }) =>
      createBooking(options, state, request, now()),
    ),
    gated(ctx, 'get', '/hotel-api/1.0/bookings', ({ request }) => {
      const q = new URL(request.url).searchParams;
      const from = Number(q.get('from'));
      const to = Number(q.get('to'));
      if (!from || !to || to < from)
        return hbError(400, 'INVALID_REQUEST', 'from and to are required (1-based range).');
      const ref = q.get('clientReference');
      const all = [...state.bookings.values()].filter((b) => !ref || b.clientReference === ref);
      return HttpResponse.json({
        auditData: auditData(now()),
        bookings: {
          from,
          to,
          total: all.length,
          bookings: all.slice(from - 1, to).map((b) => bookingView(b)),
        },
      });
    }),
    gated(ctx, 'get', '/hotel-api/1.0/bookings/:ref', ({ params }) => {
      const b = state.bookings.get(params.ref ?? '');
      if (!b) return hbError(404, 'INVALID_DATA', `Booking ${params.ref} not found.`);
      return HttpResponse.json({ auditData: auditData(now()), booking: bookingView(b) });
    }),
    gated(ctx, 'delete', '/hotel-api/1.0/bookings/:ref', ({ request, params }) => {
      const b = state.bookings.get(params.ref ?? '');
      if (!b) return hbError(404, 'INVALID_DATA', `Booking ${params.ref} not found.`);
      const flag = new URL(request.url).searchParams.get('cancellationFlag') ?? 'CANCELLATION';
      if (flag !== 'SIMULATION' && flag !== 'CANCELLATION') {
        return hbError(400, 'INVALID_REQUEST', 'cancellationFlag must be SIMULATION or CANCELLATION.');
      }
      if (b.status === 'CANCELLED') return hbError(400, 'INVALID_DATA', 'Booking is already cancelled.');
      const view = bookingView(b, now());
      if (flag === 'CANCELLATION') {
        b.status = 'CANCELLED';
        b.cancellationReference = `C${b.reference.replace(/\D/g, '')}`;
        b.cancellationAmountCents = textToMinor(view.hotel.cancellationAmount, 'EUR');
      }
      // The ambiguous cancellation: made, but the caller never hears so (holder surname CANCELPENDING).
      if (flag === 'CANCELLATION' && b.holder.surname.toUpperCase() === 'CANCELPENDING')
        return hbError(504, 'SYSTEM_ERROR', 'Gateway timeout.');
      return HttpResponse.json({ auditData: auditData(now()), booking: bookingView(b, now()) });
    }),
  ];
  return { handlers, state };
}
