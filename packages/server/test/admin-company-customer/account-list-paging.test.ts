/**
 * The lists beside the booking lists at scale (issue 31): company clients, the wallet ledger, the error
 * log, admin users and admin companies. Each walks every row once with `starting_after` in the order of
 * its sort (ties broken by id), agrees with `page` numbers, keeps its filters, and has a `total` that is
 * exact up to the bound and flagged estimated above it (the bound set low with LIST_TOTAL_EXACT_UP_TO).
 * On PGlite and on PostgreSQL (TEST_DATABASE_URL).
 */
import { CompiledQuery, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { COMPANY_SEARCH } from '../../src/domains/admin/companies.ts';
import { USER_SEARCH } from '../../src/domains/admin/users.ts';
import { CLIENT_SEARCH } from '../../src/domains/company/clients.ts';
import { expectOp, type Harness, harness } from './harness.ts';

let t: Harness;
let a: number;
let b: number;
let coAdmin: { id: string; token: string };
let otherAdmin: { id: string; token: string };
let root: { id: string; token: string };
const AT = '2026-06-01T10:00:00Z';

beforeAll(async () => {
  t = await harness();
  a = await t.company('KLA');
  b = await t.company('KLB');
  coAdmin = await t.user({ role: 'company_admin', companyId: a });
  otherAdmin = await t.user({ role: 'company_admin', companyId: b });
  root = await t.user({ role: 'super_admin' });
  const db = t.database.db;
  // 23 clients created at one instant (created_at ties everywhere), every third a corporate one.
  await sql`
    insert into clients (company_id, email, full_name, client_type, company_name, created_at, updated_at)
    select ${a}, 'client' || g || '@example.org', 'Client ' || (g % 4),
      case when g % 3 = 0 then 'corporate' else 'traveler' end,
      case when g = 7 then 'Hopper & Co' end, ${AT}::timestamptz, ${AT}::timestamptz
    from generate_series(1, 23) g`.execute(db);
  await sql`insert into clients (company_id, email, full_name, created_at) values (${b}, 'b@example.org', 'Hopper B', ${AT}::timestamptz)`.execute(
    db,
  );
  await sql`
    insert into wallet_transactions (company_id, type, amount_minor, currency, balance_after_minor, description, created_at)
    select ${a}, case when g % 2 = 0 then 'debit' else 'credit' end, 100, 'GBP', 100 * g, 'row ' || g, ${AT}::timestamptz
    from generate_series(1, 17) g`.execute(db);
  await sql`
    insert into wallet_transactions (company_id, type, amount_minor, currency, balance_after_minor, description)
    values (${b}, 'credit', 100, 'GBP', 100, 'other')`.execute(db);
  // Error logs: two instants, so the order is (created_at desc, id desc) and not the id alone.
  await sql`
    insert into error_logs (stage, provider, code, message, created_at)
    select (array['search','booking','payment'])[1 + g % 3], case when g % 2 = 0 then 'duffel' else 'amadeus' end,
      'e' || g, 'failed', case when g % 5 = 0 then ${AT}::timestamptz + interval '1 hour' else ${AT}::timestamptz end
    from generate_series(1, 19) g`.execute(db);
  // 15 more users of company A: names in tied groups, some never logged in, logins tied in pairs.
  await sql`
    insert into users (id, email, password_hash, full_name, role, company_id, last_login_at, created_at, updated_at)
    select 'kl-user-' || lpad(g::text, 2, '0'), 'kl' || g || '@example.org', 'x', 'Name ' || (g % 3),
      'company_staff', ${a},
      case when g % 4 = 0 then null else ${AT}::timestamptz + (g / 2) * interval '1 minute' end,
      ${AT}::timestamptz, ${AT}::timestamptz
    from generate_series(1, 15) g`.execute(db);
  // 12 more companies, names in tied groups.
  await sql`
    insert into companies (company_name, company_code, contact_email, status, created_at, updated_at)
    select 'Agency ' || (g % 4), 'KLX' || g, 'c' || g || '@example.org',
      case when g % 3 = 0 then 'suspended' else 'active' end, ${AT}::timestamptz, ${AT}::timestamptz
    from generate_series(1, 12) g`.execute(db);
  for (const table of ['clients', 'wallet_transactions', 'error_logs', 'users', 'companies'])
    await sql`analyze ${sql.table(table)}`.execute(db);
});
afterAll(() => t.close());
afterEach(() => {
  delete process.env.LIST_TOTAL_EXACT_UP_TO;
});

type Item = Record<string, unknown>;

/** The whole list twice: by `starting_after` and by page numbers, `size` a page. */
async function walk(path: string, idKey: string, token: string, size: number) {
  const sep = path.includes('?') ? '&' : '?';
  const byCursor: Item[] = [];
  let after: unknown;
  for (let n = 0; n < 100; n += 1) {
    const cursor = after === undefined ? '' : `&starting_after=${encodeURIComponent(String(after))}`;
    const r = await t.request('GET', `${path}${sep}page_size=${size}${cursor}`, { token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    byCursor.push(...(r.body.items as Item[]));
    if (!r.body.has_more) break;
    after = (r.body.items as Item[]).at(-1)?.[idKey];
  }
  const byPage: Item[] = [];
  for (let page = 1; page < 100; page += 1) {
    const r = await t.request('GET', `${path}${sep}page_size=${size}&page=${page}`, { token });
    byPage.push(...(r.body.items as Item[]));
    if (!r.body.has_more) break;
  }
  expect(byPage.map((x) => x[idKey])).toEqual(byCursor.map((x) => x[idKey]));
  expect(new Set(byCursor.map((x) => x[idKey])).size).toBe(byCursor.length);
  return byCursor;
}

const cmp = (x: unknown, y: unknown) => (x === y ? 0 : (x as never) < (y as never) ? -1 : 1);
/** Sorted by the key columns in `dir`, the id last (the same direction). */
const sortedBy = (items: Item[], keys: ((i: Item) => unknown)[], dir: 'asc' | 'desc') =>
  [...items].sort((p, q) => {
    for (const k of keys) {
      const c = cmp(k(p), k(q));
      if (c) return dir === 'asc' ? c : -c;
    }
    return 0;
  });

async function total(path: string, token: string) {
  const r = await t.request('GET', path, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { total: number; total_estimated: boolean; has_more: boolean; items: Item[] };
}

describe('company clients', () => {
  const path = '/api/v1/company/clients';
  test('newest first, ties by id descending; filter and search keep the cursor within them', async () => {
    const all = await walk(path, 'client_id', coAdmin.token, 4);
    expect(all).toHaveLength(23);
    expect(all.map((x) => x.client_id)).toEqual(all.map((x) => x.client_id as number).sort((p, q) => q - p));
    const corp = await walk(`${path}?client_type=corporate`, 'client_id', coAdmin.token, 2);
    expect(corp.map((x) => x.client_id)).toEqual(
      all.filter((x) => x.client_type === 'corporate').map((x) => x.client_id),
    );
    expect(corp).toHaveLength(7);
    const hopper = await walk(`${path}?search=HOPPER%20%26`, 'client_id', coAdmin.token, 2);
    expect(hopper.map((x) => x.email)).toEqual(['client7@example.org']);
    expect((await total(`${path}?search=%25`, coAdmin.token)).total).toBe(0);
    const other = await t.request('GET', `${path}?page_size=1`, { token: otherAdmin.token });
    const r = await total(`${path}?starting_after=${other.body.items[0].client_id}`, coAdmin.token);
    expect(r.items).toEqual([]);
  });
  test('total: exact under the bound, estimated above it', async () => {
    process.env.LIST_TOTAL_EXACT_UP_TO = '10';
    expect(await total(`${path}?client_type=corporate`, coAdmin.token)).toMatchObject({
      total: 7,
      total_estimated: false,
    });
    const big = expectOp('companyListClients', await t.request('GET', path, { token: coAdmin.token }), 200);
    expect(big.total_estimated).toBe(true);
    expect(big.total).toBeGreaterThan(10);
  });
});

describe('company wallet transactions', () => {
  const path = '/api/v1/company/wallet/transactions';
  test('newest first by id; the type filter; another company’s row as cursor gives nothing', async () => {
    const all = await walk(path, 'transaction_id', coAdmin.token, 5);
    expect(all).toHaveLength(17);
    expect(all.map((x) => x.transaction_id)).toEqual(
      all.map((x) => x.transaction_id as number).sort((p, q) => q - p),
    );
    const debits = await walk(`${path}?transaction_type=debit`, 'transaction_id', coAdmin.token, 3);
    expect(debits.map((x) => x.transaction_id)).toEqual(
      all.filter((x) => x.type === 'debit').map((x) => x.transaction_id),
    );
    const other = await t.request('GET', path, { token: otherAdmin.token });
    const r = await total(`${path}?starting_after=${other.body.items[0].transaction_id}`, coAdmin.token);
    expect(r.items).toEqual([]);
  });
  test('total: exact under the bound, estimated above it', async () => {
    process.env.LIST_TOTAL_EXACT_UP_TO = '8';
    expect(await total(`${path}?transaction_type=debit`, coAdmin.token)).toMatchObject({
      total: 8,
      total_estimated: false,
    });
    const big = expectOp(
      'companyListWalletTransactions',
      await t.request('GET', `${path}?page_size=5`, { token: coAdmin.token }),
      200,
    );
    expect(big).toMatchObject({ total_estimated: true, has_more: true });
    expect(big.total).toBeGreaterThan(8);
  });
});

describe('admin error logs', () => {
  const path = '/api/v1/admin/system/error-logs';
  test('by (created_at, id) newest first; stage and provider filters', async () => {
    const all = await walk(path, 'error_id', root.token, 4);
    expect(all).toHaveLength(19);
    expect(all).toEqual(sortedBy(all, [(x) => x.created_at, (x) => x.error_id], 'desc'));
    expect(all[0]?.created_at).not.toBe(all.at(-1)?.created_at);
    const pay = await walk(`${path}?stage=payment&provider=duffel`, 'error_id', root.token, 2);
    expect(pay.map((x) => x.error_id)).toEqual(
      all.filter((x) => x.stage === 'payment' && x.provider === 'duffel').map((x) => x.error_id),
    );
  });
  test('total: exact under the bound, estimated above it', async () => {
    process.env.LIST_TOTAL_EXACT_UP_TO = '7';
    expect(await total(`${path}?stage=search`, root.token)).toMatchObject({
      total: 6,
      total_estimated: false,
    });
    const big = expectOp('adminListErrorLogs', await t.request('GET', path, { token: root.token }), 200);
    expect(big.total_estimated).toBe(true);
    expect(big.total).toBeGreaterThan(7);
  });
});

describe('admin users', () => {
  const path = `/api/v1/admin/users?company_id=${0}`;
  const of = () => path.replace('0', String(a));
  test('each sort in both directions walks every user once, ties by id', async () => {
    const login = (x: Item) => (x.last_login_at === null ? '' : String(x.last_login_at));
    for (const [sort, key] of [
      ['created_at', (x: Item) => x.created_at],
      ['email', (x: Item) => x.email],
      ['full_name', (x: Item) => x.full_name],
      ['last_login_at', login],
    ] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        const all = await walk(`${of()}&sort_by=${sort}&sort_order=${dir}`, 'user_id', root.token, 4);
        expect(all).toHaveLength(16);
        // Emails and ids compare as PostgreSQL's collation would for these ASCII strings.
        expect(all.map((x) => x.user_id)).toEqual(
          sortedBy(all, [key, (x) => x.user_id], dir).map((x) => x.user_id),
        );
      }
    }
    const names = await walk(`${of()}&search=NAME%202&sort_by=full_name`, 'user_id', root.token, 2);
    expect(names).toHaveLength(5);
    expect(names.every((x) => x.full_name === 'Name 2')).toBe(true);
  });
  test('total: exact under the bound, estimated above it', async () => {
    process.env.LIST_TOTAL_EXACT_UP_TO = '6';
    expect(await total(`${of()}&search=name%201`, root.token)).toMatchObject({
      total: 5,
      total_estimated: false,
    });
    const big = expectOp('adminListUsers', await t.request('GET', of(), { token: root.token }), 200);
    expect(big.total_estimated).toBe(true);
    expect(big.total).toBeGreaterThan(6);
  });
});

describe('admin companies', () => {
  const path = '/api/v1/admin/companies';
  test('each sort in both directions walks every company once, ties by id; status and search filters', async () => {
    for (const [sort, keys] of [
      ['created_at', [(x: Item) => x.created_at]],
      ['company_name', [(x: Item) => x.company_name]],
      ['company_code', [(x: Item) => x.company_code]],
      ['status', [(x: Item) => x.status, (x: Item) => x.created_at]],
    ] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        const all = await walk(`${path}?sort_by=${sort}&sort_order=${dir}`, 'company_id', root.token, 5);
        expect(all.length).toBeGreaterThanOrEqual(14);
        expect(all.map((x) => x.company_id)).toEqual(
          sortedBy(all, [...keys, (x) => x.company_id], dir).map((x) => x.company_id),
        );
      }
    }
    const susp = await walk(`${path}?status=suspended&search=klx`, 'company_id', root.token, 2);
    expect(susp.map((x) => x.company_code).sort()).toEqual(['KLX12', 'KLX3', 'KLX6', 'KLX9']);
  });
  test('total: exact under the bound, estimated above it', async () => {
    process.env.LIST_TOTAL_EXACT_UP_TO = '5';
    expect(await total(`${path}?status=suspended`, root.token)).toMatchObject({
      total: 4,
      total_estimated: false,
    });
    const big = expectOp('adminListCompanies', await t.request('GET', path, { token: root.token }), 200);
    expect(big.total_estimated).toBe(true);
    expect(big.total).toBeGreaterThan(5);
  });
});

test('the pages are served by the indexes of migrations 0230 and 0231 (no sort step)', async () => {
  const db = t.database.db;
  const plan = (text: string, ...params: unknown[]) =>
    db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const r = await trx.executeQuery(CompiledQuery.raw(`explain ${text}`, params));
      return r.rows.map((x) => Object.values(x as object)[0]).join('\n');
    });
  const clients = await plan(
    'select * from clients t where t.company_id = $1 order by t.created_at desc, t.id desc limit 21',
    a,
  );
  expect(clients).toContain('clients_list_co_created');
  expect(clients).not.toMatch(/\bSort\b/);
  const users = await plan('select * from users t order by t.email desc, t.id desc limit 21');
  expect(users).toContain('users_list_email');
  const logs = await plan(
    'select * from error_logs t where t.stage = $1 order by t.created_at desc, t.id desc limit 21',
    'search',
  );
  expect(logs).toContain('error_logs_list_stage');
  expect(logs).not.toMatch(/\bSort\b/);
  const payments = await plan(
    'select * from booking_payments p order by p.amount_minor desc, p.id desc limit 21',
  );
  expect(payments).toContain('booking_payments_list_amount');
  expect(payments).not.toMatch(/\bSort\b/);
  const rules = await plan(
    'select * from markup_rules where deleted_at is null order by priority desc, id limit 21',
  );
  expect(rules).toContain('markup_rules_list');
  expect(rules).not.toMatch(/\bSort\b/);
});

test('each search runs through its trigram index (the handler’s expression is the index’s)', async () => {
  const db = t.database.db;
  for (const [table, text, index] of [
    ['clients', CLIENT_SEARCH, 'clients_list_search'],
    ['users', USER_SEARCH, 'users_list_search'],
    ['companies', COMPANY_SEARCH, 'companies_list_search'],
  ] as const) {
    const c = db
      .selectFrom(`${table} as t` as 'users as t')
      .selectAll()
      .where(text, 'like', '%khan%')
      .compile();
    const plan = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_indexscan = off`.execute(trx);
      const r = await trx.executeQuery(CompiledQuery.raw(`explain ${c.sql}`, [...c.parameters]));
      return r.rows.map((x) => Object.values(x as object)[0]).join('\n');
    });
    expect(plan, plan).toContain(index);
  }
});

test('the company dashboard counts pending bookings per status, of its own company only', async () => {
  const now = t.clock.now().getTime();
  const mk = (status: string, companyId = a, deadline?: Date) =>
    t.booking({ userId: coAdmin.id, companyId, status, ...(deadline ? { deadline } : {}) });
  for (const s of ['payment_pending', 'payment_pending', 'paid', 'paid', 'paid', 'confirmed']) await mk(s);
  await mk('on_hold', a, new Date(now + 3_600_000));
  await mk('on_hold', a, new Date(now + 5 * 86_400_000));
  await mk('payment_pending', b);
  const d = expectOp(
    'companyGetDashboard',
    await t.request('GET', '/api/v1/company/reports/dashboard', { token: coAdmin.token }),
    200,
  );
  expect(d).toMatchObject({ pending_payment: 2, pending_ticketing: 3, on_hold_expiring: 1 });
});
