/** Platform administration. List calls return lazy iterators: `for await (const b of admin.bookings.list())`. */
import { type IdempotentCallOptions, resolveIdempotencyKey } from '../core/idempotency.ts';
import { unwrap } from '../core/result.ts';
import { type ClientContext, type RequestOptions, signalOf } from './context.ts';
import { listPages } from './lists.ts';
import type { BodyOf, QueryOf } from './types.ts';

/**
 * The `admin` namespace.
 *
 * @example
 * for await (const booking of travel.admin.bookings.list({ status: 'pending_pnr' })) console.log(booking);
 */
export function adminResource(ctx: ClientContext) {
  const { raw } = ctx;
  return {
    bookings: {
      list: (query: QueryOf<'/api/v1/admin/bookings', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/bookings', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/admin/bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...signalOf(options),
          }),
        ),
      reconciliation: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/bookings/reconciliation', { ...signalOf(options) })),
      overrideStatus: (
        bookingId: number,
        body: BodyOf<'/api/v1/admin/bookings/{booking_id}/override-status', 'post'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/admin/bookings/{booking_id}/override-status', {
            params: { path: { booking_id: bookingId } },
            body,
            ...signalOf(options),
          }),
        ),
      reconcile: (
        bookingId: number,
        body: BodyOf<'/api/v1/admin/bookings/{booking_id}/reconcile', 'post'> = {},
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/admin/bookings/{booking_id}/reconcile', {
            params: { path: { booking_id: bookingId } },
            body,
            ...signalOf(options),
          }),
        ),
    },
    companies: {
      list: (query: QueryOf<'/api/v1/admin/companies', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/companies', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      create: (body: BodyOf<'/api/v1/admin/companies', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/admin/companies', { body, ...signalOf(options) })),
      get: (companyId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/admin/companies/{company_id}', {
            params: { path: { company_id: companyId } },
            ...signalOf(options),
          }),
        ),
      suspend: (
        companyId: number,
        body: BodyOf<'/api/v1/admin/companies/{company_id}/suspend', 'post'> = {},
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/admin/companies/{company_id}/suspend', {
            params: { path: { company_id: companyId } },
            body,
            ...signalOf(options),
          }),
        ),
      activate: (companyId: number, options?: RequestOptions) =>
        unwrap(
          raw.POST('/api/v1/admin/companies/{company_id}/activate', {
            params: { path: { company_id: companyId } },
            body: {},
            ...signalOf(options),
          }),
        ),
    },
    users: {
      list: (query: QueryOf<'/api/v1/admin/users', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/users', { params: { query: { ...query, page } }, ...signalOf(options) }),
            ),
          query.page,
        ),
      get: (userId: string, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/admin/users/{user_id}', {
            params: { path: { user_id: userId } },
            ...signalOf(options),
          }),
        ),
      update: (
        userId: string,
        body: BodyOf<'/api/v1/admin/users/{user_id}', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/admin/users/{user_id}', {
            params: { path: { user_id: userId } },
            body,
            ...signalOf(options),
          }),
        ),
      suspend: (
        userId: string,
        body: BodyOf<'/api/v1/admin/users/{user_id}/suspend', 'post'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/admin/users/{user_id}/suspend', {
            params: { path: { user_id: userId } },
            body,
            ...signalOf(options),
          }),
        ),
    },
    payments: {
      list: (query: QueryOf<'/api/v1/admin/payments', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/payments', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      /** Moves money: carries an Idempotency-Key (yours or a fresh one, reused on retries). */
      manualRefund: (
        paymentId: number,
        body: BodyOf<'/api/v1/admin/payments/{payment_id}/manual-refund', 'post'>,
        options?: IdempotentCallOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/admin/payments/{payment_id}/manual-refund', {
            params: { path: { payment_id: paymentId } },
            headers: { 'Idempotency-Key': resolveIdempotencyKey(options) },
            body,
            ...signalOf(options),
          }),
        ),
    },
    reports: {
      dashboard: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/reports/dashboard', { ...signalOf(options) })),
      revenue: (query: QueryOf<'/api/v1/admin/reports/revenue', 'get'> = {}, options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/reports/revenue', { params: { query }, ...signalOf(options) })),
      audit: (query: QueryOf<'/api/v1/admin/reports/audit', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/reports/audit', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
    },
    hotelBookings: {
      list: (query: QueryOf<'/api/v1/admin/hotel-bookings', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/hotel-bookings', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/admin/hotel-bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...signalOf(options),
          }),
        ),
      stats: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/hotel-bookings/stats/summary', { ...signalOf(options) })),
      overrideStatus: (
        bookingId: number,
        query: QueryOf<'/api/v1/admin/hotel-bookings/{booking_id}/override-status', 'post'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/admin/hotel-bookings/{booking_id}/override-status', {
            params: { path: { booking_id: bookingId }, query },
            body: {},
            ...signalOf(options),
          }),
        ),
    },
    transportBookings: {
      list: (query: QueryOf<'/api/v1/admin/transport-bookings', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/transport-bookings', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/admin/transport-bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...signalOf(options),
          }),
        ),
      stats: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/transport-bookings/stats/summary', { ...signalOf(options) })),
      overrideStatus: (
        bookingId: number,
        query: QueryOf<'/api/v1/admin/transport-bookings/{booking_id}/override-status', 'post'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/admin/transport-bookings/{booking_id}/override-status', {
            params: { path: { booking_id: bookingId }, query },
            body: {},
            ...signalOf(options),
          }),
        ),
    },
    markupRules: {
      list: (query: QueryOf<'/api/v1/admin/markup-rules', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/markup-rules', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      create: (body: BodyOf<'/api/v1/admin/markup-rules', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/admin/markup-rules', { body, ...signalOf(options) })),
      update: (
        ruleId: number,
        body: BodyOf<'/api/v1/admin/markup-rules/{rule_id}', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/admin/markup-rules/{rule_id}', {
            params: { path: { rule_id: ruleId } },
            body,
            ...signalOf(options),
          }),
        ),
      remove: (ruleId: number, options?: RequestOptions) =>
        unwrap(
          raw.DELETE('/api/v1/admin/markup-rules/{rule_id}', {
            params: { path: { rule_id: ruleId } },
            ...signalOf(options),
          }),
        ),
    },
    gds: {
      status: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/gds/status', { ...signalOf(options) })),
      circuitBreakers: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/gds/circuit-breakers', { ...signalOf(options) })),
    },
    system: {
      health: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/system/health', { ...signalOf(options) })),
    },
  };
}
