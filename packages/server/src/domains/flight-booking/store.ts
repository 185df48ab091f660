/** Booking queries. Lookups by `{booking_id}` accept the numeric id or the 6-character PNR. */
import { type components, FLIGHT_SUPPLIERS, type FlightSupplier } from '@travel/contract';
import { sql } from 'kysely';
import { deepFreeze } from '../../internal/deep-freeze.ts';
import { type Currency, storedCurrency } from '../../internal/money.ts';
import { oneOf } from '../../internal/narrow.ts';
import { HttpError, unauthorized } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import { bindBooking } from '../../observability/call-scope.ts';
import { coalesced, param, prepared } from '../../storage/prepared.ts';
import type { Db } from '../../storage/schema.ts';
import { recordStatusChange, type StatusCause } from './booking-events.ts';
import { type BookingEvent, type BookingStatus, nextStatus } from './state-machine.ts';
import { bookingDb, type FlightBookingsTable, parseJson } from './tables.ts';

type Schemas = components['schemas'];

/**
 * A flight_bookings row as the domain reads it. Its jsonb columns (passengers, flights, pricing) are read
 * back as the contract's types createPnr wrote them as.
 */
export interface BookingRow {
  id: number;
  pnr: string | null;
  status: BookingStatus;
  payment_mode: Schemas['PaymentMode'];
  supplier: FlightSupplier;
  supplier_order_ref: string | null;
  client_reference: string;
  offer_id: string;
  offer: Record<string, unknown>;
  supplier_ref: unknown;
  passengers: Schemas['BookedPassenger'][];
  contact: Schemas['BookingContact'];
  flights: Schemas['FlightSegment'][];
  pricing: Schemas['BookingPricing'];
  supplier_total_minor: number | null;
  /** The currency the supplier charges supplier_total_minor in (null on rows older than 0090). */
  supplier_currency: Currency | null;
  /** Units of pricing.currency per 1 supplier_currency (1 when nothing was converted). */
  fx_rate: number;
  client_ref: string | null;
  snapshot_id: string | null;
  search_id: string | null;
  order_remarks: string[];
  ticketing_deadline: Date | null;
  ticket_raw_status: string | null;
  assigned_to_user_id: string | null;
  idempotency_scope: string | null;
  user_id: string;
  company_id: number | null;
  created_at: Date;
  updated_at: Date;
}

type Raw = { [K in keyof FlightBookingsTable]: unknown };

/** What `bookingView` shows, and the owner `canSee` checks: the columns the booking read selects. */
export type BookingViewRow = Pick<
  BookingRow,
  | 'id'
  | 'pnr'
  | 'status'
  | 'passengers'
  | 'contact'
  | 'flights'
  | 'pricing'
  | 'supplier_total_minor'
  | 'supplier_currency'
  | 'fx_rate'
  | 'payment_mode'
  | 'supplier'
  | 'supplier_order_ref'
  | 'offer_id'
  | 'client_ref'
  | 'snapshot_id'
  | 'search_id'
  | 'ticketing_deadline'
  | 'assigned_to_user_id'
  | 'user_id'
  | 'company_id'
  | 'created_at'
  | 'updated_at'
>;

export function toViewRow(r: Partial<Raw>): BookingViewRow {
  return {
    id: Number(r.id),
    pnr: r.pnr as string | null,
    status: r.status as BookingStatus,
    passengers: parseJson(r.passengers),
    contact: parseJson(r.contact),
    flights: parseJson(r.flights),
    pricing: parseJson(r.pricing),
    supplier_total_minor: r.supplier_total_minor === null ? null : Number(r.supplier_total_minor),
    supplier_currency: typeof r.supplier_currency === 'string' ? storedCurrency(r.supplier_currency) : null,
    fx_rate: r.fx_rate === null || r.fx_rate === undefined ? 1 : Number(r.fx_rate),
    payment_mode: r.payment_mode as BookingRow['payment_mode'],
    supplier: oneOf(FLIGHT_SUPPLIERS, r.supplier, 'flight_bookings.supplier'),
    supplier_order_ref: r.supplier_order_ref as string | null,
    offer_id: r.offer_id as string,
    client_ref: r.client_ref as string | null,
    snapshot_id: r.snapshot_id as string | null,
    search_id: r.search_id as string | null,
    ticketing_deadline: r.ticketing_deadline ? new Date(r.ticketing_deadline as string) : null,
    assigned_to_user_id: r.assigned_to_user_id as string | null,
    user_id: r.user_id as string,
    company_id: r.company_id as number | null,
    created_at: new Date(r.created_at as string),
    updated_at: new Date(r.updated_at as string),
  };
}

export function toRow(r: Raw): BookingRow {
  return {
    ...(r as unknown as BookingRow),
    ...toViewRow(r),
    offer: parseJson(r.offer),
    supplier_ref: parseJson(r.supplier_ref),
    order_remarks: parseJson(r.order_remarks) ?? [],
  };
}

/** Every column, in the table's order: named, so a column added by a later migration changes nothing here. */
const COLUMNS: Record<keyof FlightBookingsTable, true> = {
  id: true,
  pnr: true,
  status: true,
  payment_mode: true,
  supplier: true,
  supplier_order_ref: true,
  client_reference: true,
  offer_id: true,
  offer: true,
  supplier_ref: true,
  passengers: true,
  contact: true,
  flights: true,
  pricing: true,
  supplier_total_minor: true,
  client_ref: true,
  snapshot_id: true,
  search_id: true,
  order_remarks: true,
  commission: true,
  foid: true,
  ticketing_deadline: true,
  ticket_raw_status: true,
  assigned_to_user_id: true,
  user_id: true,
  company_id: true,
  created_at: true,
  updated_at: true,
  idempotency_scope: true,
  supplier_currency: true,
  fx_rate: true,
};
const ALL = Object.keys(COLUMNS) as (keyof FlightBookingsTable)[];
const VIEW: Record<keyof BookingViewRow, true> = {
  id: true,
  pnr: true,
  status: true,
  passengers: true,
  contact: true,
  flights: true,
  pricing: true,
  supplier_total_minor: true,
  supplier_currency: true,
  fx_rate: true,
  payment_mode: true,
  supplier: true,
  supplier_order_ref: true,
  offer_id: true,
  client_ref: true,
  snapshot_id: true,
  search_id: true,
  ticketing_deadline: true,
  assigned_to_user_id: true,
  user_id: true,
  company_id: true,
  created_at: true,
  updated_at: true,
};
/** The columns of a booking as the lists and the read show it (not `offer`). */
export const VIEW_COLUMNS = Object.keys(VIEW) as (keyof BookingViewRow)[];

/**
 * The lookups by `{booking_id}` as prepared statements (`storage/prepared.ts`): by id (primary key) or by
 * PNR (the newest booking holding it), the whole row, optionally `for update`.
 */
const lookup = (by: 'id' | 'pnr', forUpdate: boolean) =>
  prepared(`booking_row_by_${by}${forUpdate ? '_for_update' : ''}`, (db) => {
    const q = bookingDb(db)
      .selectFrom('flight_bookings')
      .select(ALL)
      .where(by, '=', param<never>(0))
      .orderBy('id', 'desc')
      .limit(1);
    return forUpdate ? q.forUpdate() : q;
  });
const LOOKUPS = {
  row: { id: lookup('id', false), pnr: lookup('pnr', false) },
  rowForUpdate: { id: lookup('id', true), pnr: lookup('pnr', true) },
};

/**
 * The booking read's lookups, coalesced (`storage/prepared.ts` `coalesced`): the reads asked for in one
 * turn of the event loop go as one statement over the array of their keys; by PNR each key gets the
 * newest booking holding it (`distinct on`), as `lookup` by PNR does.
 */
const VIEWS = {
  id: coalesced(
    'booking_view_by_ids',
    (db) =>
      bookingDb(db)
        .selectFrom('flight_bookings')
        .select(VIEW_COLUMNS)
        .where('id', '=', sql<never>`any(${param(0)})`),
    (r) => Number(r.id),
  ),
  pnr: coalesced(
    'booking_view_by_pnrs',
    (db) =>
      bookingDb(db)
        .selectFrom('flight_bookings')
        .distinctOn('pnr')
        .select(VIEW_COLUMNS)
        .where('pnr', '=', sql<never>`any(${param(0)})`)
        .orderBy('pnr')
        .orderBy('id', 'desc'),
    (r) => String(r.pnr),
  ),
};

/** `{booking_id}`: digits are the id, anything else the PNR (case-insensitive). */
function byRef(ref: string | number): ['id', number] | ['pnr', string] {
  const s = String(ref);
  return /^[0-9]+$/.test(s) ? ['id', Number(s)] : ['pnr', s.toUpperCase()];
}

/** `{booking_id}`: digits are the id, six alphanumerics the PNR. */
export async function findBooking(db: Db, ref: string | number, opts: { forUpdate?: boolean } = {}) {
  const [by, value] = byRef(ref);
  const [r] = await (opts.forUpdate ? LOOKUPS.rowForUpdate : LOOKUPS.row)[by](db, value);
  if (!r) return undefined;
  const row = toRow(r as Raw);
  // The supplier calls this request or job makes are this booking's (its timeline).
  bindBooking(row.id);
  return row;
}

/**
 * The booking read (`GET /bookings/{booking_id}`): only the columns `bookingView` shows, one coalesced
 * statement, then the same tenant check as `loadBooking`, per caller. Callers of one key in one turn
 * share the row's parsed JSON (passengers, contact, flights, pricing): it is frozen, so no caller can
 * change what another one shows.
 */
export async function loadBookingView(
  db: Db,
  ctx: Pick<RequestContext, 'auth'>,
  ref: unknown,
): Promise<BookingViewRow> {
  const [by, value] = byRef(String(ref));
  const r = by === 'id' ? await VIEWS.id(db, value) : await VIEWS.pnr(db, value);
  const b = r ? toViewRow(r as Partial<Raw>) : undefined;
  if (!b || !canSee(ctx, b)) throw new HttpError(404, 'booking_not_found', 'Booking not found.');
  deepFreeze(b.passengers);
  deepFreeze(b.contact);
  deepFreeze(b.flights);
  deepFreeze(b.pricing);
  return b;
}

/** The booking written ahead under this supplier client reference (createPnr retries find it here). */
export async function findByClientReference(
  db: Db,
  clientReference: string,
  opts: { forUpdate?: boolean } = {},
) {
  let q = bookingDb(db)
    .selectFrom('flight_bookings')
    .selectAll()
    .where('client_reference', '=', clientReference);
  if (opts.forUpdate) q = q.forUpdate();
  const r = await q.executeTakeFirst();
  return r ? toRow(r as Raw) : undefined;
}

/**
 * Whether the caller may see the booking: a super_admin every booking, a customer (or a user without a
 * company) their own, company users their company's.
 */
export function canSee(
  ctx: Pick<RequestContext, 'auth'>,
  b: Pick<BookingRow, 'user_id' | 'company_id'>,
): boolean {
  const a = ctx.auth;
  if (!a) return false;
  if (a.role === 'super_admin') return true;
  if (a.role === 'customer' || a.companyId === null) return b.user_id === a.userId;
  return b.company_id === a.companyId;
}

/** The caller's booking or exactly what a missing one answers (404, or the operation's own status). */
export async function loadBooking(
  db: Db,
  ctx: Pick<RequestContext, 'auth'>,
  ref: unknown,
  opts: { status?: number; forUpdate?: boolean } = {},
): Promise<BookingRow> {
  const b = await findBooking(db, String(ref), opts);
  if (!b || !canSee(ctx, b))
    throw new HttpError(opts.status ?? 404, 'booking_not_found', 'Booking not found.');
  return b;
}

/** Moves the booking through the state machine and persists the new status with any other changes. */
export async function transition(
  db: Db,
  b: BookingRow,
  event: BookingEvent,
  now: Date,
  patch: Partial<Record<keyof FlightBookingsTable, unknown>> = {},
): Promise<BookingRow> {
  const to = nextStatus(b.status, event);
  return setStatus(db, b, to, now, patch, event);
}

export async function setStatus(
  db: Db,
  b: BookingRow,
  to: BookingStatus,
  now: Date,
  patch: Partial<Record<keyof FlightBookingsTable, unknown>> = {},
  cause: StatusCause = 'order',
): Promise<BookingRow> {
  const r = await bookingDb(db)
    .updateTable('flight_bookings')
    .set({ ...(patch as object), status: to, updated_at: now })
    .where('id', '=', b.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const after = toRow(r as Raw);
  // The event commits with the status (the caller's transaction): see booking-events.ts.
  await recordStatusChange(db, b.status, after, cause);
  return after;
}

export async function updateBooking(
  db: Db,
  id: number,
  now: Date,
  patch: Partial<Record<keyof FlightBookingsTable, unknown>>,
) {
  const r = await bookingDb(db)
    .updateTable('flight_bookings')
    .set({ ...(patch as object), updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRow(r as Raw);
}

/** The authenticated caller (every booking operation is guarded `user`, so the kernel guarantees one). */
export function callerOf(ctx: Pick<RequestContext, 'auth'>) {
  if (!ctx.auth) throw unauthorized('not_authenticated', 'Authentication required.');
  return ctx.auth;
}
