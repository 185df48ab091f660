/**
 * A company's webhook endpoints (issue 30); the events module (`src/events/webhooks/`) owns the tables
 * and delivers.
 *
 * METHOD /path → operationId:
 *   POST   /api/v1/company/webhook-endpoints → companyCreateWebhookEndpoint
 *   GET    /api/v1/company/webhook-endpoints → companyListWebhookEndpoints
 *   PATCH  /api/v1/company/webhook-endpoints/{endpoint_id} → companyUpdateWebhookEndpoint
 *   POST   /api/v1/company/webhook-endpoints/{endpoint_id}/roll-secret → companyRollWebhookSecret
 *   GET    /api/v1/company/webhook-endpoints/{endpoint_id}/deliveries → companyListWebhookDeliveries
 *   POST   /api/v1/company/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/resend → companyResendWebhookDelivery
 */
import { isIP } from 'node:net';
import { writeAudit } from '../../audit/audit-log.ts';
import {
  createEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  rollSecret,
  updateEndpoint,
} from '../../events/webhooks/endpoints.ts';
import { checkUrl, isPublicAddress, OutboundRefused } from '../../events/webhooks/outbound.ts';
import type { Clock } from '../../internal/clock.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { Routes } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { ownCompany } from './clients.ts';

export interface WebhookRouteDeps {
  db: Db;
  clock: Clock;
  /** Sandbox mode: loopback URLs are allowed. */
  sandbox: boolean;
}

/** The URL's shape now; in live mode a literal private address too (names are checked at delivery). */
function acceptUrl(raw: string, sandbox: boolean): string {
  try {
    const url = checkUrl(raw, { sandbox });
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!sandbox && isIP(host) && !isPublicAddress(host))
      throw new OutboundRefused('A webhook URL may not name a private address.');
    return url.toString();
  } catch (err) {
    if (err instanceof OutboundRefused) throw badRequest('webhook_url_refused', err.message);
    throw err;
  }
}

const missing = () => notFound('webhook_endpoint_not_found', 'Webhook endpoint not found.');

export function webhookRoutes(d: WebhookRouteDeps): Routes {
  return {
    async companyCreateWebhookEndpoint(ctx) {
      const companyId = ownCompany(ctx);
      const b = ctx.body;
      const created = await d.db.transaction().execute(async (trx) => {
        const ep = await createEndpoint(trx, d.clock, {
          companyId,
          url: acceptUrl(b.url, d.sandbox),
          description: b.description ?? null,
          eventTypes: [...new Set(b.event_types ?? [])],
          enabled: b.enabled ?? true,
          createdBy: ctx.auth?.userId ?? '',
        });
        await writeAudit(trx, ctx, {
          entity: 'webhook_endpoint',
          entityId: ep.id,
          action: 'created',
          changes: { url: ep.url, event_types: ep.event_types },
          companyId,
        });
        return ep;
      });
      return { status: 201, body: created };
    },
    async companyListWebhookEndpoints(ctx) {
      return { status: 200, body: { data: await listEndpoints(d.db, ownCompany(ctx)) } };
    },
    async companyUpdateWebhookEndpoint(ctx) {
      const b = ctx.body;
      const patch: Parameters<typeof updateEndpoint>[4] = {};
      if (b.url !== undefined) patch.url = acceptUrl(b.url, d.sandbox);
      if (b.description !== undefined) patch.description = b.description;
      if (b.event_types !== undefined) patch.event_types = [...new Set(b.event_types)];
      if (b.enabled !== undefined) patch.enabled = b.enabled;
      const ep = await updateEndpoint(d.db, d.clock, ownCompany(ctx), Number(ctx.params.endpoint_id), patch);
      if (!ep) throw missing();
      return { status: 200, body: ep };
    },
    async companyRollWebhookSecret(ctx) {
      const companyId = ownCompany(ctx);
      const overlap = ctx.body?.overlap_seconds ?? 86_400;
      const ep = await rollSecret(d.db, d.clock, companyId, Number(ctx.params.endpoint_id), overlap);
      if (!ep) throw missing();
      await writeAudit(d.db, ctx, {
        entity: 'webhook_endpoint',
        entityId: ep.id,
        action: 'secret_rolled',
        changes: { overlap_seconds: overlap },
        companyId,
      });
      return { status: 200, body: ep };
    },
    async companyListWebhookDeliveries(ctx) {
      const rows = await listDeliveries(
        d.db,
        ownCompany(ctx),
        Number(ctx.params.endpoint_id),
        ctx.query.limit ?? 20,
      );
      if (!rows) throw missing();
      return { status: 200, body: { data: rows } };
    },
    async companyResendWebhookDelivery(ctx) {
      const companyId = ownCompany(ctx);
      const endpointId = Number(ctx.params.endpoint_id);
      const r = await resendDelivery(d.db, d.clock, companyId, endpointId, Number(ctx.params.delivery_id));
      if (!r) {
        if (!(await listDeliveries(d.db, companyId, endpointId, 1))) throw missing();
        throw notFound('webhook_delivery_not_found', 'Webhook delivery not found.');
      }
      return { status: 200, body: r };
    },
  };
}
