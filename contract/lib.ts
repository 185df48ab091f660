/**
 * Small builders that keep the 178 operations of the contract readable. Everything here returns plain
 * JSON-serializable objects; `build.ts` assembles them into the OpenAPI 3.1 document.
 */

export type Json = { [key: string]: unknown };
export type Schema = Json;

// ---------------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------------

export const ref = (name: string, extra: Json = {}): Schema => ({
  $ref: `#/components/schemas/${name}`,
  ...extra,
});
export const str = (extra: Json = {}): Schema => ({ type: 'string', ...extra });
/** The largest integer a JSON number (IEEE double) carries exactly: the bound of every int64 input. */
export const INT64_SAFE_MAX = 9007199254740991;
/** PostgreSQL `integer` (serial ids: companies, clients, staff, markup rules, saved travelers). */
export const INT32_MAX = 2147483647;

/**
 * An integer, always bounded: `format: int32` gets the 32-bit range, anything else the range a JSON
 * number holds exactly (int64 in the database). An unbounded integer would let 99999999999999999999 or
 * 1e308 through validation to the database (500 "out of range") instead of a 422. Explicit bounds win.
 */
export const int = (extra: Json = {}): Schema => {
  const bound = extra.format === 'int32' ? INT32_MAX : INT64_SAFE_MAX;
  const out: Schema = { type: 'integer', ...extra };
  if (out.minimum === undefined && out.exclusiveMinimum === undefined) {
    out.minimum = -bound;
    // A reader (and the docs page, which shows `examples[0]` or else the minimum) sees a plausible value.
    if (out.examples === undefined && out.example === undefined && out.default === undefined)
      out.examples = [1];
  }
  if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = bound;
  return out;
};
/** A positive id whose column is a 32-bit `integer` (serial). */
export const id32 = (extra: Json = {}): Schema => int({ minimum: 1, format: 'int32', ...extra });
/** A positive id whose column is a `bigint` (bigserial). */
export const id64 = (extra: Json = {}): Schema => int({ minimum: 1, format: 'int64', ...extra });
export const num = (extra: Json = {}): Schema => ({ type: 'number', ...extra });
export const bool = (extra: Json = {}): Schema => ({ type: 'boolean', ...extra });
export const arr = (items: Schema, extra: Json = {}): Schema => ({ type: 'array', items, ...extra });
export const strEnum = (values: readonly string[], extra: Json = {}): Schema => ({
  type: 'string',
  enum: [...values],
  ...extra,
});
export const constant = (value: string, extra: Json = {}): Schema => ({
  type: 'string',
  const: value,
  ...extra,
});
export const date = (extra: Json = {}): Schema => str({ format: 'date', ...extra });
export const dateTime = (extra: Json = {}): Schema => str({ format: 'date-time', ...extra });
export const email = (extra: Json = {}): Schema => str({ format: 'email', maxLength: 254, ...extra });
/** Integer amount in minor units of the accompanying currency. */
export const minor = (description = 'Amount in minor units of the currency.', extra: Json = {}): Schema =>
  int({ description, examples: [12500], ...extra });
/** Free-form object whose inner structure is owned by a supplier or the caller. */
export const freeObject = (description: string): Schema => ({
  type: 'object',
  additionalProperties: true,
  description,
});

/** The same schema, also allowing JSON null. */
export function nullable(schema: Schema): Schema {
  if ('$ref' in schema || 'allOf' in schema || 'oneOf' in schema || 'anyOf' in schema) {
    const { description, ...rest } = schema;
    return {
      anyOf: [rest, { type: 'null' }],
      ...(description === undefined ? {} : { description }),
    };
  }
  const type = schema.type;
  const out: Schema = { ...schema, type: Array.isArray(type) ? [...type, 'null'] : [type, 'null'] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}

/** An object returned by the service: every listed property is always present (nullable ones may be null). */
export function obj(properties: Record<string, Schema>, extra: Json = {}): Schema {
  return { type: 'object', required: Object.keys(properties), properties, ...extra };
}

/** An object with explicit required properties (used for inputs and partly-filled outputs). */
export function objReq(properties: Record<string, Schema>, required: string[], extra: Json = {}): Schema {
  for (const r of required) if (!(r in properties)) throw new Error(`required property ${r} not declared`);
  return {
    type: 'object',
    ...(required.length > 0 ? { required } : {}),
    properties,
    ...extra,
  };
}

/** A request body object: unknown properties are rejected with 422. */
export function input(properties: Record<string, Schema>, required: string[] = [], extra: Json = {}): Schema {
  return objReq(properties, required, { additionalProperties: false, ...extra });
}

/** The paginated envelope `{ items, total, page, page_size }`. */
export function page(itemSchema: string, description: string): Schema {
  return obj(
    {
      items: arr(ref(itemSchema)),
      total: int({ minimum: 0, description: 'Number of items matching the filters, across all pages.' }),
      page: int({ minimum: 1, maximum: PAGE_MAX }),
      page_size: int({ minimum: 1, maximum: 100 }),
    },
    { description },
  );
}

/** Exact totals up to this many matches; beyond it `total` is an estimate (server storage/bounded-total.ts). */
export const TOTAL_EXACT_UP_TO = 1000;

/**
 * A page of a list with keyset paging (`starting_after`): the envelope of `page` plus `has_more` and
 * `total_estimated`.
 */
export function keysetPage(itemSchema: string, description: string): Schema {
  const base = page(itemSchema, description) as { properties: Record<string, Schema> };
  return obj(
    {
      ...base.properties,
      total: int({
        minimum: 0,
        description: `Number of items matching the filters, across all pages: exact up to ${TOTAL_EXACT_UP_TO}; beyond that the database's estimate, and \`total_estimated\` is true. Counting stops at the bound so that a page costs the same however many rows match.`,
      }),
      total_estimated: bool({
        description: `True when more than ${TOTAL_EXACT_UP_TO} items match and \`total\` is an estimate.`,
      }),
      has_more: bool({
        description:
          'Whether items follow this page. To read on, pass the last item’s id as `starting_after` with the same filters and sort.',
      }),
    },
    { description },
  );
}

// ---------------------------------------------------------------------------------------------------
// Parameters
// ---------------------------------------------------------------------------------------------------

export interface ParamOpts {
  required?: boolean;
  description?: string;
  example?: unknown;
}

export const pathParam = (name: string, schema: Schema, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});

export function queryParam(name: string, schema: Schema, opts: ParamOpts = {}): Json {
  return {
    name,
    in: 'query',
    ...(opts.required ? { required: true } : {}),
    ...(opts.description ? { description: opts.description } : {}),
    schema,
    ...(opts.example === undefined ? {} : { example: opts.example }),
  };
}

export function headerParam(name: string, schema: Schema, opts: ParamOpts = {}): Json {
  return {
    name,
    in: 'header',
    ...(opts.required ? { required: true } : {}),
    ...(opts.description ? { description: opts.description } : {}),
    schema,
  };
}

/** Upper bound of a `page` query parameter (beyond it every page is empty anyway). */
export const PAGE_MAX = 100000;

/** page (1..100000, default 1) and page_size (1..100, default 20). */
export const pageParams = (): Json[] => [
  queryParam('page', int({ minimum: 1, maximum: PAGE_MAX, default: 1 }), {
    description: '1-based page number.',
  }),
  queryParam('page_size', int({ minimum: 1, maximum: 100, default: 20 }), {
    description: 'Items per page (at most 100).',
  }),
];

/**
 * page/page_size plus `starting_after` (keyset paging, as Stripe's): the id of the last item of the
 * previous page. It takes the place of `page`; its cost does not grow with depth, where `page` N reads the
 * (N-1)·page_size rows before it.
 */
export const keysetPageParams = (idName: string, idSchema: Schema = int({ minimum: 1 })): Json[] => [
  ...pageParams(),
  queryParam('starting_after', idSchema, {
    description: `Keyset paging: the \`${idName}\` of the last item of the previous page, sent with the same filters and sort; the page starts right after it and \`page\` is ignored. Prefer it to deep \`page\` numbers, which stay correct but cost more the deeper they go. An id the caller cannot list gives an empty page.`,
  }),
];

/** sort_by (an enum per list) and sort_order (asc/desc, default desc). */
export const sortParams = (fields: readonly string[], defaultField: string): Json[] => [
  queryParam('sort_by', strEnum(fields, { default: defaultField }), { description: 'Field to sort by.' }),
  queryParam('sort_order', ref('SortOrder', { default: 'desc' }), { description: 'Sort direction.' }),
];

export const periodParam = (defaultPeriod = '30d'): Json =>
  queryParam('period', ref('ReportPeriod', { default: defaultPeriod }), {
    description:
      'Reporting window ending now: today, the last 7/30/90/365 days, month to date (mtd) or year to date (ytd).',
  });

export const dateRangeParams = (): Json[] => [
  queryParam('date_from', date(), { description: 'Only records created on or after this date (inclusive).' }),
  queryParam('date_to', date(), { description: 'Only records created on or before this date (inclusive).' }),
];

export const searchParam = (what: string): Json =>
  queryParam('search', str({ minLength: 1, maxLength: 100 }), {
    description: `Free-text search over ${what}.`,
  });

/** Flight booking paths accept a numeric booking id or the 6-character PNR. */
export const flightBookingIdParam = (): Json =>
  pathParam(
    'booking_id',
    str({ pattern: '^([0-9]{1,18}|[A-Z0-9]{6})$', examples: ['1042', 'X7KQ2M'] }),
    'Numeric booking id (all digits) or the 6-character PNR (record locator).',
  );

/**
 * Numeric id path parameter (hotel, transport, admin, company and customer paths). `int32` where the
 * column is a 32-bit `integer` (companies, clients, staff, markup rules, saved travelers), else int64.
 */
export const idParam = (name: string, what: string, bits: 32 | 64 = 64): Json =>
  pathParam(name, bits === 32 ? id32() : id64(), `Numeric id of the ${what}.`);

export const searchIdParam = (): Json =>
  pathParam(
    'search_id',
    str({ minLength: 1, maxLength: 64 }),
    'The search_id returned when the search was started.',
  );

export const lastEventIdParam = (): Json =>
  headerParam('Last-Event-ID', str({ maxLength: 128 }), {
    description:
      'Resume a dropped stream: the `id:` of the last event received. The stream replays every event after it (nothing lost, nothing repeated). Browsers send it automatically on reconnect.',
  });

export const IDEMPOTENCY_KEY_SCHEMA: Schema = str({ minLength: 1, maxLength: 255 });

// ---------------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------------

export const jsonResponse = (description: string, schema: Schema, extra: Json = {}): Json => ({
  description,
  content: { 'application/json': { schema } },
  ...extra,
});

export const jsonBody = (schema: Schema, description?: string, required = true): Json => ({
  required,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema } },
});

const WWW_AUTHENTICATE = {
  'WWW-Authenticate': {
    description: 'The authentication scheme to use: `Bearer`.',
    schema: str({ examples: ['Bearer'] }),
  },
};

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: int({ minimum: 1 }),
  },
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request was understood but the operation failed.',
  401: 'Missing, malformed or expired bearer token.',
  403: 'Authenticated, but not allowed (role, tenant or suspended account).',
  404: 'Not found (also returned for another tenant’s resource).',
  408: 'The wait timed out.',
  409: 'A request with the same Idempotency-Key is still running; retry later for its result.',
  410: 'The search has expired (`SEARCH_TTL_SECONDS`, default 900).',
  413: 'The request body exceeds the size limit.',
  415: 'The POST or PATCH body is not `application/json`.',
  422: 'Request validation error.',
  429: 'Rate limit exceeded; retry after `Retry-After` seconds.',
  431: 'The request headers exceed the size limit (16 KiB in total); nothing was read or done.',
  500: 'Internal error; nothing was committed.',
  501: 'Not supported by the booking’s provider.',
  502: 'The supplier did not confirm or reject in time.',
  503: 'A dependency is unreachable: the database (`database_unavailable`), its disk is full (`storage_full`: nothing was written) or the supplier (`supplier_unavailable`, nothing was done), or the server is draining for shutdown and starts no new effect (`server_draining`, nothing was done); retry after `Retry-After` seconds with the same Idempotency-Key.',
};

/** An error response whose body is `ErrorResponse` (or the given schema), listing its stable codes. */
export function errorResponse(
  status: number,
  codes: string[],
  opts: { description?: string; schema?: Schema } = {},
): Json {
  const description = opts.description ?? ERROR_DESCRIPTIONS[status] ?? 'Error.';
  const schema = opts.schema ?? (status === 422 ? ref('HTTPValidationError') : ref('ErrorResponse'));
  return {
    description,
    ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
    ...(status === 401 ? { headers: WWW_AUTHENTICATE } : {}),
    content: { 'application/json': { schema } },
    'x-error-codes': [...new Set(codes)],
  };
}
