/**
 * The event feed's operations (contracts.md §8); the events module (`src/events/`) owns the table.
 *
 * METHOD /path → operationId:
 *   GET /api/v1/events → listEvents
 *   GET /api/v1/events/stream → streamEvents
 */

import { EVENT_TYPES } from '@travel/contract';
import type { EventFeed } from '../../events/feed.ts';
import { cursorOf, type EventFilter, readEvents } from '../../events/store.ts';
import { badRequest, forbidden } from '../../kernel/errors.ts';
import { tenantCompanyId } from '../../kernel/tenant.ts';
import type { RequestContext, Routes } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';

const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);

function companyOf(ctx: RequestContext): number {
  const id = tenantCompanyId(ctx);
  if (id === null)
    throw badRequest('event_not_found', 'The event feed is a company’s: call it as its staff.');
  return id;
}

function filterOf(ctx: RequestContext, q: { type?: string; resource_type?: string; resource_id?: string }) {
  const types = q.type
    ? q.type
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    : undefined;
  const unknown = types?.find((t) => !KNOWN.has(t));
  if (unknown) throw badRequest('invalid_event_type', `No event type ${unknown}.`);
  const f: EventFilter & { companyId: number } = { companyId: companyOf(ctx) };
  if (types) f.types = types;
  if (q.resource_type) f.resourceType = q.resource_type;
  if (q.resource_id) f.resourceId = q.resource_id;
  return f;
}

async function cursor(db: Db, companyId: number, id: string | undefined) {
  if (!id) return undefined;
  const c = await cursorOf(db, companyId, id);
  if (!c) throw badRequest('event_not_found', `No event ${id} in this company’s feed.`);
  return c;
}

export function eventRoutes(d: { db: Db; feed: EventFeed }): Routes {
  return {
    async listEvents(ctx) {
      const q = ctx.query;
      const f = filterOf(ctx, q);
      const limit = q.limit ?? 20;
      const after = await cursor(d.db, f.companyId, q.starting_after);
      const rows = await readEvents(d.db, { ...f, after, limit: limit + 1 });
      return {
        status: 200,
        body: { data: rows.slice(0, limit).map((r) => r.view), has_more: rows.length > limit },
      };
    },
    async streamEvents(ctx) {
      const f = filterOf(ctx, ctx.query);
      const last = ctx.headers['last-event-id'];
      const after = await cursor(d.db, f.companyId, typeof last === 'string' ? last : undefined);
      return { status: 200, sse: await d.feed.subscribe(f, after) };
    },
  };
}
