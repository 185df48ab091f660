import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Role } from '../internal/roles.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T = unknown> = ColumnType<T, string, string>;
/** A column the database fills when the insert leaves it out. */
type WithDefault<T> = ColumnType<T, T | undefined, T>;

export type CompanyStatus = 'active' | 'suspended' | 'deleted';
export type UserStatus = 'active' | 'pending' | 'suspended' | 'inactive';

export interface CompaniesTable {
  id: Generated<number>;
  company_name: string;
  company_code: string;
  company_type: WithDefault<string>;
  contact_email: string;
  contact_phone: string | null;
  currency: WithDefault<string>;
  credit_limit_minor: ColumnType<number, number | undefined, number>;
  address: Json<Record<string, unknown> | null> | null;
  parent_company_id: number | null;
  settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  status: ColumnType<CompanyStatus, CompanyStatus | undefined, CompanyStatus>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  full_name: string;
  role: Role;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  company_id: number | null;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  phone: string | null;
  department: string | null;
  user_code: string | null;
  email_verified_at: Timestamp | null;
  suspended_until: Timestamp | null;
  status_reason: string | null;
  last_login_at: Timestamp | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface InvitationsTable {
  code: string;
  email: string;
  role: string;
  company_id: number | null;
  invited_by: string | null;
  full_name: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  used_by: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface RefreshTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  family_id: string;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  replaced_by: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: ColumnType<Date, Date | string | undefined, never>;
  actor_id: string | null;
  actor_role: string | null;
  impersonator_id: string | null;
  company_id: number | null;
  entity_type: string;
  entity_id: string;
  action: string;
  reason: string | null;
  changes: Json<Record<string, unknown> | null> | null;
  request_id: string | null;
  ip: string | null;
  /** The API key behind the change when the caller used one (migration 0080); bigint, read as a string. */
  api_key_id: ColumnType<string | number | null, number | null | undefined, number | null>;
}

export interface IdempotencyKeysTable {
  scope: string;
  caller: string;
  operation_id: string;
  idem_key: string;
  request_hash: string;
  status: 'in_progress' | 'completed';
  response_status: number | null;
  response_body: Json<unknown> | null;
  response_headers: Json<Record<string, string>> | null;
  created_at: Timestamp;
  locked_until: Timestamp;
  completed_at: Timestamp | null;
  /** The request holding the lease while in progress (migration 0061). */
  lease_owner: string | null;
}

export interface RateLimitCountersTable {
  bucket: string;
  window_start: Timestamp;
  hits: number;
  expires_at: Timestamp;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: string;
  queue: string;
  payload: Json<unknown>;
  dedupe_key: string | null;
  run_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  max_attempts: ColumnType<number, number | undefined, number>;
  locked_at: Timestamp | null;
  locked_by: string | null;
  last_error: string | null;
  status: ColumnType<JobStatus, JobStatus | undefined, JobStatus>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/**
 * The kernel's tables. Other domains declare their own table interfaces and widen the handle with
 * `db.withTables<BookingTables>()`: one database, typed per domain.
 */
export interface KernelTables {
  companies: CompaniesTable;
  users: UsersTable;
  invitations: InvitationsTable;
  refresh_tokens: RefreshTokensTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limit_counters: RateLimitCountersTable;
  jobs: JobsTable;
}

export type Db = Kysely<KernelTables>;
/** JSON columns are written as text; this keeps call sites honest about it. */
export const json = (value: unknown): string => JSON.stringify(value);
