/**
 * The rows of the other lists for `scale.ts` (issue 31), N of each, in SQL: companies (company 1 is the
 * sandbox agency, which the first-start seed then adopts by its code), users, clients, wallet transactions
 * and error logs. The sandbox agent's company holds a fifth of the clients and the ledger; the rest is
 * spread over companies 2..200. Names repeat the bookings' travellers (`Khan77`), so `search=` finds a few.
 */
import { sql } from 'kysely';
import type { Db } from '../src/storage/schema.ts';

const FIRST = sql`(array['Ayesha','Omar','Sara','Li','Maria','John','Fatima','Chen','Priya','Ali'])[1 + g % 10]`;
const LAST = sql`(array['Khan','Rahman','Smith','Garcia','Wang','Patel','Haddad','Silva','Novak','Okafor'])
  [1 + (g / 10) % 10] || (g % 997)::text`;
/** A spread over the last year, the same for every table. */
const AT = sql`now() - ((g::bigint * 104729) % 31536000) * interval '1 second'`;
const COMPANY = sql`case when g % 5 = 0 then 1 else 2 + g % 199 end`;

/** Company 1 (the sandbox agency) before anything else, so its id is 1. */
export async function sandboxCompany(db: Db) {
  await sql`
    insert into companies (company_name, company_code, company_type, contact_email, currency)
    values ('Sandbox Travel Agency', 'SANDBOX', 'travel_agency', 'agent@sandbox.travel', 'GBP')`.execute(db);
}

/** Rows `from`..`to` (inclusive) of every table; companies first, which the others reference. */
export async function generateAccounts(db: Db, from: number, to: number) {
  const g = sql`generate_series(${from}::int, ${to}::int) g`;
  await sql`
    insert into companies (company_name, company_code, company_type, contact_email, currency, status,
      created_at, updated_at)
    select ${LAST} || ' Travel', 'BENCH' || g, 'travel_agency', 'office' || g || '@example.test', 'GBP',
      (array['active','active','active','active','suspended'])[1 + g % 5], ${AT}, ${AT}
    from ${g}`.execute(db);
  await sql`
    insert into users (id, email, password_hash, full_name, role, status, company_id, last_login_at,
      created_at, updated_at)
    select 'bench-u' || g, 'user' || g || '@example.test', 'x', ${FIRST} || ' ' || ${LAST},
      (array['company_staff','company_staff','company_admin','customer'])[1 + g % 4], 'active',
      case when g % 4 = 3 then null else ${COMPANY} end,
      case when g % 3 = 0 then null else ${AT} + interval '1 day' end, ${AT}, ${AT}
    from ${g}`.execute(db);
  await sql`
    insert into clients (company_id, email, full_name, client_type, company_name, created_at, updated_at)
    select ${COMPANY}, 'client' || g || '@example.test', ${FIRST} || ' ' || ${LAST},
      (array['traveler','traveler','traveler','sub_agent','corporate'])[1 + g % 5],
      case when g % 5 = 4 then 'Corp ' || g end, ${AT}, ${AT}
    from ${g}`.execute(db);
  await sql`
    insert into wallet_transactions (company_id, type, amount_minor, currency, balance_after_minor,
      description, created_at)
    select ${COMPANY}, case when g % 3 = 0 then 'credit' else 'debit' end, 100 + g % 9000, 'GBP', g,
      'bench ' || g, ${AT}
    from ${g}`.execute(db);
  await sql`
    insert into error_logs (stage, provider, code, message, created_at)
    select (array['search','pricing','booking','payment','ticketing'])[1 + g % 5],
      (array['amadeus','duffel','mystifly'])[1 + g % 3], 'E' || g % 50, 'supplier said no (' || g || ')', ${AT}
    from ${g}`.execute(db);
}

export const ACCOUNT_TABLES = ['companies', 'users', 'clients', 'wallet_transactions', 'error_logs'];
