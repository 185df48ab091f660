import { describe, expect, it } from 'vitest';
import { HOTEL_BOOKING_STATUSES, nextHotelStatus } from '../../src/domains/hotel/state-machine.ts';
import { nextTransportStatus } from '../../src/domains/transport/state-machine.ts';

describe.each([
  ['hotel', nextHotelStatus],
  ['transport', nextTransportStatus],
] as const)('%s booking state machine', (_name, next) => {
  it('settles pending from the supplier answer', () => {
    expect(next('pending', 'supplier_confirmed')).toBe('confirmed');
    expect(next('pending', 'supplier_rejected')).toBe('rejected');
    expect(next('pending', 'supplier_failed')).toBe('failed');
    expect(next('on_request', 'supplier_confirmed')).toBe('confirmed');
  });

  it('cancels only confirmed or on-request bookings; refusals are 400 invalid_booking_state', () => {
    expect(next('confirmed', 'cancel')).toBe('cancelled');
    for (const from of ['pending', 'cancelled', 'rejected', 'failed'] as const) {
      expect(() => next(from, 'cancel')).toThrow(
        expect.objectContaining({ status: 400, code: 'invalid_booking_state' }),
      );
    }
    expect(() => next('confirmed', 'supplier_confirmed')).toThrow(
      expect.objectContaining({ code: 'invalid_booking_state' }),
    );
  });

  it('the admin override reaches any status from any status', () => {
    for (const from of HOTEL_BOOKING_STATUSES) {
      for (const to of HOTEL_BOOKING_STATUSES) expect(next(from, 'override', to)).toBe(to);
    }
  });
});
