/**
 * Issue 30: hotel and transport bookings emit one event per change, in the change's transaction:
 * created (written pending ahead of the supplier call), confirmed, cancelled, pending_settled (by the
 * reconciliation job), status_overridden (admin).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, hotelBook, hotelRate, transferQuote, transportBook } from '../hotel-transport/flows.ts';
import { idem, type World, world } from '../hotel-transport/setup.ts';

let w: World;
let token: string;
let companyId: number;

beforeAll(async () => {
  w = await world();
  companyId = await w.t.company();
  token = (await w.t.user({ role: 'company_admin', companyId })).token;
});
afterAll(() => w?.close());

interface Row {
  type: string;
  company_id: number | null;
  resource_id: string;
  resource_version: number;
  data: { status: string; booking_id: number } | string;
  request_id: string | null;
  job_id: string | null;
}

async function eventsOf(type: string, id: number) {
  const r = await sql<Row>`select type, company_id, resource_id, resource_version, data, request_id, job_id
    from events where resource_type = ${type} and resource_id = ${String(id)} order by txid, seq`.execute(
    w.t.database.db,
  );
  return r.rows.map((e) => ({ ...e, data: typeof e.data === 'string' ? JSON.parse(e.data) : e.data }));
}

describe('hotel and transport booking events', () => {
  it('hotel: created, confirmed, cancelled, each once, with the request that caused it', async () => {
    const offer = await hotelRate(w, 'hotelbeds');
    const res = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
      token,
      headers: idem(),
      body: hotelBook(offer.rate_key, 'hotelbeds'),
    });
    expect(res.status).toBe(200);
    const id = res.body.booking_id as number;
    const rid = res.headers.get('x-request-id');
    let evs = await eventsOf('hotel_booking', id);
    expect(evs.map((e) => [e.type, e.data.status, e.resource_version, e.request_id, e.company_id])).toEqual([
      ['hotel_booking.created', 'pending', 1, rid, companyId],
      ['hotel_booking.confirmed', 'confirmed', 2, rid, companyId],
    ]);
    expect(evs[1]?.data).toEqual(res.body);
    const c = await w.t.request('POST', `/api/v1/hotel/bookings/${id}/cancel`, { token, headers: idem() });
    expect(c.status).toBe(200);
    evs = await eventsOf('hotel_booking', id);
    expect(evs.map((e) => e.type).slice(2)).toEqual(['hotel_booking.cancelled']);
  });

  it('hotel PENDING: created, then pending_settled by the job; the admin override is status_overridden', async () => {
    const offer = await hotelRate(w, 'hotelbeds');
    const res = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
      token,
      headers: idem(),
      body: hotelBook(offer.rate_key, 'hotelbeds', 'PENDING'),
    });
    expect(res.status).toBe(502);
    const id = res.body.booking_id as number;
    expect((await eventsOf('hotel_booking', id)).map((e) => e.type)).toEqual(['hotel_booking.created']);
    expect(await w.jobs.runOnce()).toBeGreaterThanOrEqual(1);
    const evs = await eventsOf('hotel_booking', id);
    expect(evs.map((e) => [e.type, e.data.status])).toEqual([
      ['hotel_booking.created', 'pending'],
      ['hotel_booking.pending_settled', 'confirmed'],
    ]);
    expect([evs[1]?.request_id, typeof evs[1]?.job_id]).toEqual([null, 'string']);
    const admin = await w.t.user({ role: 'super_admin' });
    const o = await w.t.request(
      'POST',
      `/api/v1/admin/hotel-bookings/${id}/override-status?new_status=cancelled&reason=called`,
      { token: admin.token },
    );
    expect(o.status).toBe(200);
    expect((await eventsOf('hotel_booking', id)).map((e) => e.type).slice(2)).toEqual([
      'hotel_booking.status_overridden',
    ]);
  });

  it('transport: created and confirmed', async () => {
    const offer = await transferQuote(w, 'hotelbeds_transfers');
    const res = await call(w, 'bookTransport', 'POST', '/api/v1/transport/book', {
      token,
      headers: idem(),
      body: transportBook(offer.quote_id, 'hotelbeds_transfers'),
    });
    expect(res.status).toBe(200);
    const evs = await eventsOf('transport_booking', res.body.booking_id);
    expect(evs.map((e) => e.type)).toEqual(['transport_booking.created', 'transport_booking.confirmed']);
  });
});
