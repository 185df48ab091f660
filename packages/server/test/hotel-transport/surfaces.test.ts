/** Tenant isolation, admin (list, stats, audit trail, override), company and customer views. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookHotelOk, bookTransportOk, call } from './flows.ts';
import { type World, world } from './setup.ts';

let w: World;
let a: { id: string; token: string };
let b: { id: string; token: string };
let admin: { token: string };
let customer: { id: string; token: string };
let other: { token: string };
let companyA: number;
beforeAll(async () => {
  w = await world();
  companyA = await w.t.company();
  const companyB = await w.t.company();
  a = await w.t.user({ role: 'company_admin', companyId: companyA });
  b = await w.t.user({ role: 'company_admin', companyId: companyB });
  admin = await w.t.user({ role: 'super_admin' });
  customer = await w.t.user({ role: 'customer', companyId: companyA });
  other = await w.t.user({ role: 'customer', companyId: companyA });
});
afterAll(() => w?.close());

describe('tenant isolation', () => {
  it("another company's hotel and transport bookings are 404 everywhere", async () => {
    const h = await bookHotelOk(w, a.token, 'hotelbeds');
    const t = await bookTransportOk(w, a.token, 'hotelbeds_transfers');
    for (const [op, path] of [
      ['getHotelBooking', `/api/v1/hotel/bookings/${h.booking_id}`],
      ['companyGetHotelBooking', `/api/v1/company/hotel-bookings/${h.booking_id}`],
      ['getTransportBooking', `/api/v1/transport/bookings/${t.booking_id}`],
      ['companyGetTransportBooking', `/api/v1/company/transport-bookings/${t.booking_id}`],
    ] as const) {
      const res = await call(w, op, 'GET', path, { token: b.token });
      expect(res.status).toBe(404);
    }
    const cancel = await call(
      w,
      'cancelHotelBooking',
      'POST',
      `/api/v1/hotel/bookings/${h.booking_id}/cancel`,
      { token: b.token },
    );
    expect(cancel.status).toBe(404);
    expect(cancel.body.code).toBe('hotel_booking_not_found');
    const list = await call(w, 'companyListHotelBookings', 'GET', '/api/v1/company/hotel-bookings', {
      token: b.token,
    });
    expect(list.body.total).toBe(0);
    const own = await call(w, 'companyListHotelBookings', 'GET', '/api/v1/company/hotel-bookings', {
      token: a.token,
    });
    expect(own.body.items.map((x: { booking_id: number }) => x.booking_id)).toContain(h.booking_id);
  });
});

describe('admin', () => {
  it('lists with filters, counts by status, shows the audit trail, overrides with an audit row', async () => {
    const h = await bookHotelOk(w, a.token, 'duffel_stays');
    const list = await call(
      w,
      'adminListHotelBookings',
      'GET',
      `/api/v1/admin/hotel-bookings?company_id=${companyA}&provider=duffel_stays&status=confirmed&sort_by=total&sort_order=asc`,
      { token: admin.token },
    );
    expect(list.body.items.map((x: { booking_id: number }) => x.booking_id)).toContain(h.booking_id);
    expect(list.body.items.every((x: { provider: string }) => x.provider === 'duffel_stays')).toBe(true);
    const search = await call(
      w,
      'adminListHotelBookings',
      'GET',
      '/api/v1/admin/hotel-bookings?search=lovelace',
      { token: admin.token },
    );
    expect(search.body.total).toBeGreaterThan(0);

    const stats = await call(
      w,
      'adminGetHotelBookingStats',
      'GET',
      '/api/v1/admin/hotel-bookings/stats/summary',
      { token: admin.token },
    );
    expect(stats.body.by_status.confirmed).toBeGreaterThan(0);
    expect(Object.keys(stats.body.by_status).sort()).toEqual([
      'cancelled',
      'confirmed',
      'failed',
      'on_request',
      'pending',
      'rejected',
    ]);

    const over = await call(
      w,
      'adminOverrideHotelBookingStatus',
      'POST',
      `/api/v1/admin/hotel-bookings/${h.booking_id}/override-status?new_status=on_request&reason=hotel%20called`,
      { token: admin.token },
    );
    expect(over.status).toBe(200);
    expect(over.body.status).toBe('on_request');
    const detail = await call(
      w,
      'adminGetHotelBooking',
      'GET',
      `/api/v1/admin/hotel-bookings/${h.booking_id}`,
      { token: admin.token },
    );
    const events = detail.body.audit_trail.map((e: { event: string }) => e.event);
    expect(events).toEqual([
      'hotel_booking.created',
      'hotel_booking.supplier_confirmed',
      'hotel_booking.status_overridden',
    ]);
    expect(detail.body.audit_trail[2].details).toMatchObject({
      from: 'confirmed',
      to: 'on_request',
      reason: 'hotel called',
    });

    const pending = await call(
      w,
      'companyListPendingHotelBookings',
      'GET',
      '/api/v1/company/hotel-bookings/pending',
      { token: a.token },
    );
    expect(pending.body.on_request.map((x: { booking_id: number }) => x.booking_id)).toContain(h.booking_id);

    const forbidden = await w.t.request('GET', '/api/v1/admin/hotel-bookings', { token: a.token });
    expect(forbidden.status).toBe(403);
  });

  it('transport: override, audit trail, stats, and 404 for an unknown booking', async () => {
    const t = await bookTransportOk(w, a.token, 'amadeus_transfers');
    const over = await call(
      w,
      'adminOverrideTransportBookingStatus',
      'POST',
      `/api/v1/admin/transport-bookings/${t.booking_id}/override-status?new_status=cancelled&reason=duplicate`,
      { token: admin.token },
    );
    expect(over.body.status).toBe('cancelled');
    const detail = await call(
      w,
      'adminGetTransportBooking',
      'GET',
      `/api/v1/admin/transport-bookings/${t.booking_id}`,
      { token: admin.token },
    );
    expect(detail.body.audit_trail.at(-1).event).toBe('transport_booking.status_overridden');
    const stats = await call(
      w,
      'adminGetTransportBookingStats',
      'GET',
      '/api/v1/admin/transport-bookings/stats/summary',
      { token: admin.token },
    );
    expect(stats.body.by_status.cancelled).toBeGreaterThan(0);
    const list = await call(
      w,
      'adminListTransportBookings',
      'GET',
      '/api/v1/admin/transport-bookings?status=cancelled',
      { token: admin.token },
    );
    expect(list.body.items.map((x: { booking_id: number }) => x.booking_id)).toContain(t.booking_id);
    const missing = await call(
      w,
      'adminGetTransportBooking',
      'GET',
      '/api/v1/admin/transport-bookings/999999',
      { token: admin.token },
    );
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('transport_booking_not_found');
  });
});

describe('company and customer views', () => {
  it('company lists transport bookings with pending categories', async () => {
    const t = await bookTransportOk(w, a.token, 'hotelbeds_transfers');
    const list = await call(
      w,
      'companyListTransportBookings',
      'GET',
      '/api/v1/company/transport-bookings?status=confirmed',
      { token: a.token },
    );
    expect(list.body.items.map((x: { booking_id: number }) => x.booking_id)).toContain(t.booking_id);
    const got = await call(
      w,
      'companyGetTransportBooking',
      'GET',
      `/api/v1/company/transport-bookings/${t.booking_id}`,
      { token: a.token },
    );
    expect(got.body.booking_id).toBe(t.booking_id);
    const pending = await call(
      w,
      'companyListPendingTransportBookings',
      'GET',
      '/api/v1/company/transport-bookings/pending',
      { token: a.token },
    );
    expect(pending.body).toEqual({ pending_confirmation: [], on_request: [] });
  });

  it('a customer sees and cancels only their own bookings', async () => {
    const h = await bookHotelOk(w, customer.token, 'hotelbeds');
    const t = await bookTransportOk(w, customer.token, 'amadeus_transfers');
    const staffs = await bookHotelOk(w, a.token, 'hotelbeds');
    const mine = await call(w, 'customerListHotelBookings', 'GET', '/api/v1/customer/hotel-bookings', {
      token: customer.token,
    });
    expect(mine.body.items.map((x: { booking_id: number }) => x.booking_id)).toEqual([h.booking_id]);
    expect(
      (
        await call(
          w,
          'customerGetHotelBooking',
          'GET',
          `/api/v1/customer/hotel-bookings/${staffs.booking_id}`,
          { token: customer.token },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await call(w, 'customerGetHotelBooking', 'GET', `/api/v1/customer/hotel-bookings/${h.booking_id}`, {
          token: other.token,
        })
      ).status,
    ).toBe(404);
    const cancelOther = await call(
      w,
      'customerCancelHotelBooking',
      'POST',
      `/api/v1/customer/hotel-bookings/${h.booking_id}/cancel`,
      { token: other.token },
    );
    expect(cancelOther.status).toBe(404);
    const cancel = await call(
      w,
      'customerCancelHotelBooking',
      'POST',
      `/api/v1/customer/hotel-bookings/${h.booking_id}/cancel`,
      { token: customer.token },
    );
    expect(cancel.body.status).toBe('cancelled');
    const tl = await call(
      w,
      'customerListTransportBookings',
      'GET',
      '/api/v1/customer/transport-bookings?status=confirmed',
      { token: customer.token },
    );
    expect(tl.body.items.map((x: { booking_id: number }) => x.booking_id)).toEqual([t.booking_id]);
    expect(
      (
        await call(
          w,
          'customerGetTransportBooking',
          'GET',
          `/api/v1/customer/transport-bookings/${t.booking_id}`,
          { token: customer.token },
        )
      ).status,
    ).toBe(200);
    const tc = await call(
      w,
      'customerCancelTransportBooking',
      'POST',
      `/api/v1/customer/transport-bookings/${t.booking_id}/cancel`,
      { token: customer.token },
    );
    expect(tc.body).toMatchObject({ status: 'cancelled', cancelled: true });
  });
});
