/**
 * Table types of migration 0050 (admin, company and customer surfaces). `accountsDb(db)` widens the
 * kernel's handle with these, the booking tables and markup rules, so no kernel file needs to know them.
 */
import type { components } from '@travel/contract';
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Db, KernelTables } from '../../storage/schema.ts';

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
type JsonCol<T> = ColumnType<T, string | undefined, string>;
type DateCol = ColumnType<string | Date, string | undefined, string>;
type Schemas = components['schemas'];

export interface ClientsTable {
  id: Generated<number>;
  company_id: number;
  email: string;
  full_name: string;
  /** check constraint: the contract's ClientType (0050). */
  client_type: ColumnType<Schemas['ClientType'], Schemas['ClientType'] | undefined, Schemas['ClientType']>;
  phone: string | null;
  company_name: string | null;
  credit_limit_minor: number | null;
  notes: string | null;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Stamp;
  updated_at: Stamp;
}

export interface CompanyProfilesTable {
  company_id: number;
  logo_url: string | null;
  website: string | null;
  business_registration: string | null;
  iata_number: string | null;
  updated_at: Stamp;
}

export interface CompanyStaffTable {
  id: Generated<number>;
  company_id: number;
  user_id: string | null;
  email: string;
  permissions: JsonCol<string[]>;
  invited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  invited_by: string | null;
  invite_role: string | null;
  invite_full_name: string | null;
  invite_department: string | null;
  invite_phone: string | null;
  created_at: Stamp;
}

export interface WalletsTable {
  company_id: number;
  currency: string;
  balance_minor: ColumnType<number, number | undefined, number>;
  updated_at: Stamp;
}

export interface WalletTransactionsTable {
  id: Generated<number>;
  company_id: number;
  type: 'credit' | 'debit';
  amount_minor: number;
  currency: string;
  balance_after_minor: number;
  reference: string | null;
  booking_id: number | null;
  description: string;
  created_by: string | null;
  created_at: Stamp;
}

export interface CustomerProfilesTable {
  user_id: string;
  date_of_birth: DateCol | null;
  nationality: string | null;
  preferred_language: string | null;
  preferred_currency: string | null;
  seat_preference: string | null;
  meal_preference: string | null;
  cabin_preference: string | null;
  preferred_airlines: JsonCol<string[]>;
  notification_email: ColumnType<boolean, boolean | undefined, boolean>;
  notification_sms: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: Stamp;
}

export interface SavedTravelersTable {
  id: Generated<number>;
  user_id: string;
  first_name: string;
  last_name: string;
  date_of_birth: DateCol;
  /** check constraint: the contract's Gender (0050). */
  gender: Schemas['Gender'];
  nationality: string | null;
  email: string | null;
  phone: string | null;
  /** check constraint: the contract's DocumentType (0050). */
  doc_type: Schemas['DocumentType'] | null;
  doc_number: string | null;
  doc_expiry: DateCol | null;
  doc_issuing_country: string | null;
  is_primary: ColumnType<boolean, boolean | undefined, boolean>;
  nickname: string | null;
  created_at: Stamp;
  updated_at: Stamp;
}

export interface CancellationRequestsTable {
  id: Generated<number>;
  booking_id: number;
  booking_type: ColumnType<string, string | undefined, string>;
  user_id: string;
  company_id: number | null;
  reason: string | null;
  status: ColumnType<string, string | undefined, string>;
  created_at: Stamp;
  updated_at: Stamp;
}

export interface ErrorLogsTable {
  id: Generated<number>;
  /** Written by recordError only (admin/error-log.ts), typed as the contract's ErrorStage. */
  stage: Schemas['ErrorStage'];
  provider: string | null;
  code: string;
  message: string;
  supplier_code: string | null;
  request_id: string | null;
  operation_id: string | null;
  booking_id: number | null;
  created_at: Stamp;
}

export interface AccountTables {
  clients: ClientsTable;
  company_profiles: CompanyProfilesTable;
  company_staff: CompanyStaffTable;
  wallets: WalletsTable;
  wallet_transactions: WalletTransactionsTable;
  customer_profiles: CustomerProfilesTable;
  saved_travelers: SavedTravelersTable;
  cancellation_requests: CancellationRequestsTable;
  error_logs: ErrorLogsTable;
}

export type AccountsDb = Kysely<AccountTables & KernelTables>;

/** Only types widen: the handle (and its transaction, if any) is the same object. */
export const accountsDb = (db: Db): AccountsDb => db as unknown as AccountsDb;
