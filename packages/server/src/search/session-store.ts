/** Search sessions: who started them, with what, and how far they got. 404 unknown, 410 expired. */
import { gone, notFound } from '../kernel/errors.ts';
import type { AuthContext } from '../kernel/types.ts';
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
