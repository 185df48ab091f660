/**
 * Webhook endpoints (issue 30, a documented addition): a company admin registers URLs that receive the
 * company's events (`Event`, as `GET /api/v1/events` lists them), signed with
 * `Travel-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`.
 */
import {
  arr,
  bool,
  dateTime,
  id64,
  idParam,
  input,
  int,
  nullable,
  objReq,
  queryParam,
  ref,
  type Schema,
  str,
  strEnum,
} from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, notFound } from './shared.ts';

const URL_DESC =
  'Where the events are POSTed: `https://…` (plain `http://` only to a loopback host, and loopback only in sandbox mode). In live mode the host is resolved at each delivery and refused when it resolves to a private, loopback, link-local or metadata address.';

const ENDPOINT: Record<string, Schema> = {
  id: id64(),
  url: str({ format: 'uri', description: URL_DESC }),
  description: nullable(str()),
  event_types: arr(ref('EventType'), { description: 'The event types sent; empty: every type.' }),
  enabled: bool(),
  previous_secret_expires_at: nullable(
    dateTime({ description: 'Until then the rolled secret still signs: deliveries carry two `v1`.' }),
  ),
  failing_since: nullable(dateTime({ description: 'The first failed delivery since the last success.' })),
  disabled_reason: nullable(
    str({ description: 'Why the platform disabled it (`failing for 3 days`); enabling it again clears it.' }),
  ),
  created_at: dateTime(),
  updated_at: dateTime(),
};
const ENDPOINT_REQ = Object.keys(ENDPOINT);

export const webhookSchemas: Record<string, Schema> = {
  WebhookEndpoint: objReq(ENDPOINT, ENDPOINT_REQ, { description: 'A webhook endpoint: never its secret.' }),
  WebhookEndpointWithSecret: objReq(
    {
      ...ENDPOINT,
      secret: str({
        description:
          'The signing secret (`whsec_…`), shown in this response only. Keep it with your receiver.',
      }),
    },
    [...ENDPOINT_REQ, 'secret'],
  ),
  WebhookEndpointList: objReq({ data: arr(ref('WebhookEndpoint')) }, ['data']),
  WebhookEndpointCreateRequest: input(
    {
      url: str({ minLength: 8, maxLength: 2000, description: URL_DESC }),
      description: str({ maxLength: 200 }),
      event_types: arr(ref('EventType'), { maxItems: 50, description: 'Default: every type.' }),
      enabled: bool({ default: true }),
    },
    ['url'],
  ),
  WebhookEndpointUpdateRequest: input({
    url: str({ minLength: 8, maxLength: 2000, description: URL_DESC }),
    description: nullable(str({ maxLength: 200 })),
    event_types: arr(ref('EventType'), { maxItems: 50 }),
    enabled: bool({ description: 'Enabling a disabled endpoint starts its failure clock over.' }),
  }),
  WebhookSecretRollRequest: input({
    overlap_seconds: int({
      minimum: 0,
      maximum: 7 * 86_400,
      default: 86_400,
      description: 'How long the old secret keeps signing beside the new one (0: at once replaced).',
    }),
  }),
  WebhookDelivery: objReq(
    {
      id: id64(),
      endpoint_id: id64(),
      event_id: str(),
      event_type: ref('EventType'),
      status: strEnum(['pending', 'succeeded', 'dead'], {
        description: '`dead`: given up after 3 days of failed attempts (resend it when the receiver works).',
      }),
      attempts: int({ minimum: 0 }),
      next_attempt_at: nullable(dateTime()),
      last_attempt_at: nullable(dateTime()),
      last_status: nullable(int({ description: 'The HTTP status the endpoint answered.' })),
      last_error: nullable(str()),
      response_excerpt: nullable(
        str({ description: 'The first 4 KiB of the endpoint’s answer (admins only).' }),
      ),
      delivered_at: nullable(dateTime()),
      created_at: dateTime(),
    },
    [
      'id',
      'endpoint_id',
      'event_id',
      'event_type',
      'status',
      'attempts',
      'next_attempt_at',
      'last_attempt_at',
      'last_status',
      'last_error',
      'response_excerpt',
      'delivered_at',
      'created_at',
    ],
  ),
  WebhookDeliveryList: objReq({ data: arr(ref('WebhookDelivery')) }, ['data']),
};

const base = '/api/v1/company/webhook-endpoints';
const endpointId = () => idParam('endpoint_id', 'webhook endpoint');
const json = (schema: string, description: string) => ({
  description,
  content: { 'application/json': { schema: ref(schema) } },
});
const admin = {
  auth: 'role' as const,
  roles: ['company_admin' as const],
  tenant: true,
  addition: true,
  apiKey: false,
};

const defs: OpDef[] = [
  {
    ...admin,
    method: 'post',
    path: base,
    operationId: 'companyCreateWebhookEndpoint',
    summary: 'Register a webhook endpoint',
    description:
      'The response carries the signing secret, once. Deliveries are at-least-once (dedupe on the event `id`), unordered (use `resource.version`), retried with exponential backoff for 3 days; an endpoint failing for 3 days is disabled and the company admins are mailed.',
    credentials: 'own_session',
    body: ref('WebhookEndpointCreateRequest'),
    responses: { 201: json('WebhookEndpointWithSecret', 'Registered; `secret` is shown only now.') },
    errors: badRequest('webhook_url_refused'),
  },
  {
    ...admin,
    method: 'get',
    path: base,
    operationId: 'companyListWebhookEndpoints',
    summary: 'List the company’s webhook endpoints',
    responses: { 200: json('WebhookEndpointList', 'The endpoints, oldest first.') },
  },
  {
    ...admin,
    method: 'patch',
    path: `${base}/{endpoint_id}`,
    operationId: 'companyUpdateWebhookEndpoint',
    summary: 'Change, disable or enable a webhook endpoint',
    parameters: [endpointId()],
    body: ref('WebhookEndpointUpdateRequest'),
    responses: { 200: json('WebhookEndpoint', 'The endpoint.') },
    errors: { ...badRequest('webhook_url_refused'), ...notFound('webhook_endpoint_not_found') },
  },
  {
    ...admin,
    method: 'post',
    path: `${base}/{endpoint_id}/roll-secret`,
    operationId: 'companyRollWebhookSecret',
    summary: 'Roll a webhook endpoint’s secret',
    description:
      'A new secret, shown once. During the overlap every delivery carries two `v1` signatures (new and old), so the receiver can switch without losing an event.',
    credentials: 'own_session',
    parameters: [endpointId()],
    body: ref('WebhookSecretRollRequest'),
    bodyRequired: false,
    responses: { 200: json('WebhookEndpointWithSecret', 'The endpoint with its new secret.') },
    errors: notFound('webhook_endpoint_not_found'),
  },
  {
    ...admin,
    method: 'get',
    path: `${base}/{endpoint_id}/deliveries`,
    operationId: 'companyListWebhookDeliveries',
    summary: 'List a webhook endpoint’s deliveries',
    parameters: [endpointId(), queryParam('limit', int({ minimum: 1, maximum: 100, default: 20 }))],
    responses: { 200: json('WebhookDeliveryList', 'Deliveries, newest first.') },
    errors: notFound('webhook_endpoint_not_found'),
  },
  {
    ...admin,
    method: 'post',
    path: `${base}/{endpoint_id}/deliveries/{delivery_id}/resend`,
    operationId: 'companyResendWebhookDelivery',
    summary: 'Send a delivery again',
    description: 'A new attempt now, with fresh retries if it fails (also for a dead or delivered one).',
    parameters: [endpointId(), idParam('delivery_id', 'webhook delivery')],
    responses: { 200: json('WebhookDelivery', 'The delivery, pending its new attempt.') },
    errors: notFound('webhook_endpoint_not_found', 'webhook_delivery_not_found'),
  },
];

export const webhookOps = surface('company', defs);
