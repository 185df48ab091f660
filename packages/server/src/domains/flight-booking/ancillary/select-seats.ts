import { badRequest, notFound } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import type { FlightSupplier, SeatRequest } from '../../../suppliers/ports/flight.ts';
import type { BookingDeps } from '../deps.ts';
import type { BookingRow } from '../store.ts';
import { supplierFailure } from '../suppliers.ts';
import { orderContext } from './order-context.ts';
import { saveSeats } from './store.ts';

export async function selectSeat(d: BookingDeps, ctx: OperationContext<'selectSeat'>) {
  const { b, supplier, orderRef } = await orderContext(d, ctx, 'seats', 'seats_unsupported');
  const req = {
    segment_id: String(ctx.query.segment_id),
    seat_number: String(ctx.query.seat_number),
    passenger_id: String(ctx.query.passenger_id),
  };
  checkSeat(b, req);
  const [r] = await requestSeats(supplier, orderRef, [req], ctx.signal);
  if (!r?.accepted)
    throw badRequest('seat_unavailable', r?.reason ?? `Seat ${req.seat_number} is not available.`);
  await saveSeats(d.db, b.id, [r], d.clock.now(), 'selected');
  return { ...r, booking_id: b.id };
}

/** Partial success is normal: each seat reports its own outcome; the batch never fails as a whole. */
export async function selectSeatsBatch(d: BookingDeps, ctx: OperationContext<'selectSeatsBatch'>) {
  const { b, supplier, orderRef } = await orderContext(d, ctx, 'seats', 'seats_unsupported');
  const seats = ctx.body.seats;
  for (const s of seats) checkSeat(b, s);
  const results = await requestSeats(supplier, orderRef, seats, ctx.signal);
  await saveSeats(d.db, b.id, results, d.clock.now(), 'selected');
  return {
    booking_id: b.id,
    requested: seats.length,
    stored: results.filter((r) => r.accepted).length,
    results,
  };
}

function checkSeat(b: BookingRow, s: SeatRequest) {
  if (!b.flights.some((f) => f.segment_id === s.segment_id))
    throw notFound('segment_not_found', `Segment ${s.segment_id} is not on the booking.`);
  if (!b.passengers.some((p) => p.passenger_id === s.passenger_id))
    throw badRequest('invalid_passenger', `Passenger ${s.passenger_id} is not on the booking.`);
}

async function requestSeats(
  supplier: FlightSupplier,
  orderRef: string,
  seats: SeatRequest[],
  signal: AbortSignal,
) {
  try {
    return await supplier.requestSeats(orderRef, seats, { signal });
  } catch (err) {
    return supplierFailure(err, { failed: 'seat_reservation_failed', unsupported: 'seats_unsupported' });
  }
}
