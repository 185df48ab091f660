/** The agency (company) surface: clients, bookings, staff, wallet, reports. Lists are lazy iterators. */
import { unwrap } from '../core/result.ts';
import { type ClientContext, type RequestOptions, signalOf } from './context.ts';
import { listPages } from './lists.ts';
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
      get: (options?: RequestOptions) => unwrap(raw.GET('/api/v1/company/profile', { ...signalOf(options) })),
      update: (body: BodyOf<'/api/v1/company/profile', 'patch'>, options?: RequestOptions) =>
        unwrap(raw.PATCH('/api/v1/company/profile', { body, ...signalOf(options) })),
    },
    clients: {
      list: (query: QueryOf<'/api/v1/company/clients', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/clients', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      create: (body: BodyOf<'/api/v1/company/clients', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/company/clients', { body, ...signalOf(options) })),
    },
    bookings: {
      list: (query: QueryOf<'/api/v1/company/bookings', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/bookings', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      pending: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/bookings/pending', { ...signalOf(options) })),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/company/bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...signalOf(options),
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
            ...signalOf(options),
          }),
        ),
    },
    hotelBookings: {
      list: (query: QueryOf<'/api/v1/company/hotel-bookings', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/hotel-bookings', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      pending: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/hotel-bookings/pending', { ...signalOf(options) })),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/company/hotel-bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...signalOf(options),
          }),
        ),
    },
    transportBookings: {
      list: (query: QueryOf<'/api/v1/company/transport-bookings', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/transport-bookings', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      pending: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/transport-bookings/pending', { ...signalOf(options) })),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/company/transport-bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...signalOf(options),
          }),
        ),
    },
    markupRules: {
      list: (query: QueryOf<'/api/v1/company/markup-rules', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/markup-rules', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      create: (body: BodyOf<'/api/v1/company/markup-rules', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/company/markup-rules', { body, ...signalOf(options) })),
      update: (
        ruleId: number,
        body: BodyOf<'/api/v1/company/markup-rules/{rule_id}', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/company/markup-rules/{rule_id}', {
            params: { path: { rule_id: ruleId } },
            body,
            ...signalOf(options),
          }),
        ),
      remove: (ruleId: number, options?: RequestOptions) =>
        unwrap(
          raw.DELETE('/api/v1/company/markup-rules/{rule_id}', {
            params: { path: { rule_id: ruleId } },
            ...signalOf(options),
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
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      invite: (body: BodyOf<'/api/v1/company/staff/invite', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/company/staff/invite', { body, ...signalOf(options) })),
    },
    wallet: {
      get: (options?: RequestOptions) => unwrap(raw.GET('/api/v1/company/wallet', { ...signalOf(options) })),
      transactions: (
        query: QueryOf<'/api/v1/company/wallet/transactions', 'get'> = {},
        options?: RequestOptions,
      ) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/company/wallet/transactions', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
    },
    reports: {
      dashboard: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/reports/dashboard', { ...signalOf(options) })),
      sales: (query: QueryOf<'/api/v1/company/reports/sales', 'get'> = {}, options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/company/reports/sales', { params: { query }, ...signalOf(options) })),
    },
  };
}
