/**
 * `travel events list|show|resend|types`: the company's event feed (`GET /api/v1/events`, staff, admins and
 * their API keys). The contract has no "get one event" operation, so `show` pages through the feed until it
 * finds the id; and no "deliveries of an event", so `resend` looks for the event among each endpoint's latest
 * deliveries (company admins) and asks the server to send each match again.
 */
import type { components, TravelEvent } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { CliError, UsageError } from '../errors.ts';
import { ALL_EVENT_TYPES, type EventTypeName, parseEventTypes } from '../event-types.ts';
import { ExitCode } from '../exit-codes.ts';
import { integer, numericId } from '../parse.ts';
import { renderRecord, renderTable } from '../ui/table.ts';
import { eventCause, eventResource, eventTime } from '../views/event.ts';

type Delivery = components['schemas']['WebhookDelivery'];

export interface EventsListOptions {
  types: EventTypeName[] | undefined;
  limit: number;
  startingAfter: string | undefined;
}

function eventId(raw: string | undefined, name: string): string {
  const id = raw?.trim() ?? '';
  if (!/^evt_[A-Za-z0-9_-]+$/.test(id))
    throw new UsageError(`${name} must be an event id (evt_…), got "${raw ?? ''}"`);
  return id;
}

export async function runEventsList(options: EventsListOptions, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const page = await ctx.client().events.page({
    limit: options.limit,
    ...(options.types ? { type: options.types.join(',') } : {}),
    ...(options.startingAfter ? { starting_after: options.startingAfter } : {}),
  });
  output(ctx, page, () => {
    if (page.data.length === 0) {
      ctx.io.err(options.startingAfter ? 'No events after that one.' : 'No events yet.');
      return;
    }
    for (const line of renderTable(
      // What caused each one (request or job id) is in `events show` and --json: the rows stay one line.
      ['time (UTC)', 'type', 'resource', 'id'],
      page.data.map((e) => [eventTime(e.created_at), e.type, eventResource(e), e.id]),
      ctx.io.columns,
    ))
      ctx.io.out(line);
    const last = page.data.at(-1);
    if (page.has_more && last) ctx.io.err(`More: travel events list --starting-after ${last.id}`);
  });
}

/** Finds one event by paging through the feed (oldest first, 100 a page). */
async function findEvent(ctx: Ctx, id: string): Promise<TravelEvent> {
  for await (const e of ctx.client().events.list({ limit: 100 })) if (e.id === id) return e;
  throw new CliError(`no event ${id} in your company's feed (events are kept 30 days)`, ExitCode.notFound);
}

export async function runEventsShow(id: string, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const e = await findEvent(ctx, id);
  output(ctx, e, () => {
    for (const line of renderRecord({
      id: e.id,
      type: e.type,
      created_at: e.created_at,
      resource: eventResource(e),
      caused_by: eventCause(e),
    }))
      ctx.io.out(line);
    ctx.io.out('data:');
    for (const line of renderRecord(e.data, '  ')) ctx.io.out(line);
  });
}

export async function runEventsResend(id: string, endpointId: number | undefined, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const hooks = ctx.client().company.webhookEndpoints;
  const endpoints = (await hooks.list()).data.filter(
    (ep) => endpointId === undefined || ep.id === endpointId,
  );
  if (endpointId !== undefined && endpoints.length === 0)
    throw new CliError(`no webhook endpoint ${endpointId} in your company`, ExitCode.notFound);
  const matches: Delivery[] = [];
  for (const ep of endpoints)
    matches.push(...(await hooks.deliveries(ep.id, { limit: 100 })).data.filter((d) => d.event_id === id));
  if (matches.length === 0)
    throw new CliError(
      `no delivery of ${id} among the latest 100 deliveries of ${endpointId === undefined ? 'each webhook endpoint' : `endpoint ${endpointId}`} (an endpoint registered after the event, or not taking its type, never got it)`,
      ExitCode.notFound,
    );
  const resent: Delivery[] = [];
  for (const d of matches) resent.push(await hooks.resend(d.endpoint_id, d.id));
  output(ctx, { data: resent }, () => {
    for (const d of resent)
      ctx.io.out(
        `Resending delivery ${d.id} of ${d.event_id} to endpoint ${d.endpoint_id}: ${d.status}, next attempt ${d.next_attempt_at ?? 'now'}`,
      );
    ctx.io.err('`travel webhooks deliveries <endpoint>` shows how it went.');
  });
}

export function eventsCommand(deps: Deps): Command {
  const events = new Command('events').description("your company's event feed: list, show, resend, types");
  events.addCommand(
    examples(
      new Command('list')
        .description('events oldest first, a page at a time (time, type, resource and version, id)')
        .option('--type <types>', 'only these types: a comma-separated list, `booking.*` for a kind')
        .option('--limit <n>', 'events per page, 1-100 (default 20)')
        .option('--starting-after <id>', 'the page after this event id (the hint under the table names it)')
        .action(
          action(deps, (ctx, raw: { type?: string; limit?: string; startingAfter?: string }) =>
            runEventsList(
              {
                types: parseEventTypes(raw.type, '--type'),
                limit: integer(raw.limit, '--limit', 1, 100) ?? 20,
                startingAfter:
                  raw.startingAfter === undefined
                    ? undefined
                    : eventId(raw.startingAfter, '--starting-after'),
              },
              ctx,
            ),
          ),
        ),
      'travel events list',
      "travel events list --type 'booking.*,payment.captured' --limit 100",
      'travel events list --starting-after evt_Qk3Jx9vN2mL7pRw4tYs8',
      'travel events list --jq \'.data[] | select(.resource.id == "42") | .type\'',
    ),
  );
  events.addCommand(
    examples(
      new Command('show')
        .argument('<id>', 'the event id (evt_…)')
        .description('one event: type, time, resource, what caused it, and the resource as it was then')
        .action(action(deps, (ctx, _raw, [id]) => runEventsShow(eventId(id, '<id>'), ctx))),
      'travel events show evt_Qk3Jx9vN2mL7pRw4tYs8',
      'travel events show evt_Qk3Jx9vN2mL7pRw4tYs8 --jq .data.status',
    ),
  );
  events.addCommand(
    examples(
      new Command('resend')
        .argument('<id>', 'the event id (evt_…)')
        .description("send an event's webhook deliveries again now (company admins)")
        .option('--endpoint <id>', 'only the delivery to this webhook endpoint')
        .action(
          action(deps, (ctx, raw: { endpoint?: string }, [id]) =>
            runEventsResend(
              eventId(id, '<id>'),
              raw.endpoint === undefined ? undefined : numericId(raw.endpoint, '--endpoint'),
              ctx,
            ),
          ),
        ),
      'travel events resend evt_Qk3Jx9vN2mL7pRw4tYs8',
      'travel events resend evt_Qk3Jx9vN2mL7pRw4tYs8 --endpoint 3 --json',
    ),
  );
  events.addCommand(
    examples(
      new Command('types')
        .description('every event type (for --events and --type; `booking.*` takes a kind)')
        .action(
          action(deps, async (ctx) =>
            output(ctx, { data: ALL_EVENT_TYPES }, () => {
              for (const t of ALL_EVENT_TYPES) ctx.io.out(t);
            }),
          ),
        ),
      'travel events types',
    ),
  );
  return examples(events, 'travel events list', 'travel listen');
}
