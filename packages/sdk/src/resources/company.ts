/** The agency (company) surface: clients, bookings, staff, wallet, reports. Lists are lazy iterators. */
import { unwrap } from '../core/result.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import { listPages } from './lists.ts';
import { companyReservations } from './reservation.ts';
import type { BodyOf, QueryOf } from './types.ts';

/**
 * The `company` namespace.
 *
 * @example
 * const wallet = await travel.company.wallet.get();
 * for await (const client of travel.company.clients.list()) console.log(client);
 */
export function companyResource(ctx: ClientContext) {
  const { raw } = ctx;
  return {
    profile: {
      get: (options?: RequestOptions) => unwrap(raw.GET('/api/v1/company/profile', { ...ctx.init(options) })),
      update: (body: BodyOf<'/api/v1/company/profile', 'patch'>, options?: RequestOptions) =>
        unwrap(raw.PATCH('/api/v1/company/profile', { body, ...ctx.init(options) })),
      settings: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/profile/settings', { ...ctx.init(options) })),
      updateSettings: (body: BodyOf<'/api/v1/company/profile/settings', 'patch'>, options?: RequestOptions) =>
        unwrap(raw.PATCH('/api/v1/company/profile/settings', { body, ...ctx.init(options) })),
    },
    clients: {
      list: (query: QueryOf<'/api/v1/company/clients', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/clients', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
      create: (body: BodyOf<'/api/v1/company/clients', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/company/clients', { body, ...ctx.init(options) })),
      get: (clientId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/company/clients/{client_id}', {
            params: { path: { client_id: clientId } },
            ...ctx.init(options),
          }),
        ),
      update: (
        clientId: number,
        body: BodyOf<'/api/v1/company/clients/{client_id}', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/company/clients/{client_id}', {
            params: { path: { client_id: clientId } },
            body,
            ...ctx.init(options),
          }),
        ),
      /** The client's flight bookings, page by page. */
      bookings: (
        clientId: number,
        query: QueryOf<'/api/v1/company/clients/{client_id}/bookings', 'get'> = {},
        options?: RequestOptions,
      ) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/clients/{client_id}/bookings', {
                params: { path: { client_id: clientId }, query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
    },
    bookings: {
      list: (query: QueryOf<'/api/v1/company/bookings', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/bookings', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
      pending: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/bookings/pending', { ...ctx.init(options) })),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/company/bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...ctx.init(options),
          }),
        ),
      /** The booking's story: state changes, supplier and payment calls (redacted), money movements. */
      timeline: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/company/bookings/{booking_id}/timeline', {
            params: { path: { booking_id: bookingId } },
            ...ctx.init(options),
          }),
        ),
      assign: (
        bookingId: number,
        body: BodyOf<'/api/v1/company/bookings/{booking_id}/assign', 'post'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/company/bookings/{booking_id}/assign', {
            params: { path: { booking_id: bookingId } },
            body,
            ...ctx.init(options),
          }),
        ),
    },
    hotelBookings: companyReservations(ctx, 'hotel'),
    transportBookings: companyReservations(ctx, 'transport'),
    markupRules: {
      list: (query: QueryOf<'/api/v1/company/markup-rules', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/markup-rules', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
      create: (body: BodyOf<'/api/v1/company/markup-rules', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/company/markup-rules', { body, ...ctx.init(options) })),
      update: (
        ruleId: number,
        body: BodyOf<'/api/v1/company/markup-rules/{rule_id}', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/company/markup-rules/{rule_id}', {
            params: { path: { rule_id: ruleId } },
            body,
            ...ctx.init(options),
          }),
        ),
      remove: (ruleId: number, options?: RequestOptions) =>
        unwrap(
          raw.DELETE('/api/v1/company/markup-rules/{rule_id}', {
            params: { path: { rule_id: ruleId } },
            ...ctx.init(options),
          }),
        ),
    },
    staff: {
      list: (query: QueryOf<'/api/v1/company/staff', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/staff', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
      invite: (body: BodyOf<'/api/v1/company/staff/invite', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/company/staff/invite', { body, ...ctx.init(options) })),
      update: (
        staffId: number,
        body: BodyOf<'/api/v1/company/staff/{staff_id}', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/company/staff/{staff_id}', {
            params: { path: { staff_id: staffId } },
            body,
            ...ctx.init(options),
          }),
        ),
      deactivate: (staffId: number, options?: RequestOptions) =>
        unwrap(
          raw.POST('/api/v1/company/staff/{staff_id}/deactivate', {
            params: { path: { staff_id: staffId } },
            body: {},
            ...ctx.init(options),
          }),
        ),
    },
    webhookEndpoints: {
      /** The signing secret is in this response only: store it at once. */
      create: (body: BodyOf<'/api/v1/company/webhook-endpoints', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/company/webhook-endpoints', { body, ...ctx.init(options) })),
      list: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/webhook-endpoints', { ...ctx.init(options) })),
      update: (
        endpointId: number,
        body: BodyOf<'/api/v1/company/webhook-endpoints/{endpoint_id}', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/company/webhook-endpoints/{endpoint_id}', {
            params: { path: { endpoint_id: endpointId } },
            body,
            ...ctx.init(options),
          }),
        ),
      /** A new secret (shown once); the old one keeps signing during `overlap_seconds`. */
      rollSecret: (
        endpointId: number,
        body: BodyOf<'/api/v1/company/webhook-endpoints/{endpoint_id}/roll-secret', 'post'> = {},
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/company/webhook-endpoints/{endpoint_id}/roll-secret', {
            params: { path: { endpoint_id: endpointId } },
            body,
            ...ctx.init(options),
          }),
        ),
      deliveries: (endpointId: number, query: { limit?: number } = {}, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/company/webhook-endpoints/{endpoint_id}/deliveries', {
            params: { path: { endpoint_id: endpointId }, query },
            ...ctx.init(options),
          }),
        ),
      resend: (endpointId: number, deliveryId: number, options?: RequestOptions) =>
        unwrap(
          raw.POST('/api/v1/company/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/resend', {
            params: { path: { endpoint_id: endpointId, delivery_id: deliveryId } },
            body: {},
            ...ctx.init(options),
          }),
        ),
    },
    apiKeys: {
      /** The secret is in this response only: store it at once. */
      create: (body: BodyOf<'/api/v1/company/api-keys', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/company/api-keys', { body, ...ctx.init(options) })),
      list: (query: QueryOf<'/api/v1/company/api-keys', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/api-keys', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
      /** The key this client calls with (`auth: { apiKey }`). */
      current: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/api-keys/current', { ...ctx.init(options) })),
      revoke: (keyId: number, options?: RequestOptions) =>
        unwrap(
          raw.DELETE('/api/v1/company/api-keys/{key_id}', {
            params: { path: { key_id: keyId } },
            ...ctx.init(options),
          }),
        ),
    },
    wallet: {
      get: (options?: RequestOptions) => unwrap(raw.GET('/api/v1/company/wallet', { ...ctx.init(options) })),
      transactions: (
        query: QueryOf<'/api/v1/company/wallet/transactions', 'get'> = {},
        options?: RequestOptions,
      ) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/wallet/transactions', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
    },
    reports: {
      dashboard: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/reports/dashboard', { ...ctx.init(options) })),
      sales: (query: QueryOf<'/api/v1/company/reports/sales', 'get'> = {}, options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/reports/sales', { params: { query }, ...ctx.init(options) })),
      topClients: (
        query: QueryOf<'/api/v1/company/reports/top-clients', 'get'> = {},
        options?: RequestOptions,
      ) =>
        unwrap(raw.GET('/api/v1/company/reports/top-clients', { params: { query }, ...ctx.init(options) })),
      topRoutes: (
        query: QueryOf<'/api/v1/company/reports/top-routes', 'get'> = {},
        options?: RequestOptions,
      ) => unwrap(raw.GET('/api/v1/company/reports/top-routes', { params: { query }, ...ctx.init(options) })),
    },
  };
}
