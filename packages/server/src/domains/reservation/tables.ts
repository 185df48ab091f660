/**
 * Table types of hotel and transport bookings (migrations 0040, 0041). The kernel's `Db` is widened with
 * `serviceDb(db)`, so no kernel file needs to know these tables. Both share their bookkeeping columns
 * (status, owner, money, timestamps), which is what the shared queries in this folder rely on.
 */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Db, KernelTables } from '../../storage/schema.ts';

type Json<T = unknown> = ColumnType<T, string, string>;
type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface MoneyValue {
  currency: string;
  amount_minor: number;
}

interface CommonColumns {
  id: Generated<number>;
  status: string;
  provider: string;
  client_reference: string;
  supplier_booking_ref: string | null;
  special_requests: string | null;
  currency: string;
  total_minor: number;
  /** What the supplier charges, in its currency, and the rate to the booking's currency (0090). */
  supplier_currency: ColumnType<string | null, string | null | undefined, string | null>;
  supplier_total_minor: ColumnType<number | string | null, number | null | undefined, number | null>;
  fx_rate: ColumnType<number | string | null, number | null | undefined, number | null>;
  cancellation_fee: Json<MoneyValue | null> | null;
  /** The idempotency scope of the request that wrote the booking ahead of its supplier call (0041). */
  idempotency_scope: ColumnType<string | null, string | null | undefined, string | null>;
  /** A cancellation written down before the provider was called, until it is settled (0041). */
  cancel_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  cancel_scope: ColumnType<string | null, string | null | undefined, string | null>;
  user_id: string;
  company_id: number | null;
  created_at: Stamp;
  updated_at: Stamp;
}

export interface HotelBookingsTable extends CommonColumns {
  rate_key: string;
  hotel_confirmation: string | null;
  hotel: Json<Record<string, unknown>>;
  room: Json<Record<string, unknown>>;
  check_in: string;
  check_out: string;
  nights: number;
  guests: Json<Record<string, unknown>[]>;
  contact_email: string;
  contact_phone: string;
  client_ref: string | null;
  cancellation_policies: Json<unknown[]>;
}

export interface TransportBookingsTable extends CommonColumns {
  quote_id: string;
  confirmation_number: string | null;
  transfer_type: string;
  vehicle: Json<Record<string, unknown>>;
  pickup: Json<Record<string, unknown>>;
  dropoff: Json<Record<string, unknown>>;
  passengers: Json<Record<string, unknown>[]>;
  contact: Json<Record<string, unknown>>;
  flight_number: string | null;
  hotel_name: string | null;
}

export type ServiceBookingTables = {
  hotel_bookings: HotelBookingsTable;
  transport_bookings: TransportBookingsTable;
};

export type ServiceDb = Kysely<ServiceBookingTables & KernelTables>;

export const serviceDb = (db: Db): ServiceDb => db.withTables<ServiceBookingTables>();

export const json = (v: unknown): string => JSON.stringify(v);
/** JSON columns arrive parsed from both pg and PGlite; a string from a driver is parsed here. */
export const parseJson = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
export const iso = (v: Date | string): string => new Date(v).toISOString();
