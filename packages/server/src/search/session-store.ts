/** Search sessions: who started them, with what, and how far they got. 404 unknown, 410 expired. */
import { type Expression, sql } from 'kysely';
import { jobStatements } from '../jobs/statements.ts';
import { gone, notFound } from '../kernel/errors.ts';
import type { AuthContext } from '../kernel/types.ts';
import { param, prepared } from '../storage/prepared.ts';
import type { Db } from '../storage/schema.ts';
import { parseJson, type SearchStatus, searchDb, type Vertical } from './tables.ts';

export interface SearchSession {
  id: string;
  vertical: Vertical;
  status: SearchStatus;
  user_id: string;
  company_id: number | null;
  request: Record<string, unknown>;
  suppliers: string[];
  total_suppliers: number;
  completed_suppliers: number;
  total_offers: number;
  created_at: Date;
  expires_at: Date;
  finished_at: Date | null;
}

/** Who is reading: the caller's user, company and role (what decides which searches they see). */
export type Caller = Pick<AuthContext, 'userId' | 'companyId' | 'role'>;

export const FINAL_STATUSES: readonly SearchStatus[] = ['completed', 'partial', 'failed'];
export const isFinal = (s: SearchStatus): boolean => FINAL_STATUSES.includes(s);

/**
 * The same rule as bookings (booking/store.ts `canSee`): a super_admin sees every search; company staff
 * and admins their company's; a customer, or anyone without a company, only their own. Customers attached
 * to a company (self-registration with a company_code) are separate travellers, so a colleague's search,
 * and the offers in it, are as unknown to them as a missing one.
 */
export function canRead(caller: Caller, s: Pick<SearchSession, 'user_id' | 'company_id'>): boolean {
  if (caller.role === 'super_admin') return true;
  if (s.user_id === caller.userId) return true;
  if (caller.role === 'customer' || caller.companyId === null) return false;
  return s.company_id !== null && s.company_id === caller.companyId;
}

export async function findSession(db: Db, id: string): Promise<SearchSession | undefined> {
  const row = await searchDb(db)
    .selectFrom('search_sessions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    request: parseJson(row.request),
    suppliers: parseJson(row.suppliers),
    created_at: new Date(row.created_at),
    expires_at: new Date(row.expires_at),
    finished_at: row.finished_at ? new Date(row.finished_at) : null,
  };
}

/**
 * The session a caller may read, of the given vertical. Another tenant's search, or a search id of
 * another vertical, is exactly as unknown as a missing one.
 */
export async function readableSession(
  db: Db,
  id: string,
  caller: Caller,
  vertical: Vertical,
  now: Date,
): Promise<SearchSession> {
  const s = await findSession(db, id);
  assertReadable(s, caller, vertical, now);
  return s;
}

/** What decides who may read a session: fixed when the session is made (nothing updates these columns). */
export type SessionIdentity = Pick<
  SearchSession,
  'id' | 'vertical' | 'user_id' | 'company_id' | 'expires_at'
>;

/** `readableSession`'s rule on a session already read: 404 unknown (or not the caller's), 410 expired. */
export function assertReadable<S extends SessionIdentity>(
  s: S | undefined,
  caller: Caller,
  vertical: Vertical,
  now: Date,
): asserts s is S {
  if (!s || s.vertical !== vertical || !canRead(caller, s)) {
    throw notFound('search_not_found', 'Search not found.');
  }
  if (s.expires_at.getTime() <= now.getTime())
    throw gone('search_expired', 'This search has expired; start a new one.');
}

/** The caller's `users` row as far as user codes go (undefined: no such row). */
export type CodeOwner = { user_code: string | null; email: string } | undefined;

/**
 * A user code the search names, which the caller's `users` row must name (contracts section 5). Codes
 * can change at any time, so it is checked against the row in the statement that records the session
 * (`recordSession`), not read before it: the statement inserts only when the row names the code, compared
 * with ASCII case folding (a match there is a match of `confirm`'s rule too). When it inserted nothing,
 * `confirm` decides on the row the same statement read: it throws the refusal, or (a code that differs
 * only in the case of a non-ASCII letter) returns, and the session is recorded without the check.
 */
export interface OwnUserCode {
  code: string;
  /** The code names the caller without the row: their id or their token's e-mail. */
  namesCaller: boolean;
  /** The full rule on the row as read: throws when the code is not the caller's. */
  confirm(row: CodeOwner): void;
}

/** A new session: its row and the deadline job that closes it if the process running it dies. */
export interface NewSession {
  id: string;
  vertical: Vertical;
  userId: string;
  companyId: number | null;
  request: Record<string, unknown>;
  suppliers: string[];
  createdAt: Date;
  expiresAt: Date;
  jobId: string;
  jobQueue: string;
  /** When the deadline job runs. */
  deadline: Date;
}

/**
 * The session and its deadline job in one statement (one round trip, one commit; no search exists that
 * nobody would close), inserted only when the caller's `users` row names the user code (`$0` false: no
 * code to check). Without a `users` row (or without a user_code on it) the code must name the caller:
 * `$1`, or the row's e-mail. The row is answered either way, for `OwnUserCode.confirm`. Prepared
 * (`storage/prepared.ts`): parsed and planned once per connection.
 */
const insertSession = prepared<{
  id: string | null;
  job_id: string | null;
  found: boolean;
  user_code: string | null;
  email: string | null;
}>('search_session_insert', (db) => ({
  compile: () =>
    sql<{
      id: string | null;
      job_id: string | null;
      found: boolean;
      user_code: string | null;
      email: string | null;
    }>`
    with own as (
      select u.id is not null as found, u.user_code, u.email,
             case
               when not ${param(0)}::boolean then true
               when u.id is null then ${param(1)}::boolean
               when coalesce(u.user_code, '') <> ''
                 then lower(u.user_code collate "C") = lower((${param(2)}::text) collate "C")
               else ${param(1)}::boolean or lower(u.email collate "C") = lower((${param(2)}::text) collate "C")
             end as ok
        from (select 1) as one
        left join users u on ${param(0)}::boolean and u.id = ${param(3)}::text
    ), session as (
      insert into search_sessions
        (id, vertical, status, user_id, company_id, request, suppliers, total_suppliers, created_at, expires_at)
      select ${param(4)}::text, ${param(5)}::text, 'initiated', ${param(3)}::text, ${param(6)}::integer,
             ${param(7)}::jsonb, ${param(8)}::jsonb, ${param(9)}::integer, ${param(10)}::timestamptz,
             ${param(11)}::timestamptz
        from own where own.ok
      returning id
    ), job as ${jobStatements.enqueueEach('session', {
      id: param<Expression<string>>(12),
      queue: param<string>(13),
      payload: sql`jsonb_build_object('search_id', session.id)`,
      runAt: param<Date>(14),
    })}
    select (select id from session) as id, (select id from job) as job_id, own.found, own.user_code, own.email
      from own`.compile(db),
}));

const runInsert = (db: Db, s: NewSession, code: OwnUserCode | undefined) =>
  insertSession(
    db,
    code !== undefined,
    code?.namesCaller ?? false,
    code?.code ?? '',
    s.userId,
    s.id,
    s.vertical,
    s.companyId,
    JSON.stringify(s.request),
    JSON.stringify(s.suppliers),
    s.suppliers.length,
    s.createdAt,
    s.expiresAt,
    s.jobId,
    s.jobQueue,
    s.deadline,
  );

/**
 * Records a new session with its deadline job, when `code` (if any) is the caller's: one statement in
 * the common case; the refusal (whatever `confirm` throws) leaves nothing behind.
 */
export async function recordSession(db: Db, s: NewSession, code?: OwnUserCode): Promise<void> {
  let [row] = await runInsert(db, s, code);
  if (row?.id == null && code) {
    code.confirm(row?.found ? { user_code: row.user_code, email: row.email as string } : undefined);
    [row] = await runInsert(db, s, undefined);
  }
  if (row?.id == null || row.job_id == null) throw new Error(`search session ${s.id} was not recorded`);
}

/** `OwnUserCode.confirm` on the caller's row as it is now (a search that stops before recording a session). */
export async function confirmUserCode(db: Db, userId: string, code: OwnUserCode): Promise<void> {
  const row = await db
    .selectFrom('users')
    .select(['user_code', 'email'])
    .where('id', '=', userId)
    .executeTakeFirst();
  code.confirm(row);
}
