import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceDb } from '../../src/domains/reservation/tables.ts';
import { call, hotelBook, hotelRate } from './flows.ts';
import { idem, type World, world } from './setup.ts';

let w: World;
let token: string;
beforeAll(async () => {
  w = await world();
  const company = await w.t.company();
  token = (await w.t.user({ role: 'company_admin', companyId: company })).token;
});
afterAll(() => w?.close());

describe.each(['hotelbeds', 'duffel_stays'])('hotel booking end to end: %s', (provider) => {
  it('check-rate -> book (replayed) -> get -> list -> cancel with the fee', async () => {
    const offer = await hotelRate(w, provider);
    const check = await call(w, 'checkHotelRate', 'POST', '/api/v1/hotel/check-rate', {
      token,
      body: { rate_key: offer.rate_key, provider },
    });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({
      available: true,
      price_changed: false,
      previous_total_minor: offer.price.total_minor,
    });

    const headers = idem();
    const body = hotelBook(offer.rate_key, provider);
    const booked = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', { token, headers, body });
    expect(booked.status).toBe(200);
    expect(booked.body).toMatchObject({ status: 'confirmed', provider, client_ref: 'my-ref-1' });
    expect(booked.body.total.amount_minor).toBe(check.body.offer.price.total_minor);
    const id = booked.body.booking_id as number;

    const replay = await w.t.request('POST', '/api/v1/hotel/book', { token, headers, body });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(booked.body);

    const got = await call(w, 'getHotelBooking', 'GET', `/api/v1/hotel/bookings/${id}`, { token });
    expect(got.body).toEqual(booked.body);
    const list = await call(w, 'listHotelBookings', 'GET', '/api/v1/hotel/bookings?page_size=100', { token });
    expect(list.body.items.filter((b: { booking_id: number }) => b.booking_id === id)).toHaveLength(1);

    // The provider's simulation quotes the fee and changes nothing; another company's caller sees no booking.
    const quotePath = `/api/v1/hotel/bookings/${id}/cancellation-quote`;
    const quote = await call(w, 'quoteHotelCancellation', 'GET', quotePath, { token });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ booking_id: id, status: 'confirmed', source: 'supplier_simulation' });
    expect(quote.body.cancellation_fee.currency).toBe(booked.body.total.currency);
    expect(quote.body.cancellation_fee.amount_minor + quote.body.refund.amount_minor).toBe(
      booked.body.total.amount_minor,
    );
    const stranger = (await w.t.user({ role: 'company_admin', companyId: await w.t.company() })).token;
    const hidden = await call(w, 'quoteHotelCancellation', 'GET', quotePath, { token: stranger });
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('hotel_booking_not_found');
    const still = await call(w, 'getHotelBooking', 'GET', `/api/v1/hotel/bookings/${id}`, { token });
    expect(still.body.status).toBe('confirmed');

    const cancel = await call(w, 'cancelHotelBooking', 'POST', `/api/v1/hotel/bookings/${id}/cancel`, {
      token,
    });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ booking_id: id, status: 'cancelled', cancelled: true });
    expect(cancel.body.cancellation_fee.amount_minor + cancel.body.refund.amount_minor).toBe(
      booked.body.total.amount_minor,
    );
    // What the simulation quoted is what the cancellation kept.
    expect(cancel.body.cancellation_fee).toEqual(quote.body.cancellation_fee);
    const late = await call(w, 'quoteHotelCancellation', 'GET', quotePath, { token });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('invalid_booking_state');
    const again = await call(w, 'cancelHotelBooking', 'POST', `/api/v1/hotel/bookings/${id}/cancel`, {
      token,
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('invalid_booking_state');
    const after = await call(w, 'getHotelBooking', 'GET', `/api/v1/hotel/bookings/${id}`, { token });
    expect(after.body).toMatchObject({ status: 'cancelled', cancellation_fee: cancel.body.cancellation_fee });
  });

  it('REJECT: 400 supplier_rejected, the booking is recorded as rejected', async () => {
    const offer = await hotelRate(w, provider);
    const res = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
      token,
      headers: idem(),
      body: hotelBook(offer.rate_key, provider, 'REJECT'),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('supplier_rejected');
    const got = await w.t.request('GET', `/api/v1/hotel/bookings/${res.body.booking_id}`, { token });
    expect(got.body.status).toBe('rejected');
  });

  it('PENDING: 502 with booking_id (replayed the same), then the reconciliation job confirms it', async () => {
    const offer = await hotelRate(w, provider);
    const headers = idem();
    const body = hotelBook(offer.rate_key, provider, 'PENDING');
    const res = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', { token, headers, body });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'booking_pending', status: 'pending' });
    const id = res.body.booking_id as number;
    const replay = await w.t.request('POST', '/api/v1/hotel/book', { token, headers, body });
    expect(replay.status).toBe(502);
    expect(replay.body).toEqual(res.body);
    expect((await w.t.request('GET', `/api/v1/hotel/bookings/${id}`, { token })).body.status).toBe('pending');
    const cancel = await w.t.request('POST', `/api/v1/hotel/bookings/${id}/cancel`, { token });
    expect(cancel.body.code).toBe('invalid_booking_state');

    expect(await w.jobs.runOnce()).toBeGreaterThanOrEqual(1);
    const settled = await call(w, 'getHotelBooking', 'GET', `/api/v1/hotel/bookings/${id}`, { token });
    expect(settled.body.status).toBe('confirmed');
    expect(settled.body.supplier_booking_ref).toBeTruthy();
  });
});

describe('hotel check-rate and book validation', () => {
  it('a price change at check-rate reports the old and new totals; booking the stale key is 400 price_changed', async () => {
    const offer = await hotelRate(w, 'hotelbeds', 'XPC');
    const check = await call(w, 'checkHotelRate', 'POST', '/api/v1/hotel/check-rate', {
      token,
      body: { rate_key: offer.rate_key, provider: 'hotelbeds' },
    });
    expect(check.body.price_changed).toBe(true);
    expect(check.body.previous_total_minor).toBe(offer.price.total_minor);
    expect(check.body.offer.price.total_minor).toBeGreaterThan(offer.price.total_minor);
    const stale = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
      token,
      headers: idem(),
      body: hotelBook(offer.rate_key, 'hotelbeds'),
    });
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe('price_changed');
    const fresh = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
      token,
      headers: idem(),
      body: hotelBook(check.body.offer.rate_key, 'hotelbeds'),
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.total.amount_minor).toBe(check.body.offer.price.total_minor);
  });

  it('guests are validated (a child needs an age; each room an adult); Idempotency-Key is required', async () => {
    const offer = await hotelRate(w, 'hotelbeds');
    const body = hotelBook(offer.rate_key, 'hotelbeds');
    const child = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
      token,
      headers: idem(),
      body: { ...body, guests: [...body.guests, { room: 1, type: 'CH', first_name: 'Kid', last_name: 'L' }] },
    });
    expect(child.status).toBe(400);
    expect(child.body.code).toBe('invalid_guest');
    const noKey = await w.t.request('POST', '/api/v1/hotel/book', { token, body });
    expect(noKey.status).toBe(422);
    expect(noKey.body.detail[0].loc).toEqual(['header', 'idempotency-key']);
  });

  it.each(['hotelbeds', 'duffel_stays'])(
    '%s: guests that differ from the priced occupancy are 400 invalid_guest, before any booking exists',
    async (provider) => {
      const offer = await hotelRate(w, provider);
      expect(offer).toMatchObject({ adults: 2, children: 0 });
      const before = await serviceDb(w.t.database.db).selectFrom('hotel_bookings').select('id').execute();
      const body = hotelBook(offer.rate_key, provider);
      const three = [...body.guests, { room: 1, type: 'AD', first_name: 'Grace', last_name: 'Hopper' }];
      for (const guests of [three, body.guests.slice(0, 1)]) {
        const res = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
          token,
          headers: idem(),
          body: { ...body, guests },
        });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_guest');
        expect(res.body.detail).toContain('priced for 2 adult(s) and 0 child(ren)');
      }
      const after = await serviceDb(w.t.database.db).selectFrom('hotel_bookings').select('id').execute();
      expect(after).toEqual(before);
    },
  );

  it('an unknown rate key: 404 rate_not_found at check-rate', async () => {
    const res = await call(w, 'checkHotelRate', 'POST', '/api/v1/hotel/check-rate', {
      token,
      body: { rate_key: 'rat_does_not_exist', provider: 'duffel_stays' },
    });
    expect([400, 404]).toContain(res.status);
  });
});
