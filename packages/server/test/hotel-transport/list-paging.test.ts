/** Hotel and transport lists (issue 31): keyset paging agrees with page numbers; search; total flag. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookHotelOk, bookTransportOk, call } from './flows.ts';
import { type World, world } from './setup.ts';

let w: World;
let a: { id: string; token: string };
const hotels: number[] = [];
const transfers: number[] = [];
beforeAll(async () => {
  w = await world();
  const companyA = await w.t.company();
  a = await w.t.user({ role: 'company_admin', companyId: companyA });
  for (let i = 0; i < 5; i += 1) {
    hotels.push((await bookHotelOk(w, a.token, i % 2 ? 'hotelbeds' : 'duffel_stays')).booking_id);
    transfers.push((await bookTransportOk(w, a.token, 'hotelbeds_transfers')).booking_id);
  }
});
afterAll(() => w?.close());

async function walk(op: string, path: string, size: number) {
  const byCursor: number[] = [];
  let after: number | undefined;
  for (let n = 0; n < 20; n += 1) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await call(
      w,
      op,
      'GET',
      `${path}${sep}page_size=${size}${after ? `&starting_after=${after}` : ''}`,
      {
        token: a.token,
      },
    );
    expect(r.status).toBe(200);
    const ids = r.body.items.map((x: { booking_id: number }) => x.booking_id);
    byCursor.push(...ids);
    if (!r.body.has_more) break;
    after = ids.at(-1);
  }
  const byPage: number[] = [];
  for (let page = 1; page < 20; page += 1) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await call(w, op, 'GET', `${path}${sep}page_size=${size}&page=${page}`, { token: a.token });
    byPage.push(...r.body.items.map((x: { booking_id: number }) => x.booking_id));
    expect(r.body.total).toBe(5);
    expect(r.body.total_estimated).toBe(false);
    if (!r.body.has_more) break;
  }
  return { byCursor, byPage };
}

describe('hotel and transport lists: keyset paging', () => {
  it('every sort, both orders: the cursor walk is the page walk, each booking once', async () => {
    for (const [op, path, ids] of [
      ['companyListHotelBookings', '/api/v1/company/hotel-bookings', hotels],
      ['companyListTransportBookings', '/api/v1/company/transport-bookings', transfers],
    ] as const) {
      for (const sort of ['created_at', 'updated_at', 'status', 'total']) {
        for (const order of ['asc', 'desc']) {
          const { byCursor, byPage } = await walk(op, `${path}?sort_by=${sort}&sort_order=${order}`, 2);
          expect(byCursor).toEqual(byPage);
          expect([...byCursor].sort()).toEqual([...ids].sort());
        }
      }
      expect((await walk(op, path, 2)).byCursor).toEqual([...ids].reverse());
    }
    const mine = await walk('listHotelBookings', '/api/v1/hotel/bookings', 3);
    expect(mine.byCursor).toEqual([...hotels].reverse());
  });

  it('search by booking id and traveller name uses the indexed text', async () => {
    const byId = await call(
      w,
      'companyListHotelBookings',
      'GET',
      `/api/v1/company/hotel-bookings?search=${hotels[2]}`,
      {
        token: a.token,
      },
    );
    expect(byId.body.items.map((x: { booking_id: number }) => x.booking_id)).toContain(hotels[2]);
    const byName = await call(
      w,
      'companyListTransportBookings',
      'GET',
      '/api/v1/company/transport-bookings?search=LOVE',
      {
        token: a.token,
      },
    );
    expect(byName.body.total).toBe(5);
    const none = await call(
      w,
      'companyListTransportBookings',
      'GET',
      '/api/v1/company/transport-bookings?search=%25',
      {
        token: a.token,
      },
    );
    expect(none.body.total).toBe(0);
  });
});
