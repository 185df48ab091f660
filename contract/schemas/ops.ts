/** Reports, GDS operations, system and platform (health, metrics, config, root). */
import {
  arr,
  bool,
  date,
  dateTime,
  id64,
  input,
  int,
  type Json,
  keysetPage,
  minor,
  nullable,
  num,
  obj,
  page,
  ref,
  str,
  strEnum,
} from '../lib.ts';

const count = () => int({ minimum: 0 });
const ratio = () => num({ minimum: 0, maximum: 1 });

const periodFields = {
  period: ref('ReportPeriod'),
  from: dateTime(),
  to: dateTime(),
};

const currencyTotals = (description: string) =>
  arr(
    obj({
      currency: ref('Currency'),
      bookings: count(),
      gross_minor: minor('Total booked value.'),
      markup_minor: minor(),
      refunds_minor: minor(),
      net_minor: minor('gross - refunds.'),
    }),
    { description },
  );

export const schemas: Record<string, Json> = {
  // --- reports ----------------------------------------------------------------------------------------
  AdminDashboard: obj({
    bookings_today: count(),
    bookings_30d: count(),
    bookings_by_status: { type: 'object', additionalProperties: count() },
    hotel_bookings_30d: count(),
    transport_bookings_30d: count(),
    revenue_30d: currencyTotals('Last 30 days per currency.'),
    active_companies: count(),
    active_users: count(),
    searches_24h: count(),
    pending_reconciliation: count(),
    generated_at: dateTime(),
  }),
  LiveReport: obj({
    active_searches: count(),
    active_streams: count(),
    open_connections: count(),
    components: obj({ database: ref('ComponentHealth'), cache: ref('ComponentHealth') }),
    suppliers: arr(ref('GdsStatus')),
    generated_at: dateTime(),
  }),
  RevenueReport: obj({
    ...periodFields,
    company_id: nullable(int()),
    days: arr(
      obj({
        date: date(),
        currency: ref('Currency'),
        bookings: count(),
        gross_minor: minor(),
        markup_minor: minor(),
        refunds_minor: minor(),
        net_minor: minor(),
      }),
    ),
    totals: currencyTotals('Totals per currency over the period.'),
  }),
  SettlementReport: obj({
    ...periodFields,
    items: arr(
      obj({
        currency: ref('Currency'),
        payments: count(),
        authorized_minor: minor(),
        captured_minor: minor(),
        refunded_minor: minor(),
        settled_minor: minor(),
        net_minor: minor('captured - refunded.'),
      }),
    ),
  }),
  CompanyDashboard: obj({
    bookings_today: count(),
    bookings_30d: count(),
    bookings_by_status: { type: 'object', additionalProperties: count() },
    pending_payment: count(),
    pending_ticketing: count(),
    on_hold_expiring: count(),
    revenue_30d: currencyTotals('Last 30 days per currency.'),
    wallet: ref('Wallet'),
    generated_at: dateTime(),
  }),
  SalesReport: obj({
    ...periodFields,
    days: arr(
      obj({
        date: date(),
        currency: ref('Currency'),
        bookings: count(),
        gross_minor: minor(),
        markup_minor: minor(),
      }),
    ),
    totals: currencyTotals('Totals per currency over the period.'),
  }),
  TopClientsReport: obj({
    ...periodFields,
    items: arr(
      obj({
        client_id: nullable(int()),
        user_id: nullable(str()),
        full_name: str(),
        bookings: count(),
        currency: ref('Currency'),
        revenue_minor: minor(),
      }),
    ),
  }),
  TopRoutesReport: obj({
    ...periodFields,
    items: arr(
      obj({
        origin: str(),
        destination: str(),
        bookings: count(),
        currency: ref('Currency'),
        revenue_minor: minor(),
      }),
    ),
  }),
  // --- reconciliation and GDS -------------------------------------------------------------------------
  ReconciliationItem: obj({
    booking_id: id64(),
    booking_type: strEnum(['flight', 'hotel', 'transport']),
    status: str({ description: 'The booking’s current status.' }),
    attempts: count(),
    next_attempt_at: nullable(dateTime()),
    last_error: nullable(str()),
    queued_at: dateTime(),
  }),
  ReconciliationQueue: page('ReconciliationItem', 'Bookings awaiting reconciliation, oldest first.'),
  ReconcileRequest: input(
    { force: bool({ default: false, description: 'Queue even if the booking is not pending.' }) },
    [],
  ),
  OverrideStatusRequest: input(
    {
      new_status: ref('BookingStatus'),
      reason: str({ minLength: 1, maxLength: 500 }),
      notify_customer: bool({ default: false }),
    },
    ['new_status', 'reason'],
  ),
  CircuitState: strEnum(['closed', 'open', 'half_open']),
  CircuitBreaker: obj({
    provider: str(),
    state: ref('CircuitState'),
    failure_count: count(),
    last_failure_at: nullable(dateTime()),
    opened_at: nullable(dateTime()),
    next_attempt_at: nullable(dateTime()),
  }),
  CircuitBreakerList: obj({ items: arr(ref('CircuitBreaker')) }),
  GdsConfig: obj({
    enabled: bool(),
    timeout: int({ minimum: 1, maximum: 120, description: 'Per-search supplier deadline, seconds.' }),
    max_results: int({ minimum: 1, maximum: 1000 }),
    priority: int({ minimum: 0, maximum: 100 }),
  }),
  GdsConfigUpdateRequest: input(
    {
      enabled: bool(),
      timeout: int({ minimum: 1, maximum: 120 }),
      max_results: int({ minimum: 1, maximum: 1000 }),
      priority: int({ minimum: 0, maximum: 100 }),
    },
    [],
    { minProperties: 1 },
  ),
  GdsStatus: obj({
    provider: ref('FlightSupplier'),
    healthy: bool(),
    circuit_state: ref('CircuitState'),
    latency_ms: nullable(num({ minimum: 0 })),
    last_checked_at: nullable(dateTime()),
    config: ref('GdsConfig'),
  }),
  GdsStatusList: obj({ items: arr(ref('GdsStatus')) }),
  GdsPerformance: obj({
    provider: ref('FlightSupplier'),
    period: ref('ReportPeriod'),
    searches: count(),
    success_rate: ratio(),
    timeouts: count(),
    errors: count(),
    avg_latency_ms: nullable(num({ minimum: 0 })),
    p95_latency_ms: nullable(num({ minimum: 0 })),
    avg_offers: nullable(num({ minimum: 0 })),
  }),
  GdsPerformanceReport: obj({ period: ref('ReportPeriod'), items: arr(ref('GdsPerformance')) }),
  // --- system -----------------------------------------------------------------------------------------
  CacheStats: obj({
    hits: count(),
    misses: count(),
    hit_ratio: ratio(),
    keys: count(),
    key_distribution: {
      type: 'object',
      description: 'Key prefix (e.g. search, offer, reference) to key count.',
      additionalProperties: count(),
    },
    memory_bytes: nullable(count()),
  }),
  ClearCacheResult: obj({ pattern: str(), cleared: count() }),
  ErrorStage: strEnum(
    ['search', 'pricing', 'booking', 'payment', 'ticketing', 'servicing', 'ancillaries', 'reconciliation'],
    {
      description: 'Pipeline stage where the error happened.',
    },
  ),
  ErrorLogEntry: obj({
    error_id: id64(),
    stage: ref('ErrorStage'),
    provider: nullable(str()),
    code: str(),
    message: str({ description: 'Never contains a credential.' }),
    supplier_code: nullable(str()),
    request_id: nullable(str()),
    operation_id: nullable(str()),
    booking_id: nullable(int({ format: 'int64' })),
    created_at: dateTime(),
  }),
  ErrorLogPage: keysetPage('ErrorLogEntry', 'A page of error log entries, newest first.'),
  HealthStatus: strEnum(['ok', 'degraded', 'down']),
  Health: obj({
    status: ref('HealthStatus'),
    components: obj({ database: ref('ComponentHealth'), cache: ref('ComponentHealth') }),
    build: ref('BuildInfo'),
    timestamp: dateTime(),
  }),
  BuildInfo: obj(
    {
      version: str({ description: 'The server build’s version (its package version), not the API version.' }),
      commit: str({
        description:
          'The source commit the build was made from: set at image build (`ARG COMMIT`), else `git rev-parse HEAD` of the checkout, else `unknown`.',
      }),
    },
    { description: 'Which build of the server answered. The API version is the contract’s `info.version`.' },
  ),
  Liveness: obj({
    status: strEnum(['ok']),
    uptime_seconds: num({ minimum: 0 }),
  }),
  Readiness: obj(
    {
      status: strEnum(['ready', 'not_ready']),
      checks: obj({
        database: strEnum(['ok', 'down'], { description: 'A query reached the database.' }),
        migrations: strEnum(['current', 'pending', 'unknown'], {
          description:
            'current: every migration this build knows is applied (a newer build’s extra ones are allowed); unknown while the database is down.',
        }),
        draining: bool({ description: 'The process received SIGTERM and is handing its traffic over.' }),
      }),
      build: ref('BuildInfo'),
    },
    {
      description:
        'Ready only when the database answers, migrations are current and the process is not draining.',
    },
  ),
  SystemHealth: obj({
    status: ref('HealthStatus'),
    version: str(),
    uptime_seconds: num({ minimum: 0 }),
    components: obj({ database: ref('ComponentHealth'), cache: ref('ComponentHealth') }),
    suppliers: {
      type: 'object',
      description: 'Supplier name to its health.',
      additionalProperties: ref('ComponentHealth'),
    },
    jobs: obj({ pending: count(), failed: count() }),
    timestamp: dateTime(),
  }),
  // --- platform ---------------------------------------------------------------------------------------
  CacheMetrics: obj({
    hits: count(),
    misses: count(),
    hit_ratio: ratio(),
    keys: count(),
    evictions: count(),
  }),
  CacheStoreMetrics: obj({
    connected: bool(),
    backend: str({ description: 'e.g. postgres, memory.' }),
    keys: count(),
    used_memory_bytes: nullable(count()),
    hits: count(),
    misses: count(),
    expired_keys: count(),
  }),
  CombinedMetrics: obj({
    cache: ref('CacheMetrics'),
    store: ref('CacheStoreMetrics'),
    requests: obj({ total: count(), errors_5xx: count(), in_flight: count() }),
    searches: obj({ active: count(), total: count() }),
    uptime_seconds: num({ minimum: 0 }),
  }),
  PublicConfig: obj({
    app_name: str(),
    version: str(),
    environment: str(),
    api_prefix: str({ const: '/api/v1' }),
    currencies: arr(ref('Currency')),
    suppliers: obj({
      flight: arr(ref('FlightSupplier')),
      hotel: arr(ref('HotelSupplier')),
      transfer: arr(ref('TransferSupplier')),
    }),
    search_ttl_seconds: int({ minimum: 1 }),
    sandbox: bool(),
  }),
  ApiInfo: obj({
    name: str(),
    version: str({ description: 'The API version: the contract’s `info.version`, as /docs shows it.' }),
    build: ref('BuildInfo'),
    environment: str(),
    docs_url: str(),
    openapi_url: str(),
    health_url: str(),
  }),
  MaintenanceResult: obj({
    expired_searches_purged: count(),
    expired_cache_keys_removed: count(),
    expired_idempotency_keys_removed: count(),
    duration_ms: num({ minimum: 0 }),
  }),
};
