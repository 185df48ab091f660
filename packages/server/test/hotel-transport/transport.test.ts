import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, transferQuery, transferQuote, transportBook } from './flows.ts';
import { futureDate, idem, type World, world } from './setup.ts';

let w: World;
let token: string;
beforeAll(async () => {
  w = await world();
  const company = await w.t.company();
  token = (await w.t.user({ role: 'company_staff', companyId: company })).token;
});
afterAll(() => w?.close());

describe.each(['hotelbeds_transfers', 'amadeus_transfers'])(
  'transport booking end to end: %s',
  (provider) => {
    it('quote -> book (replayed) -> get -> list -> cancel', async () => {
      const offer = await transferQuote(w, provider);
      const q = await call(w, 'quoteTransport', 'POST', '/api/v1/transport/quote', {
        token,
        body: { quote_id: offer.quote_id, provider },
      });
      expect(q.status).toBe(200);
      expect(q.body).toMatchObject({
        available: true,
        price_changed: false,
        previous_total_minor: offer.price.total_minor,
      });

      const headers = idem();
      const body = transportBook(offer.quote_id, provider);
      const booked = await call(w, 'bookTransport', 'POST', '/api/v1/transport/book', {
        token,
        headers,
        body,
      });
      expect(booked.status).toBe(200);
      expect(booked.body).toMatchObject({
        status: 'confirmed',
        provider,
        total: { amount_minor: offer.price.total_minor },
      });
      expect(booked.body.confirmation_number).toBeTruthy();
      const id = booked.body.booking_id as number;

      const replay = await w.t.request('POST', '/api/v1/transport/book', { token, headers, body });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(booked.body);

      expect(
        (await call(w, 'getTransportBooking', 'GET', `/api/v1/transport/bookings/${id}`, { token })).body,
      ).toEqual(booked.body);
      const list = await call(w, 'listTransportBookings', 'GET', '/api/v1/transport/bookings', { token });
      expect(list.body.items.map((b: { booking_id: number }) => b.booking_id)).toContain(id);

      const cancel = await call(
        w,
        'cancelTransportBooking',
        'POST',
        `/api/v1/transport/bookings/${id}/cancel`,
        { token },
      );
      expect(cancel.status).toBe(200);
      expect(cancel.body).toMatchObject({ booking_id: id, status: 'cancelled', cancelled: true });
      expect(cancel.body.cancellation_fee.amount_minor + cancel.body.refund.amount_minor).toBe(
        booked.body.total.amount_minor,
      );
      const again = await call(
        w,
        'cancelTransportBooking',
        'POST',
        `/api/v1/transport/bookings/${id}/cancel`,
        { token },
      );
      expect(again.body.code).toBe('invalid_booking_state');
    });

    it('REJECT: 400 supplier_rejected', async () => {
      const offer = await transferQuote(w, provider);
      const res = await call(w, 'bookTransport', 'POST', '/api/v1/transport/book', {
        token,
        headers: idem(),
        body: transportBook(offer.quote_id, provider, 'REJECT'),
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('supplier_rejected');
    });

    it('a round trip to a long address: its signed quote_id fits the contract, quotes and books', async () => {
      const supplier = w.registry.transfer(provider);
      const [offer] =
        (await supplier?.search({
          ...transferQuery(),
          dropoff_location: 'Jumeirah Beach Hotel, Jumeirah Road, Umm Suqeim 3, Dubai, United Arab Emirates',
          return_datetime: `${futureDate(67)}T10:00:00`,
          luggage: 0,
        })) ?? [];
      if (!offer) throw new Error(`no ${provider} offers`);
      const q = await call(w, 'quoteTransport', 'POST', '/api/v1/transport/quote', {
        token,
        body: { quote_id: offer.quote_id, provider },
      });
      expect(q.status).toBe(200);
      const booked = await call(w, 'bookTransport', 'POST', '/api/v1/transport/book', {
        token,
        headers: idem(),
        body: transportBook(offer.quote_id, provider),
      });
      expect(booked.status).toBe(200);
      expect(booked.body.status).toBe('confirmed');
    });

    it('PENDING: 502 with booking_id, settled by the reconciliation job', async () => {
      const offer = await transferQuote(w, provider);
      const res = await call(w, 'bookTransport', 'POST', '/api/v1/transport/book', {
        token,
        headers: idem(),
        body: transportBook(offer.quote_id, provider, 'PENDING'),
      });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'booking_pending', status: 'pending' });
      expect(await w.jobs.runOnce()).toBeGreaterThanOrEqual(1);
      const got = await call(
        w,
        'getTransportBooking',
        'GET',
        `/api/v1/transport/bookings/${res.body.booking_id}`,
        { token },
      );
      expect(got.body.status).toBe('confirmed');
    });
  },
);

describe('transport validation', () => {
  it('more passengers than the vehicle takes: 400 invalid_passenger', async () => {
    const offer = await transferQuote(w, 'hotelbeds_transfers');
    const body = transportBook(offer.quote_id, 'hotelbeds_transfers');
    const many = Array.from({ length: offer.vehicle.max_passengers + 1 }, (_, i) => ({
      first_name: `P${i}`,
      last_name: 'Many',
    }));
    const res = await call(w, 'bookTransport', 'POST', '/api/v1/transport/book', {
      token,
      headers: idem(),
      body: { ...body, passengers: many },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_passenger');
  });
});
