/**
 * API keys (issue 16, a documented addition): company admins create, list and revoke their company's
 * keys; a key reads its own record; super admins list and revoke any company's keys. The management
 * operations take a person's access token only: a key cannot mint or revoke keys.
 */
import {
  bool,
  dateTime,
  id64,
  idParam,
  input,
  int,
  nullable,
  obj,
  page,
  pageParams,
  queryParam,
  ref,
  type Schema,
  str,
  strEnum,
} from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, notFound } from './shared.ts';

const KEY_FIELDS: Record<string, Schema> = {
  id: id64({ description: 'The key id (not secret).' }),
  name: str({ description: 'What the key is for, e.g. "CI smoke bookings".' }),
  prefix: str({
    description:
      'The public start of the key (`tk_test_` or `tk_live_` and 8 characters): how to recognise it in lists and logs.',
    examples: ['tk_test_Xq3vL9aB'],
  }),
  role: ref('ApiKeyRole'),
  mode: strEnum(['test', 'live'], {
    description: '`test` keys are issued by sandbox servers (`tk_test_`), `live` keys by live ones.',
  }),
  company_id: int({ format: 'int32', minimum: 1 }),
  company_code: str({
    description: 'The key’s company code: what a flight search made with the key names as `companyCode`.',
    examples: ['SANDBOX'],
  }),
  created_by: str({ description: 'The user who created the key; the key acts as this user.' }),
  user_code: nullable(
    str({
      description:
        'The user code of the user the key acts as (its creator): what a flight search made with the key names as `userCode` (it must be the caller’s own). Null when that user has none; a search may then name `created_by`.',
      examples: ['AGENT1'],
    }),
  ),
  created_at: dateTime(),
  expires_at: nullable(
    dateTime({ description: 'After this instant the key answers 401 `api_key_expired`.' }),
  ),
  last_used_at: nullable(dateTime({ description: 'Brought up to date at most once a minute.' })),
  revoked_at: nullable(dateTime({ description: 'Revoked keys answer 401 `api_key_revoked`.' })),
};

export const apiKeySchemas: Record<string, Schema> = {
  ApiKeyRole: strEnum(['company_staff', 'company_admin'], {
    description:
      'What the key may do: `company_staff` (the default: bookings, payments, searches, company reads) or `company_admin` (also the company-admin operations). A key never acts above its creator’s current role.',
  }),
  ApiKey: obj(KEY_FIELDS, { description: 'An API key as listed: never the secret.' }),
  ApiKeyCreated: obj(
    {
      ...KEY_FIELDS,
      key: nullable(
        str({
          description:
            'The secret key, shown in this response only (the server stores its SHA-256). Null when the response is a replay of an earlier creation with the same Idempotency-Key.',
          examples: ['tk_test_Xq3vL9aB…'],
        }),
      ),
    },
    { description: 'A new API key with its secret: store it now, it is never shown again.' },
  ),
  ApiKeyPage: page('ApiKey', 'A page of API keys, newest first.'),
  ApiKeyCreateRequest: input(
    {
      name: str({ minLength: 1, maxLength: 100 }),
      role: ref('ApiKeyRole', { default: 'company_staff' }),
      expires_at: dateTime({
        description: 'Optional expiry, in the future. Without it the key lives until revoked.',
      }),
    },
    ['name'],
  ),
};

const keyId = () => idParam('key_id', 'API key');
const listParams = () => [
  ...pageParams(),
  queryParam('include_revoked', bool({ default: false }), { description: 'Also list revoked keys.' }),
];

const defs: OpDef[] = [
  {
    method: 'post',
    path: '/api/v1/company/api-keys',
    operationId: 'companyCreateApiKey',
    summary: 'Create an API key',
    description:
      'A key for servers and CI: send it as `X-API-Key: tk_…` or `Authorization: Bearer tk_…` on any operation that lists `apiKeyAuth`. The secret is in this response only. Needs a company admin’s access token in their own session (not a key, not an impersonation token).',
    auth: 'role',
    roles: ['company_admin'],
    tenant: true,
    credentials: 'own_session',
    addition: true,
    body: ref('ApiKeyCreateRequest'),
    responses: {
      201: {
        description: 'Created; `key` is the secret.',
        content: { 'application/json': { schema: ref('ApiKeyCreated') } },
      },
    },
    errors: badRequest('invalid_expiry'),
  },
  {
    method: 'get',
    path: '/api/v1/company/api-keys',
    operationId: 'companyListApiKeys',
    summary: 'List the company’s API keys',
    auth: 'role',
    roles: ['company_admin'],
    tenant: true,
    apiKey: false,
    addition: true,
    parameters: listParams(),
    responses: {
      200: { description: 'A page of keys.', content: { 'application/json': { schema: ref('ApiKeyPage') } } },
    },
  },
  {
    method: 'get',
    path: '/api/v1/company/api-keys/current',
    operationId: 'companyGetCurrentApiKey',
    summary: 'The API key making this call',
    description:
      'Who a key is: its prefix, role, company (with its code), the user it acts as (with their user code: what a flight search names as `companyCode`/`userCode`) and expiry. Called with an access token: 400 `not_an_api_key`.',
    auth: 'role',
    roles: ['company_admin', 'company_staff'],
    tenant: true,
    apiKey: true,
    addition: true,
    responses: {
      200: { description: 'The key.', content: { 'application/json': { schema: ref('ApiKey') } } },
    },
    errors: badRequest('not_an_api_key'),
  },
  {
    method: 'delete',
    path: '/api/v1/company/api-keys/{key_id}',
    operationId: 'companyRevokeApiKey',
    summary: 'Revoke an API key',
    description:
      'Immediate in every server process: the next request with the key answers 401 `api_key_revoked`. Revoking a revoked key answers it again unchanged.',
    auth: 'role',
    roles: ['company_admin'],
    tenant: true,
    apiKey: false,
    addition: true,
    parameters: [keyId()],
    responses: {
      200: { description: 'The revoked key.', content: { 'application/json': { schema: ref('ApiKey') } } },
    },
    errors: notFound('api_key_not_found'),
  },
  {
    method: 'get',
    path: '/api/v1/admin/companies/{company_id}/api-keys',
    operationId: 'adminListCompanyApiKeys',
    summary: 'List a company’s API keys',
    auth: 'role',
    roles: ['super_admin'],
    tag: 'admin',
    addition: true,
    parameters: [idParam('company_id', 'company', 32), ...listParams()],
    responses: {
      200: { description: 'A page of keys.', content: { 'application/json': { schema: ref('ApiKeyPage') } } },
    },
    errors: notFound('company_not_found'),
  },
  {
    method: 'delete',
    path: '/api/v1/admin/companies/{company_id}/api-keys/{key_id}',
    operationId: 'adminRevokeCompanyApiKey',
    summary: 'Revoke a company’s API key',
    description: 'Incident response: as the company admin’s revoke, for any company.',
    auth: 'role',
    roles: ['super_admin'],
    tag: 'admin',
    addition: true,
    parameters: [idParam('company_id', 'company', 32), keyId()],
    responses: {
      200: { description: 'The revoked key.', content: { 'application/json': { schema: ref('ApiKey') } } },
    },
    errors: notFound('company_not_found', 'api_key_not_found'),
  },
];

export const apiKeyOps = surface('company', defs);
