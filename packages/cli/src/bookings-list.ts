/**
 * Lists of the caller's bookings, through the surface the contract gives each role: a customer's own
 * (`/customer/...`), a company's for its staff (`/company/...`), all for a super admin (`/admin/...`).
 * Every row names its kind with its id (`flight 12`, `hotel 1`): the three kinds number their bookings
 * separately, so a bare `1` would be ambiguous.
 */
import { BOOKING_STATUSES, SERVICE_BOOKING_STATUSES } from '@travel/contract/enums';
import { type Booking, type HotelBooking, type TransferBooking, unwrap } from '@travel/sdk';
import type { Ctx } from './context.ts';
import { localDate, localDateTime } from './documents/model.ts';
import { UsageError } from './errors.ts';
import { money } from './ui/table.ts';

export const BOOKING_KINDS = ['flight', 'hotel', 'transfer'] as const;
export type BookingKind = (typeof BOOKING_KINDS)[number];
type Scope = 'customer' | 'company' | 'admin';

const PATHS = {
  flight: {
    customer: '/api/v1/customer/bookings',
    company: '/api/v1/company/bookings',
    admin: '/api/v1/admin/bookings',
  },
  hotel: {
    customer: '/api/v1/customer/hotel-bookings',
    company: '/api/v1/company/hotel-bookings',
    admin: '/api/v1/admin/hotel-bookings',
  },
  transfer: {
    customer: '/api/v1/customer/transport-bookings',
    company: '/api/v1/company/transport-bookings',
    admin: '/api/v1/admin/transport-bookings',
  },
} as const;

/** The statuses each kind of booking can be in, from the contract (bundled into the CLI at build). */
const STATUSES: Record<BookingKind, readonly string[]> = {
  flight: BOOKING_STATUSES,
  hotel: SERVICE_BOOKING_STATUSES,
  transfer: SERVICE_BOOKING_STATUSES,
};

export interface ListOptions {
  kinds: readonly BookingKind[];
  status: string | undefined;
  /** Created on or after / on or before (staff and admin lists only: the customer list has no dates). */
  from: string | undefined;
  to: string | undefined;
  page: number;
  limit: number;
}

export interface BookingRow {
  kind: BookingKind;
  booking_id: number;
  /** `flight 12`, `hotel 1`. */
  ref: string;
  status: string;
  /** PNR, supplier reference or confirmation number. */
  reference: string;
  what: string;
  when: string;
  total: string;
  created_at: string;
  record: unknown;
}

export interface ListResult {
  items: BookingRow[];
  page: number;
  limit: number;
  total: number;
  scope: Scope;
}

function row(kind: BookingKind, record: unknown): BookingRow {
  if (kind === 'flight') {
    const b = record as Booking;
    const first = b.flights?.[0];
    const last = b.flights?.at(-1);
    return {
      kind,
      booking_id: b.booking_id,
      ref: `flight ${b.booking_id}`,
      status: b.status,
      reference: b.pnr ?? '-',
      what:
        first && last
          ? `${first.origin}-${last.destination} ${first.marketing_carrier}${first.flight_number}`
          : '-',
      when: localDateTime(first?.departure_at),
      total: money(b.pricing?.total_minor, b.pricing?.currency),
      created_at: b.created_at,
      record,
    };
  }
  if (kind === 'hotel') {
    const b = record as HotelBooking;
    return {
      kind,
      booking_id: b.booking_id,
      ref: `hotel ${b.booking_id}`,
      status: b.status,
      reference: b.supplier_booking_ref ?? b.hotel_confirmation ?? '-',
      what: `${b.hotel?.name ?? '-'}${b.hotel?.city ? `, ${b.hotel.city}` : ''}`,
      when: `${localDate(b.check_in)} (${b.nights}n)`,
      total: money(b.total?.amount_minor, b.total?.currency),
      created_at: b.created_at,
      record,
    };
  }
  const b = record as TransferBooking;
  return {
    kind,
    booking_id: b.booking_id,
    ref: `transfer ${b.booking_id}`,
    status: b.status,
    reference: b.confirmation_number ?? b.supplier_booking_ref ?? '-',
    what: `${b.pickup?.location ?? '-'} -> ${b.dropoff?.location ?? '-'}`,
    when: localDateTime(b.pickup?.datetime),
    total: money(b.total?.amount_minor, b.total?.currency),
    created_at: b.created_at,
    record,
  };
}

async function fetchPage(
  ctx: Ctx,
  kind: BookingKind,
  scope: Scope,
  o: ListOptions,
  page: number,
  pageSize: number,
): Promise<{ items: unknown[]; total: number }> {
  const query = {
    page,
    page_size: pageSize,
    ...(o.status ? { status: o.status } : {}),
    ...(scope !== 'customer' && o.from ? { date_from: o.from } : {}),
    ...(scope !== 'customer' && o.to ? { date_to: o.to } : {}),
  };
  // One typed call per path would be nine copies of this line; the paths share the query and page shape.
  const path = PATHS[kind][scope] as '/api/v1/company/hotel-bookings';
  return (await unwrap(ctx.client().raw.GET(path, { params: { query: query as never } }))) as {
    items: unknown[];
    total: number;
  };
}

/** The role's scope, from who is logged in (an API key acts for its company). */
export async function listScope(ctx: Ctx): Promise<Scope> {
  const me = await ctx.client().auth.me();
  return me.role === 'super_admin' ? 'admin' : me.role === 'customer' ? 'customer' : 'company';
}

/**
 * One page of bookings, newest first. One kind: the server's own page. Several kinds: each kind's newest
 * `page × limit` merged by creation time, then the page cut from that (so page 2 continues page 1 exactly).
 */
export async function listBookingPage(ctx: Ctx, o: ListOptions): Promise<ListResult> {
  const scope = await listScope(ctx);
  if (scope === 'customer' && (o.from || o.to))
    throw new UsageError(
      '--from/--to: the customer booking lists have no date filter (staff and admin lists do)',
    );
  const kinds = o.kinds.filter((k) => !o.status || STATUSES[k].includes(o.status));
  if (kinds.length === 0)
    throw new UsageError(
      `--status ${o.status}: not a status of ${o.kinds.join(' or ')} bookings (${[...new Set(o.kinds.flatMap((k) => STATUSES[k]))].join(', ')})`,
    );
  if (kinds.length === 1) {
    const kind = kinds[0] as BookingKind;
    const page = await fetchPage(ctx, kind, scope, o, o.page, o.limit);
    return {
      items: page.items.map((r) => row(kind, r)),
      page: o.page,
      limit: o.limit,
      total: page.total,
      scope,
    };
  }
  const want = o.page * o.limit;
  if (want > 1000)
    throw new UsageError('--page × --limit: at most 1000 across kinds; filter by --kind or --status');
  const perKind = await Promise.all(
    kinds.map(async (kind) => {
      const rows: BookingRow[] = [];
      let total = 0;
      for (let page = 1; rows.length < want; page++) {
        const got = await fetchPage(ctx, kind, scope, o, page, 100);
        total = got.total;
        rows.push(...got.items.map((r) => row(kind, r)));
        if (got.items.length < 100 || rows.length >= total) break;
      }
      return { rows, total };
    }),
  );
  const merged = perKind
    .flatMap((k) => k.rows)
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.booking_id - a.booking_id);
  return {
    items: merged.slice((o.page - 1) * o.limit, want),
    page: o.page,
    limit: o.limit,
    total: perKind.reduce((n, k) => n + k.total, 0),
    scope,
  };
}

export const LIST_HEADERS = ['booking', 'status', 'reference', 'what', 'when', 'total', 'created'];

export function listCells(r: BookingRow): string[] {
  return [r.ref, r.status, r.reference, r.what, r.when, r.total, r.created_at.slice(0, 16).replace('T', ' ')];
}

/** `page 1 of 3 (47 bookings)` and the flag for the next page, for stderr. */
export function pageHint(r: ListResult): string {
  const pages = Math.max(1, Math.ceil(r.total / r.limit));
  const whose = r.scope === 'admin' ? 'all' : r.scope === 'company' ? "your company's" : 'your';
  return `page ${r.page} of ${pages} (${r.total} of ${whose} bookings)${r.page < pages ? `; next: --page ${r.page + 1}` : ''}`;
}
