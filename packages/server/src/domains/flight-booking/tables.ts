/**
 * Table types of the booking domains (migrations 0020-0021). The kernel's `Db` is widened with
 * `bookingDb(db)`, so no kernel file needs to know these tables.
 */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Db } from '../../storage/schema.ts';

type Json<T = unknown> = ColumnType<T, string, string>;
type Created = ColumnType<Date, Date | string | undefined, Date | string>;

export interface FlightBookingsTable {
  id: Generated<number>;
  pnr: string | null;
  status: string;
  payment_mode: string;
  supplier: string;
  supplier_order_ref: string | null;
  client_reference: string;
  offer_id: string;
  offer: Json<Record<string, unknown>>;
  supplier_ref: Json<unknown> | null;
  passengers: Json<Record<string, unknown>[]>;
  contact: Json<{ email: string; phone: string }>;
  flights: Json<Record<string, unknown>[]>;
  pricing: Json<Record<string, unknown>>;
  supplier_total_minor: number | null;
  /** The currency of supplier_total_minor and the rate to the booking's (0090); null on older rows. */
  supplier_currency: ColumnType<string | null, string | null | undefined, string | null>;
  fx_rate: ColumnType<number | string | null, number | null | undefined, number | null>;
  client_ref: string | null;
  snapshot_id: string | null;
  search_id: string | null;
  order_remarks: ColumnType<string[], string | undefined, string>;
  commission: Json<Record<string, unknown> | null> | null;
  foid: Json<Record<string, unknown> | null> | null;
  ticketing_deadline: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  ticket_raw_status: string | null;
  assigned_to_user_id: string | null;
  /** The idempotency scope of the createPnr that wrote the booking ahead of its supplier call (0061). */
  idempotency_scope: ColumnType<string | null, string | null | undefined, string | null>;
  user_id: string;
  company_id: number | null;
  created_at: Created;
  updated_at: Created;
}

export interface BookingPaymentsTable {
  id: Generated<number>;
  booking_id: number;
  state: string;
  amount_minor: number;
  captured_minor: ColumnType<number, number | undefined, number>;
  refunded_minor: ColumnType<number, number | undefined, number>;
  currency: string;
  provider: string;
  provider_payment_ref: string | null;
  created_at: Created;
  updated_at: Created;
}

export interface BookingPaymentTransactionsTable {
  id: Generated<number>;
  payment_id: number;
  booking_id: number;
  type: 'authorization' | 'capture' | 'void' | 'refund';
  status: 'succeeded' | 'failed' | 'pending';
  amount_minor: number;
  currency: string;
  provider_ref: string | null;
  failure_code: string | null;
  reason: string | null;
  idempotency_key: string | null;
  created_at: Created;
}

export interface BookingTicketsTable {
  booking_id: number;
  ticket_number: string;
  document: Json<Record<string, unknown>>;
  updated_at: Created;
}

export interface BookingAncillariesTable {
  id: Generated<number>;
  booking_id: number;
  kind: ColumnType<string, string | undefined, string>;
  code: string;
  rfic: string;
  rfisc: string;
  booking_method: string;
  provider: string;
  tsm_reference: string;
  emd_number: string | null;
  status: string;
  passenger_ids: Json<string[]>;
  segment_ids: Json<string[]>;
  price: Json<{ currency: string; amount_minor: number }>;
  created_at: Created;
  updated_at: Created;
}

export interface BookingSeatSelectionsTable {
  booking_id: number;
  segment_id: string;
  passenger_id: string;
  seat_number: string;
  status: string;
  price: Json<{ currency: string; amount_minor: number } | null> | null;
  updated_at: Created;
}

export interface BookingNotesTable {
  id: Generated<number>;
  booking_id: number;
  note: string;
  attached: boolean;
  user_id: string | null;
  created_at: Created;
}

export interface ReconciliationQueueView {
  booking_id: number;
  booking_status: string;
  company_id: number | null;
  job_id: string;
  job_status: string;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  last_error: string | null;
  queued_at: Date;
}

export type BookingTables = {
  flight_bookings: FlightBookingsTable;
  booking_payments: BookingPaymentsTable;
  booking_payment_transactions: BookingPaymentTransactionsTable;
  booking_tickets: BookingTicketsTable;
  booking_ancillaries: BookingAncillariesTable;
  booking_seat_selections: BookingSeatSelectionsTable;
  booking_notes: BookingNotesTable;
  booking_reconciliation_queue: ReconciliationQueueView;
};

export type BookingDb = Kysely<BookingTables & import('../../storage/schema.ts').KernelTables>;

export const bookingDb = (db: Db): BookingDb => db.withTables<BookingTables>();

export const json = (v: unknown): string => JSON.stringify(v);
/** JSON columns arrive parsed from both pg and PGlite; a string from a driver is parsed here. */
export const parseJson = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
