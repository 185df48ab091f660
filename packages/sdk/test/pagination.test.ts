import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { paginate } from '../src/index.ts';
import { BASE, collect, testClient, useMsw } from './helpers.ts';

const server = useMsw();

describe('pagination', () => {
  it('walks every page of admin bookings, passing the filters on', async () => {
    const requested: string[] = [];
    server.use(
      http.get(`${BASE}/api/v1/admin/bookings`, ({ request }) => {
        const url = new URL(request.url);
        requested.push(url.search);
        const page = Number(url.searchParams.get('page'));
        const all = [1, 2, 3, 4, 5].map((id) => ({ booking_id: id, status: 'confirmed' }));
        return HttpResponse.json({
          items: all.slice((page - 1) * 2, page * 2),
          total: 5,
          page,
          page_size: 2,
        });
      }),
    );
    const { client } = testClient();
    const ids: number[] = [];
    for await (const booking of client.admin.bookings.list({ status: 'confirmed', page_size: 2 })) {
      ids.push((booking as { booking_id: number }).booking_id);
    }
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(requested).toEqual([
      '?status=confirmed&page_size=2&page=1',
      '?status=confirmed&page_size=2&page=2',
      '?status=confirmed&page_size=2&page=3',
    ]);
  });

  it('fetches lazily: breaking early stops fetching', async () => {
    let fetched = 0;
    const items = paginate(async (page) => {
      fetched++;
      return { items: [page * 10, page * 10 + 1], total: 100, page, page_size: 2 };
    });
    for await (const item of items) if (item === 21) break;
    expect(fetched).toBe(2);
  });

  it('stops on an empty page even when total is wrong, and exposes pages()', async () => {
    const pages = await collect(
      paginate(async (page) => ({
        items: page === 1 ? ['a', 'b'] : [],
        total: 999,
        page,
        page_size: 2,
      })).pages(),
    );
    expect(pages.map((p) => p.items)).toEqual([['a', 'b'], []]);
  });

  it('an estimated total below the real count does not stop the walk; has_more: false does', async () => {
    const ids = await collect(
      paginate(async (page) => ({
        items: [page * 2 - 1, page * 2],
        total: 4,
        total_estimated: true,
        has_more: page < 3,
        page,
        page_size: 2,
      })),
    );
    expect(ids).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
