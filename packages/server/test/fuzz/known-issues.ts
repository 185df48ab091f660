/**
 * Violations the fuzz suite found in code this suite does not own. Each is routed to its owner and has a
 * named regression test (`it.fails`) in `regressions.test.ts`; the fuzz run counts them in its summary
 * instead of failing. When the owner fixes one, its regression test starts failing: delete the entry.
 */
import type { Violation } from './harness.ts';

export interface KnownIssue {
  id: string;
  owner: string;
  summary: string;
  matches(v: Violation): boolean;
}

/** The request line (method, path and query), without headers or body. */
const target = (v: Violation) => v.request.split(' ')[1] ?? '';

export const KNOWN_ISSUES: readonly KnownIssue[] = [
  {
    id: 'int64-overflow-500',
    owner: 'kernel (src/kernel/schema-compiler.ts / middleware/validate.ts) or contract (int64 maximum)',
    summary:
      'An integer path/query value beyond 2^53 (e.g. booking_id 99999999999999999999, page=9223372036854776000) ' +
      'passes validation (`type: integer, format: int64` has no maximum; Ajv coerces it to 1e20) and PostgreSQL ' +
      'answers "bigint out of range": 500 internal_error instead of 422. Same for exponent forms (page=1e309 ' +
      'becomes Infinity, id 1e+308) and for ids between 2^31 and 2^53 where the column is `integer` while the ' +
      'contract says int64 (companyListClientBookings client_id 2147483648: "out of range for type integer").',
    matches: (v) =>
      v.kind === '5xx' && /(^|[/=])-?(\d{10,}|\d+(\.\d+)?e(%2B|\+)?\d+|Infinity)(\D|$)/i.test(target(v)),
  },
  {
    id: 'nul-byte-500',
    owner:
      'kernel (src/kernel/middleware/validate.ts), else each domain reading string ids (search, admin users)',
    summary:
      'A NUL character in a string path parameter (search_id, user_id = "%00") reaches PostgreSQL, which refuses ' +
      'text containing 0x00: 500 internal_error instead of 404/422.',
    matches: (v) => v.kind === '5xx' && (target(v).includes('%00') || v.request.includes('\\u0000')),
  },
  {
    id: 'lone-surrogate-json-500',
    owner:
      'kernel (src/kernel/middleware/json-body.ts: refuse lone surrogates), else domains writing jsonb (markup rules)',
    summary:
      'A body string with a lone UTF-16 surrogate ("\\udfff", valid JSON) that the handler stores in a jsonb ' +
      'column makes PostgreSQL fail ("invalid input syntax for type json"): adminCreateMarkupRule description ' +
      '"\\udfff" answers 500. (Into text columns it is silently replaced by U+FFFD.)',
    matches: (v) => v.kind === '5xx' && /\\ud[89a-f][0-9a-f]{2}/i.test(v.request),
  },
  {
    id: 'clear-cache-body',
    owner: 'platform domain (src/domains/platform/routes.ts `POST /admin/cache/clear`)',
    summary:
      'clearAllCache answers 200 {"cleared": true, "keys_removed": n}; the contract (ClearCacheResult) requires ' +
      '{"pattern": string, "cleared": integer}.',
    matches: (v) => v.kind === 'schema_mismatch' && v.operationId === 'clearAllCache',
  },
  {
    id: 'role-code-mismatch',
    owner: 'kernel (src/kernel/middleware/auth.ts roles()) or contract (x-error-codes)',
    summary:
      'A caller whose role is not in x-roles gets 403 code "forbidden_role"; the contract lists "insufficient_role" ' +
      'for that 403 on every role-restricted operation.',
    matches: (v) => v.kind === 'undeclared_code' && v.message.includes('code forbidden_role '),
  },
  {
    id: 'tenant-code-mismatch',
    owner:
      'kernel (src/kernel/tenant.ts assertNoForeignCompany) or contract (searchFlights/searchHotels x-error-codes)',
    summary:
      'Naming another company (companyCode) answers 403 "tenant_mismatch"; searchFlights and searchHotels declare ' +
      '"company_mismatch".',
    matches: (v) => v.kind === 'undeclared_code' && v.message.includes('code tenant_mismatch '),
  },
  {
    id: 'patch-415-413-undeclared',
    owner: 'contract (contract/paths: the 14 PATCH operations)',
    summary:
      'The kernel answers 415 (wrong Content-Type) and 413 (body over the limit) on PATCH as contracts section 2 ' +
      'requires, but the 14 PATCH operations do not declare 413/415 responses.',
    matches: (v) =>
      v.kind === 'undeclared_status' &&
      v.request.startsWith('PATCH ') &&
      /does not declare 41[35]$/.test(v.message),
  },
];

export const knownIssueOf = (v: Violation): KnownIssue | undefined => KNOWN_ISSUES.find((k) => k.matches(v));
