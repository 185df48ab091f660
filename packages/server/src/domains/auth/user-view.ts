import type { Selectable } from 'kysely';
import type { UsersTable } from '../../storage/schema.ts';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The contract's `User` shape. Never includes the password hash. */
export function userView(u: Selectable<UsersTable>, companyCode: string | null) {
  return {
    user_id: u.id,
    email: u.email,
    full_name: u.full_name,
    role: u.role,
    status: u.status,
    company_id: u.company_id,
    company_code: companyCode,
    user_code: u.user_code,
    is_active: u.is_active,
    email_verified: u.email_verified_at !== null,
    phone: u.phone,
    department: u.department,
    suspended_until: iso(u.suspended_until),
    last_login_at: iso(u.last_login_at),
    created_at: iso(u.created_at) as string,
    updated_at: iso(u.updated_at) as string,
  };
}
