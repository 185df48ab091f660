import { describe, expect, it } from 'vitest';
import { HOTEL_KIND, TRANSPORT_KIND } from '../../src/domains/reservation/kind.ts';
import {
  RESERVATION_STATUSES as HOTEL_BOOKING_STATUSES,
  nextStatus,
} from '../../src/domains/reservation/state-machine.ts';

describe.each([
  ['hotel', nextStatus(HOTEL_KIND)],
  ['transport', nextStatus(TRANSPORT_KIND)],
] as const)('%s booking state machine', (name, next) => {
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
        expect.objectContaining({
          status: 400,
          code: 'invalid_booking_state',
          message: expect.stringContaining(`A ${name} booking in status ${from}`),
        }),
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
