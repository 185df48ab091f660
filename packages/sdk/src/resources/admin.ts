/** Platform administration. List calls return lazy iterators: `for await (const b of admin.bookings.list())`. */

import type { operations } from '@travel/contract';
import { type IdempotentCallOptions, resolveIdempotencyKey } from '../core/idempotency.ts';
import { unwrap } from '../core/result.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import { listPages } from './lists.ts';
import { adminReservations } from './reservation.ts';
import type { BodyOf, QueryOf } from './types.ts';

/** A supplier (GDS) name as the admin GDS calls take it. */
type GdsProvider = operations['adminUpdateGdsConfig']['parameters']['path']['provider'];

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
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/admin/bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...ctx.init(options),
          }),
        ),
      /** The booking's story: state changes, supplier and payment calls (redacted), money movements. */
      timeline: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/admin/bookings/{booking_id}/timeline', {
            params: { path: { booking_id: bookingId } },
            ...ctx.init(options),
          }),
        ),
      reconciliation: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/bookings/reconciliation', { ...ctx.init(options) })),
      overrideStatus: (
        bookingId: number,
        body: BodyOf<'/api/v1/admin/bookings/{booking_id}/override-status', 'post'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/admin/bookings/{booking_id}/override-status', {
            params: { path: { booking_id: bookingId } },
            body,
            ...ctx.init(options),
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
            ...ctx.init(options),
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
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
      create: (body: BodyOf<'/api/v1/admin/companies', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/admin/companies', { body, ...ctx.init(options) })),
      get: (companyId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/admin/companies/{company_id}', {
            params: { path: { company_id: companyId } },
            ...ctx.init(options),
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
            ...ctx.init(options),
          }),
        ),
      update: (
        companyId: number,
        body: BodyOf<'/api/v1/admin/companies/{company_id}', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/admin/companies/{company_id}', {
            params: { path: { company_id: companyId } },
            body,
            ...ctx.init(options),
          }),
        ),
      /** Soft delete. */
      remove: (companyId: number, options?: RequestOptions) =>
        unwrap(
          raw.DELETE('/api/v1/admin/companies/{company_id}', {
            params: { path: { company_id: companyId } },
            ...ctx.init(options),
          }),
        ),
      apiKeys: {
        list: (
          companyId: number,
          query: QueryOf<'/api/v1/admin/companies/{company_id}/api-keys', 'get'> = {},
          options?: RequestOptions,
        ) =>
          listPages(
            (page) =>
              unwrap(
                raw.GET('/api/v1/admin/companies/{company_id}/api-keys', {
                  params: { path: { company_id: companyId }, query: { ...query, page } },
                  ...ctx.init(options),
                }),
              ),
            query.page,
          ),
        revoke: (companyId: number, keyId: number, options?: RequestOptions) =>
          unwrap(
            raw.DELETE('/api/v1/admin/companies/{company_id}/api-keys/{key_id}', {
              params: { path: { company_id: companyId, key_id: keyId } },
              ...ctx.init(options),
            }),
          ),
      },
      activate: (companyId: number, options?: RequestOptions) =>
        unwrap(
          raw.POST('/api/v1/admin/companies/{company_id}/activate', {
            params: { path: { company_id: companyId } },
            body: {},
            ...ctx.init(options),
          }),
        ),
    },
    users: {
      list: (query: QueryOf<'/api/v1/admin/users', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/users', { params: { query: { ...query, page } }, ...ctx.init(options) }),
            ),
          query.page,
        ),
      get: (userId: string, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/admin/users/{user_id}', {
            params: { path: { user_id: userId } },
            ...ctx.init(options),
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
            ...ctx.init(options),
          }),
        ),
      /** A short-lived token acting as the user (audited); the admin's own session is unchanged. */
      impersonate: (
        userId: string,
        body: BodyOf<'/api/v1/admin/users/{user_id}/impersonate', 'post'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/admin/users/{user_id}/impersonate', {
            params: { path: { user_id: userId } },
            body,
            ...ctx.init(options),
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
            ...ctx.init(options),
          }),
        ),
    },
    payments: {
      settlementReport: (
        query: QueryOf<'/api/v1/admin/payments/settlement-report', 'get'> = {},
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.GET('/api/v1/admin/payments/settlement-report', { params: { query }, ...ctx.init(options) }),
        ),
      list: (query: QueryOf<'/api/v1/admin/payments', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/payments', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
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
            body,
            ...ctx.init(options, { 'Idempotency-Key': resolveIdempotencyKey(options) }),
          }),
        ),
    },
    reports: {
      dashboard: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/reports/dashboard', { ...ctx.init(options) })),
      live: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/reports/live', { ...ctx.init(options) })),
      revenue: (query: QueryOf<'/api/v1/admin/reports/revenue', 'get'> = {}, options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/reports/revenue', { params: { query }, ...ctx.init(options) })),
      audit: (query: QueryOf<'/api/v1/admin/reports/audit', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/reports/audit', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
    },
    hotelBookings: adminReservations(ctx, 'hotel'),
    transportBookings: adminReservations(ctx, 'transport'),
    markupRules: {
      list: (query: QueryOf<'/api/v1/admin/markup-rules', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/markup-rules', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
      create: (body: BodyOf<'/api/v1/admin/markup-rules', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/admin/markup-rules', { body, ...ctx.init(options) })),
      /** The markup the rules would apply to a price; changes nothing. */
      calculate: (query: QueryOf<'/api/v1/admin/markup-rules/calculate', 'post'>, options?: RequestOptions) =>
        unwrap(
          raw.POST('/api/v1/admin/markup-rules/calculate', {
            params: { query },
            body: {},
            ...ctx.init(options),
          }),
        ),
      update: (
        ruleId: number,
        body: BodyOf<'/api/v1/admin/markup-rules/{rule_id}', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/admin/markup-rules/{rule_id}', {
            params: { path: { rule_id: ruleId } },
            body,
            ...ctx.init(options),
          }),
        ),
      remove: (ruleId: number, options?: RequestOptions) =>
        unwrap(
          raw.DELETE('/api/v1/admin/markup-rules/{rule_id}', {
            params: { path: { rule_id: ruleId } },
            ...ctx.init(options),
          }),
        ),
    },
    gds: {
      status: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/gds/status', { ...ctx.init(options) })),
      circuitBreakers: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/gds/circuit-breakers', { ...ctx.init(options) })),
      performance: (query: QueryOf<'/api/v1/admin/gds/performance', 'get'> = {}, options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/gds/performance', { params: { query }, ...ctx.init(options) })),
      updateConfig: (
        provider: GdsProvider,
        body: BodyOf<'/api/v1/admin/gds/{provider}/config', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/admin/gds/{provider}/config', {
            params: { path: { provider } },
            body,
            ...ctx.init(options),
          }),
        ),
      resetCircuit: (provider: GdsProvider, options?: RequestOptions) =>
        unwrap(
          raw.POST('/api/v1/admin/gds/{provider}/reset-circuit', {
            params: { path: { provider } },
            body: {},
            ...ctx.init(options),
          }),
        ),
    },
    system: {
      health: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/system/health', { ...ctx.init(options) })),
      cacheStats: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/admin/system/cache-stats', { ...ctx.init(options) })),
      /** Deletes the cache keys matching `pattern`. */
      clearCache: (query: QueryOf<'/api/v1/admin/system/clear-cache', 'post'>, options?: RequestOptions) =>
        unwrap(
          raw.POST('/api/v1/admin/system/clear-cache', { params: { query }, body: {}, ...ctx.init(options) }),
        ),
      errorLogs: (query: QueryOf<'/api/v1/admin/system/error-logs', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/admin/system/error-logs', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
    },
  };
}
