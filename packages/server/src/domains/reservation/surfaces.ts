/**
 * The read and override handlers every surface (user, admin, company, customer) offers for hotel and
 * transport bookings alike; the route files bind them to their operationIds (engine.ts).
 */
import type { Clock } from '../../internal/clock.ts';
import { notFound } from '../../kernel/errors.ts';
import { tenantCompanyId } from '../../kernel/tenant.ts';
import type { JsonResult, OperationContext, OperationId } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { visibleOrNotFound } from './access.ts';
import type { BookingKind } from './kind.ts';
import { listQuery, pageOf } from './paging.ts';
import { auditTrail, getRow, listRows, stats } from './queries.ts';
import { nextStatus, type ReservationStatus } from './state-machine.ts';
import { moveStatus } from './status-change.ts';
import { serviceDb } from './tables.ts';

/**
 * The operations each handler serves, hotel and transport alike: a handler is typed by the union, so its
 * `ctx.query`, `ctx.params` and `ctx.body` are what every one of them declares (a typo fails to compile).
 */
type OwnGet = 'getHotelBooking' | 'getTransportBooking';
type CustomerGet = 'customerGetHotelBooking' | 'customerGetTransportBooking';
type CompanyGet = 'companyGetHotelBooking' | 'companyGetTransportBooking';
type OwnList =
  | 'listHotelBookings'
  | 'listTransportBookings'
  | 'customerListHotelBookings'
  | 'customerListTransportBookings';
type CompanyList = 'companyListHotelBookings' | 'companyListTransportBookings';
type CompanyPending = 'companyListPendingHotelBookings' | 'companyListPendingTransportBookings';
type AdminList = 'adminListHotelBookings' | 'adminListTransportBookings';
type AdminStats = 'adminGetHotelBookingStats' | 'adminGetTransportBookingStats';
type AdminGet = 'adminGetHotelBooking' | 'adminGetTransportBooking';
type AdminOverride = 'adminOverrideHotelBookingStatus' | 'adminOverrideTransportBookingStatus';

/** The view `V` is the vertical's contract type (HotelBooking, TransportBooking). */
export interface SurfaceDeps<V> {
  db: Db;
  clock: Clock;
  kind: BookingKind;
  view: (row: Record<string, unknown>) => V;
}

/**
 * A handler of the operations `Op` (hotel and transport alike) answering `Body`: typed by the vertical's
 * view, so each one is assignable to the operation of its vertical only (a hotel handler is not a
 * transport one).
 */
type Served<Op extends OperationId, Body> = (ctx: OperationContext<Op>) => Promise<JsonResult<Body>>;

/** A page of views (the contract's `HotelBookingPage`, `TransportBookingPage`). */
type Page<V> = ReturnType<typeof pageOf<V>>;

export function surfaceHandlers<V extends object>(d: SurfaceDeps<V>) {
  const db = serviceDb(d.db);
  const k = d.kind;
  const one =
    (owner: 'user' | 'company' | 'any'): Served<OwnGet | CustomerGet | CompanyGet, V> =>
    async (ctx) => {
      const row = await getRow(db, k, Number(ctx.params.booking_id));
      return { status: 200, body: d.view(visibleOrNotFound(ctx, k, row, owner)) };
    };

  /** The caller's own (user and customer surfaces). */
  const listOwn: Served<OwnList, Page<V>> = async (ctx) => {
    const f = { ...listQuery(ctx), userId: ctx.auth?.userId ?? '' };
    const r = await listRows(db, k, f);
    return { status: 200, body: pageOf(r.rows.map(d.view), r, f) };
  };

  /** Tenant-scoped: the caller's company (a super_admin sees every company). */
  const listCompany: Served<CompanyList, Page<V>> = async (ctx) => {
    const f = { ...listQuery(ctx), companyId: tenantCompanyId(ctx) };
    const r = await listRows(db, k, f);
    return { status: 200, body: pageOf(r.rows.map(d.view), r, f) };
  };

  const pendingCompany: Served<CompanyPending, { pending_confirmation: V[]; on_request: V[] }> = async (
    ctx,
  ) => {
    const companyId = tenantCompanyId(ctx);
    const base = {
      companyId,
      page: 1,
      pageSize: 100,
      sortBy: 'created_at' as const,
      sortOrder: 'asc' as const,
    };
    const [p, r] = await Promise.all([
      listRows(db, k, { ...base, status: 'pending' }),
      listRows(db, k, { ...base, status: 'on_request' }),
    ]);
    return {
      status: 200,
      body: { pending_confirmation: p.rows.map(d.view), on_request: r.rows.map(d.view) },
    };
  };

  const adminList: Served<AdminList, Page<V>> = async (ctx) => {
    const q = ctx.query;
    const f = {
      ...listQuery(ctx),
      ...(typeof q.company_id === 'number' ? { companyId: q.company_id } : {}),
      ...(typeof q.user_id === 'string' && q.user_id ? { userId: q.user_id } : {}),
    };
    const r = await listRows(db, k, f);
    return { status: 200, body: pageOf(r.rows.map(d.view), r, f) };
  };

  const adminStats: Served<AdminStats, Awaited<ReturnType<typeof stats>>> = async () => ({
    status: 200,
    body: await stats(db, k, d.clock.now()),
  });

  const adminGet: Served<AdminGet, V & { audit_trail: Awaited<ReturnType<typeof auditTrail>> }> = async (
    ctx,
  ) => {
    const id = Number(ctx.params.booking_id);
    const row = await getRow(db, k, id);
    if (!row) throw notFound(k.notFoundCode, `${k.what} not found.`);
    return { status: 200, body: { ...d.view(row), audit_trail: await auditTrail(db, k, id) } };
  };

  const adminOverride: Served<AdminOverride, V> = async (ctx) => {
    const id = Number(ctx.params.booking_id);
    const to = ctx.query.new_status;
    const reason = ctx.query.reason;
    return ctx.transaction(async (trx) => {
      const sdb = serviceDb(trx);
      const row = await getRow(sdb, k, id, true);
      if (!row) throw notFound(k.notFoundCode, `${k.what} not found.`);
      await moveStatus(sdb, k, row, nextStatus(k)(row.status as ReservationStatus, 'override', to), d.clock, {
        ctx,
        action: 'status_overridden',
        reason,
      });
      const fresh = await getRow(sdb, k, id);
      return { status: 200, body: d.view(fresh ?? row) };
    });
  };

  return {
    getOwn: one('any'),
    getCustomer: one('user'),
    getCompany: one('company'),
    listOwn,
    listCompany,
    pendingCompany,
    adminList,
    adminStats,
    adminGet,
    adminOverride,
  };
}
