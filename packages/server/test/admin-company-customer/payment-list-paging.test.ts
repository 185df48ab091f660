/**
 * The payment lists with keyset pages (issue 31): admin (every sort, the filters) and customer (own
 * payments). Each walks every payment once with `starting_after` in the order of its sort (ties broken by
 * id), agrees with `page` numbers, keeps its filters; a cursor from outside the caller's tenant gives an
 * empty page; `total` is exact up to the bound and flagged estimated above it (LIST_TOTAL_EXACT_UP_TO set
 * low). On PGlite and on PostgreSQL (TEST_DATABASE_URL).
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { expectOp, type Harness, harness } from './harness.ts';

let t: Harness;
let a: number;
let b: number;
let root: { id: string; token: string };
let me: { id: string; token: string };
let other: { id: string; token: string };
/** booking id -> its company (null for a customer's own booking) and user. */
const owner = new Map<number, { company: number | null; user: string }>();
const AT = '2026-06-01T10:00:00Z';

beforeAll(async () => {
  t = await harness();
  a = await t.company('PLA');
  b = await t.company('PLB');
  root = await t.user({ role: 'super_admin' });
  me = await t.user({ role: 'customer' });
  other = await t.user({ role: 'customer' });
  const staff = await t.user({ role: 'company_staff', companyId: a });
  const staffB = await t.user({ role: 'company_staff', companyId: b });
  const tenants: { company: number | null; user: string; n: number }[] = [
    { company: a, user: staff.id, n: 14 },
    { company: null, user: me.id, n: 9 },
    { company: null, user: other.id, n: 2 },
    { company: b, user: staffB.id, n: 2 },
  ];
  for (const o of tenants) {
    for (let i = 0; i < o.n; i += 1) {
      const id = await t.booking({ userId: o.user, companyId: o.company });
      owner.set(id, { company: o.company, user: o.user });
    }
  }
  // One payment per booking: two created_at instants, three amounts, four states (ties in every sort).
  await sql`
    insert into booking_payments (booking_id, state, amount_minor, captured_minor, currency, provider,
      created_at, updated_at)
    select g, (array['CAPTURED','AUTHORIZED','FAILED','SETTLED'])[1 + g % 4], 1000 * (1 + g % 3),
      case when g % 4 in (0, 3) then 1000 * (1 + g % 3) else 0 end, 'GBP', 'stripe',
      ${AT}::timestamptz + (g % 2) * interval '1 hour', ${AT}::timestamptz + (g % 5) * interval '1 minute'
    from unnest(${[...owner.keys()]}::bigint[]) g`.execute(t.database.db);
  await sql`analyze booking_payments`.execute(t.database.db);
});
afterAll(() => t.close());
afterEach(() => {
  delete process.env.LIST_TOTAL_EXACT_UP_TO;
});

type Item = Record<string, unknown>;

/** The whole list twice: by `starting_after` and by page numbers, `size` a page. */
async function walk(path: string, token: string, size: number) {
  const sep = path.includes('?') ? '&' : '?';
  const byCursor: Item[] = [];
  let after: unknown;
  for (let n = 0; n < 100; n += 1) {
    const cursor = after === undefined ? '' : `&starting_after=${after}`;
    const r = await t.request('GET', `${path}${sep}page_size=${size}${cursor}`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    byCursor.push(...(r.body.items as Item[]));
    if (!r.body.has_more) break;
    after = (r.body.items as Item[]).at(-1)?.payment_id;
  }
  const byPage: Item[] = [];
  for (let page = 1; page < 100; page += 1) {
    const r = await t.request('GET', `${path}${sep}page_size=${size}&page=${page}`, { token });
    byPage.push(...(r.body.items as Item[]));
    if (!r.body.has_more) break;
  }
  expect(byPage.map((x) => x.payment_id)).toEqual(byCursor.map((x) => x.payment_id));
  expect(new Set(byCursor.map((x) => x.payment_id)).size).toBe(byCursor.length);
  return byCursor;
}

const cmp = (x: unknown, y: unknown) => (x === y ? 0 : (x as never) < (y as never) ? -1 : 1);
/** Sorted by `key`, then the id, both in `dir`. */
const sortedBy = (items: Item[], key: string, dir: 'asc' | 'desc') =>
  [...items].sort((p, q) => {
    const c = cmp(p[key], q[key]) || cmp(p.payment_id, q.payment_id);
    return dir === 'asc' ? c : -c;
  });
const ids = (items: Item[]) => items.map((x) => x.payment_id);
const of = (items: Item[], f: (o: { company: number | null; user: string }) => boolean) =>
  items.filter((x) => f(owner.get(x.booking_id as number) as never));

async function page(path: string, token: string) {
  const r = await t.request('GET', path, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { total: number; total_estimated: boolean; has_more: boolean; items: Item[] };
}

describe('admin payments', () => {
  const path = '/api/v1/admin/payments';
  test('every sort: each payment once, in order, ties by id; cursor walk equals page walk', async () => {
    const all = await walk(path, root.token, 4);
    expect(all).toHaveLength(27);
    expect(ids(all)).toEqual(ids(sortedBy(all, 'created_at', 'desc')));
    expect(all[0]?.created_at).not.toBe(all.at(-1)?.created_at);
    for (const [sort, dir] of [
      ['created_at', 'asc'],
      ['updated_at', 'desc'],
      ['amount_minor', 'asc'],
      ['amount_minor', 'desc'],
      ['state', 'asc'],
    ] as const) {
      const items = await walk(`${path}?sort_by=${sort}&sort_order=${dir}`, root.token, 5);
      expect(ids(items), `${sort} ${dir}`).toEqual(ids(sortedBy(all, sort, dir)));
    }
  });
  test('filters keep the cursor within them; another company’s payment as cursor gives nothing', async () => {
    const all = await walk(path, root.token, 10);
    const coA = await walk(`${path}?company_id=${a}&sort_by=amount_minor`, root.token, 3);
    expect(ids(coA)).toEqual(
      ids(
        sortedBy(
          of(all, (o) => o.company === a),
          'amount_minor',
          'desc',
        ),
      ),
    );
    expect(coA).toHaveLength(14);
    const failed = await walk(`${path}?payment_state=FAILED`, root.token, 2);
    expect(ids(failed)).toEqual(ids(all.filter((x) => x.state === 'FAILED')));
    expect(failed.length).toBeGreaterThan(2);
    const day = await walk(`${path}?date_from=2026-06-01&date_to=2026-06-01`, root.token, 7);
    expect(ids(day)).toEqual(ids(all));
    expect((await page(`${path}?date_from=2026-06-02`, root.token)).items).toEqual([]);
    const fromB = of(all, (o) => o.company === b)[0]?.payment_id;
    const r = await page(`${path}?company_id=${a}&starting_after=${fromB}`, root.token);
    expect(r.items).toEqual([]);
    // Without the company filter the same cursor seeks: the page after it.
    const after = await page(`${path}?starting_after=${fromB}&page_size=100`, root.token);
    expect(ids(after.items)).toEqual(ids(all.slice(all.findIndex((x) => x.payment_id === fromB) + 1)));
  });
  test('total: exact under the bound, estimated above it', async () => {
    process.env.LIST_TOTAL_EXACT_UP_TO = '5';
    expect(await page(`${path}?company_id=${b}`, root.token)).toMatchObject({
      total: 2,
      total_estimated: false,
      has_more: false,
    });
    const big = expectOp(
      'adminListPayments',
      await t.request('GET', `${path}?page_size=3`, { token: root.token }),
      200,
    );
    expect(big).toMatchObject({ total_estimated: true, has_more: true, page: 1, page_size: 3 });
    expect(big.total).toBeGreaterThan(5);
  });
});

describe('customer payments', () => {
  const path = '/api/v1/customer/payments';
  test('own payments only, newest first; another customer’s payment as cursor gives nothing', async () => {
    const mine = await walk(path, me.token, 2);
    expect(mine).toHaveLength(9);
    expect(mine.every((x) => owner.get(x.booking_id as number)?.user === me.id)).toBe(true);
    expect(ids(mine)).toEqual(ids(sortedBy(mine, 'created_at', 'desc')));
    const theirs = await page(path, other.token);
    expect(theirs.items).toHaveLength(2);
    const r = await page(`${path}?starting_after=${theirs.items[0]?.payment_id}`, me.token);
    expect(r.items).toEqual([]);
    const own = await page(`${path}?starting_after=${mine[3]?.payment_id}&page_size=100`, me.token);
    expect(ids(own.items)).toEqual(ids(mine.slice(4)));
  });
  test('total: exact under the bound, estimated above it', async () => {
    process.env.LIST_TOTAL_EXACT_UP_TO = '3';
    expect(await page(path, other.token)).toMatchObject({ total: 2, total_estimated: false });
    const big = expectOp(
      'customerListPayments',
      await t.request('GET', `${path}?page_size=2`, { token: me.token }),
      200,
    );
    expect(big).toMatchObject({ total_estimated: true, has_more: true });
    expect(big.total).toBeGreaterThan(3);
  });
});
