/**
 * The flight booking lists at scale (issue 31): keyset paging with `starting_after` (ties broken by id),
 * search over the trigram-indexed text, the bounded `total` and its `total_estimated` flag. On PGlite and
 * on PostgreSQL (TEST_DATABASE_URL).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listBookings, pageQuery } from '../../src/domains/flight-booking/list-query.ts';
import { TOTAL_EXACT_UP_TO } from '../../src/storage/bounded-total.ts';
import { expectOp, type Harness, harness } from './harness.ts';

let t: Harness;
let a: number;
let b: number;
let staffA: { id: string; token: string };
let adminB: { id: string; token: string };
const mine: number[] = [];
beforeAll(async () => {
  t = await harness();
  a = await t.company('LSA');
  b = await t.company('LSB');
  staffA = await t.user({ role: 'company_staff', companyId: a });
  adminB = await t.user({ role: 'company_admin', companyId: b });
  // 23 bookings at one instant (every created_at ties), totals in three tied groups, some deadlines null.
  for (let i = 0; i < 23; i += 1) {
    mine.push(
      await t.booking({
        userId: staffA.id,
        companyId: a,
        total: 100 * (1 + (i % 3)),
        status: i % 4 === 0 ? 'on_hold' : 'confirmed',
        email: i === 5 ? 'Grace.Hopper@navy.example' : `agent${i}@example.org`,
        ...(i % 2 ? { deadline: new Date(Date.UTC(2026, 11, 1 + (i % 5))) } : {}),
      }),
    );
  }
  await t.booking({ userId: adminB.id, companyId: b, email: 'grace.hopper@navy.example' });
});
afterAll(() => t.close());

type Item = {
  booking_id: number;
  status: string;
  pricing: { total_minor: number };
  ticketing_deadline: string | null;
};

async function walk(path: string, token: string, size: number) {
  const byCursor: number[] = [];
  let after: number | undefined;
  for (let n = 0; n < 50; n += 1) {
    const sep = path.includes('?') ? '&' : '?';
    const url = `${path}${sep}page_size=${size}${after ? `&starting_after=${after}` : ''}`;
    const r = await t.request('GET', url, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const ids = (r.body.items as Item[]).map((x) => x.booking_id);
    byCursor.push(...ids);
    if (!r.body.has_more) break;
    after = ids.at(-1);
  }
  const byPage: Item[] = [];
  for (let page = 1; page < 50; page += 1) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await t.request('GET', `${path}${sep}page_size=${size}&page=${page}`, { token });
    byPage.push(...(r.body.items as Item[]));
    if (!r.body.has_more) break;
  }
  return { byCursor, byPage };
}

describe('flight booking lists: keyset paging', () => {
  test('company list by created_at: every booking once, ties in id order, same as page numbers', async () => {
    const { byCursor, byPage } = await walk('/api/v1/company/bookings', staffA.token, 5);
    expect(byCursor).toEqual([...mine].reverse());
    expect(byPage.map((x) => x.booking_id)).toEqual(byCursor);
  });

  test('sort by total (tied groups) ascending, by status and by deadline (nulls) agree with page numbers', async () => {
    for (const sort of ['total_minor', 'status', 'ticketing_deadline']) {
      for (const order of ['asc', 'desc']) {
        const { byCursor, byPage } = await walk(
          `/api/v1/company/bookings?sort_by=${sort}&sort_order=${order}`,
          staffA.token,
          4,
        );
        expect(new Set(byCursor).size).toBe(mine.length);
        expect(byPage.map((x) => x.booking_id)).toEqual(byCursor);
      }
    }
    const { byPage } = await walk(
      '/api/v1/company/bookings?sort_by=total_minor&sort_order=asc',
      staffA.token,
      4,
    );
    const keys = byPage.map((x) => [x.pricing.total_minor, x.booking_id] as const);
    const sorted = [...keys].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    expect(keys).toEqual(sorted);
    const deadlines = (await walk('/api/v1/company/bookings?sort_by=ticketing_deadline', staffA.token, 4))
      .byPage;
    // Descending puts the bookings without a deadline first, as PostgreSQL orders nulls.
    expect(deadlines.slice(0, 12).every((x) => x.ticketing_deadline === null)).toBe(true);
    expect(deadlines.slice(12).every((x) => x.ticketing_deadline !== null)).toBe(true);
  });

  test('a filter keeps the cursor within it; another company’s booking as cursor gives an empty page', async () => {
    const held = mine.filter((_, i) => i % 4 === 0).reverse();
    const { byCursor } = await walk('/api/v1/company/bookings?status=on_hold', staffA.token, 2);
    expect(byCursor).toEqual(held);
    const other = await t.booking({ userId: adminB.id, companyId: b });
    const r = expectOp(
      'companyListBookings',
      await t.request('GET', `/api/v1/company/bookings?starting_after=${other}`, { token: staffA.token }),
      200,
    );
    expect(r.items).toEqual([]);
    expect(r.has_more).toBe(false);
  });

  test('the super admin’s list (no company) and the customer list take the cursor too', async () => {
    const all: number[] = [];
    let after: number | undefined;
    for (;;) {
      const r = await listBookings(t.database.db, {
        page: 1,
        page_size: 7,
        ...(after ? { starting_after: after } : {}),
      });
      all.push(...r.items.map((x) => x.id));
      if (!r.has_more) break;
      after = all.at(-1);
    }
    expect(all.filter((id) => mine.includes(id))).toEqual([...mine].reverse());
    expect(new Set(all).size).toBe(all.length);
    const customer = await t.user({ role: 'customer' });
    const own: number[] = [];
    for (let i = 0; i < 7; i += 1) own.push(await t.booking({ userId: customer.id, companyId: null }));
    const cust = await walk('/api/v1/customer/bookings', customer.token, 3);
    expect(cust.byCursor).toEqual([...own].reverse());
  });
});

describe('flight booking lists: search and total', () => {
  test('search matches email, passenger name, PNR and id case-insensitively, within the company', async () => {
    const search = async (q: string) =>
      expectOp(
        'companyListBookings',
        await t.request('GET', `/api/v1/company/bookings?search=${encodeURIComponent(q)}`, {
          token: staffA.token,
        }),
        200,
      );
    expect((await search('HOPPER@navy')).items.map((x: Item) => x.booking_id)).toEqual([mine[5]]);
    expect((await search('lovelace')).total).toBe(mine.length);
    expect((await search(String(mine[7]))).items.map((x: Item) => x.booking_id)).toContain(mine[7]);
    // A LIKE wildcard in the search is a literal character: nothing contains "%".
    expect((await search('%')).total).toBe(0);
    expect((await search('a_e')).total).toBe(0);
  });

  test('total is exact up to the bound and flagged as estimated beyond it', async () => {
    const exact = expectOp(
      'companyListBookings',
      await t.request('GET', '/api/v1/company/bookings?page_size=1', { token: staffA.token }),
      200,
    );
    expect(exact.total).toBe(mine.length);
    expect(exact.total_estimated).toBe(false);
    const c = await t.company('LSC');
    const u = await t.user({ role: 'company_admin', companyId: c });
    await sql`
      insert into flight_bookings (pnr, status, payment_mode, supplier, client_reference, offer_id, offer,
        passengers, contact, flights, pricing, user_id, company_id, created_at, updated_at)
      select null, 'confirmed', 'PNR_FIRST', 'duffel', 'bulk-' || g, 'off', '{}'::jsonb,
        '[{"passenger_id":"1","type":"ADT","first_name":"Bulk","last_name":"Row","gender":"F","date_of_birth":"1990-01-01"}]'::jsonb,
        '{"email":"bulk@example.org","phone":"+447700900123"}'::jsonb, '[]'::jsonb,
        '{"currency":"GBP","base_minor":80,"taxes_minor":10,"markup_minor":10,"bags_minor":0,"total_minor":100}'::jsonb, ${u.id}, ${c},
        now() - g * interval '1 minute', now()
      from generate_series(1, ${TOTAL_EXACT_UP_TO + 50}) g`.execute(t.database.db);
    await sql`analyze flight_bookings`.execute(t.database.db);
    const big = expectOp(
      'companyListBookings',
      await t.request('GET', '/api/v1/company/bookings?page_size=3', { token: u.token }),
      200,
    );
    expect(big.total_estimated).toBe(true);
    expect(big.total).toBeGreaterThan(TOTAL_EXACT_UP_TO);
    expect(big.items).toHaveLength(3);
    expect(big.has_more).toBe(true);
    const narrow = expectOp(
      'companyListBookings',
      await t.request('GET', '/api/v1/company/bookings?date_from=2000-01-01&date_to=2000-01-02', {
        token: u.token,
      }),
      200,
    );
    expect(narrow).toMatchObject({ total: 0, total_estimated: false, has_more: false });
  });

  test('the company page, its keyset and the search are served by indexes (no sort, no seq scan)', async () => {
    const plan = async (f: Parameters<typeof pageQuery>[1]) => {
      const c = pageQuery(t.database.db, f).rows.compile();
      return t.database.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        // A handful of rows: the company index with a filter is as cheap as the trigram index. Without
        // plain index scans, the plan shows whether the search expression matches the trigram index.
        if (f.search) await sql`set local enable_indexscan = off`.execute(trx);
        const r = await trx.executeQuery(
          (await import('kysely')).CompiledQuery.raw(`explain ${c.sql}`, [...c.parameters]),
        );
        return r.rows.map((x) => Object.values(x as object)[0]).join('\n');
      });
    };
    const p1 = await plan({ page: 1, page_size: 20, company_id: a, sort_by: 'total_minor' });
    expect(p1).toContain('flight_bookings_list_co_total');
    expect(p1).not.toMatch(/\bSort\b/);
    const p2 = await plan({ page: 1, page_size: 20, starting_after: mine[3], sort_by: 'created_at' });
    expect(p2).toContain('flight_bookings_list_created');
    expect(p2).not.toMatch(/\bSort\b/);
    const p3 = await plan({ page: 1, page_size: 20, search: 'hopper' });
    expect(p3, p3).toContain('flight_bookings_list_search');
  });
});

describe('audit list: keyset paging', () => {
  test('walking by starting_after gives every entry once, newest first, ties at one instant by id', async () => {
    const admin = await t.user({ role: 'super_admin' });
    await sql`
      insert into audit_log (at, entity_type, entity_id, action)
      select timestamptz '2026-01-01T00:00:00Z' + (g / 3) * interval '1 second', 'bench', g::text, 'walked'
      from generate_series(1, 11) g`.execute(t.database.db);
    const ids: number[] = [];
    let after: number | undefined;
    for (let n = 0; n < 10; n += 1) {
      const r = expectOp(
        'adminGetAuditLog',
        await t.request(
          'GET',
          `/api/v1/admin/reports/audit?event=bench.walked&page_size=4${after ? `&starting_after=${after}` : ''}`,
          { token: admin.token },
        ),
        200,
      );
      expect(r.total).toBe(11);
      expect(r.total_estimated).toBe(false);
      ids.push(...r.items.map((x: { audit_id: number }) => x.audit_id));
      if (!r.has_more) break;
      after = ids.at(-1);
    }
    expect(ids).toHaveLength(11);
    expect([...ids].sort((x, y) => y - x)).toEqual(ids);
  });
});
