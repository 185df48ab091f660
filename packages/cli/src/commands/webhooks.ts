/**
 * `travel webhooks create|list|roll-secret|disable|enable|deliveries`: the company's webhook endpoints
 * (`/api/v1/company/webhook-endpoints`, company admins with their login). `create` and `roll-secret` print
 * the signing secret once, alone on stdout, so it can be piped into a secret store.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { UsageError } from '../errors.ts';
import { type EventTypeName, parseEventTypes } from '../event-types.ts';
import { integer, numericId } from '../parse.ts';
import { renderTable } from '../ui/table.ts';
import { eventTime } from '../views/event.ts';

type Endpoint = components['schemas']['WebhookEndpoint'];
type WithSecret = components['schemas']['WebhookEndpointWithSecret'];

const when = (iso: string | null) => (iso ? eventTime(iso) : '-');

export function endpointState(ep: Endpoint): string {
  if (!ep.enabled) return ep.disabled_reason ? `disabled (${ep.disabled_reason})` : 'disabled';
  return ep.failing_since ? `failing since ${when(ep.failing_since)}` : 'enabled';
}

/** `--overlap`: seconds, or `12h`, `1d`, `30m` (0: the old secret stops signing at once). */
export function parseOverlap(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d{1,6})([smhd]?)$/.exec(raw.trim());
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 }[m?.[2] ?? ''] ?? 1;
  const seconds = m ? Number(m[1]) * unit : Number.NaN;
  if (!(seconds >= 0 && seconds <= 7 * 86_400))
    throw new UsageError(`--overlap must be 0 to 7d (e.g. 3600, 12h, 1d), got "${raw}"`);
  return seconds;
}

function printSecret(ctx: Ctx, ep: WithSecret, what: string): void {
  if (ctx.json) ctx.io.json(ep);
  else ctx.io.out(ep.secret);
  ctx.io.err(ctx.io.c.yellow(`Store this signing secret now: it is shown only once. ${what}`));
  ctx.io.err(
    "Verify deliveries with webhooks.constructEvent(rawBody, req.headers['travel-signature'], secret).",
  );
}

export async function runWebhooksCreate(
  options: { url: string; types: EventTypeName[] | undefined; description: string | undefined },
  ctx: Ctx,
): Promise<void> {
  requireToken(ctx);
  const ep = await ctx.client().company.webhookEndpoints.create(
    {
      url: options.url,
      ...(options.types ? { event_types: options.types } : {}),
      ...(options.description ? { description: options.description } : {}),
    },
    // One endpoint per run even if the transport retries the request.
    { idempotencyKey: randomUUID() },
  );
  const types = ep.event_types.length ? ep.event_types.join(', ') : 'every event type';
  printSecret(ctx, ep, `Endpoint ${ep.id} ${ep.url} receives ${types}.`);
}

export async function runWebhooksList(ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const list = await ctx.client().company.webhookEndpoints.list();
  output(ctx, list, () => {
    if (list.data.length === 0) {
      ctx.io.err('No webhook endpoints. Add one with `travel webhooks create --url https://…`.');
      return;
    }
    for (const line of renderTable(
      ['id', 'url', 'events', 'state', 'created'],
      list.data.map((ep) => [
        String(ep.id),
        ep.url,
        ep.event_types.length ? ep.event_types.join(', ') : 'all',
        endpointState(ep),
        when(ep.created_at),
      ]),
      ctx.io.columns,
    ))
      ctx.io.out(line);
  });
}

export async function runWebhooksRoll(id: number, overlap: number | undefined, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const ep = await ctx
    .client()
    .company.webhookEndpoints.rollSecret(id, overlap === undefined ? {} : { overlap_seconds: overlap }, {
      idempotencyKey: randomUUID(),
    });
  const until = ep.previous_secret_expires_at;
  printSecret(
    ctx,
    ep,
    until
      ? `The old secret keeps signing too until ${when(until)} UTC (deliveries carry both signatures).`
      : 'The old secret no longer signs.',
  );
}

export async function runWebhooksEnable(id: number, enabled: boolean, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const ep = await ctx.client().company.webhookEndpoints.update(id, { enabled });
  output(ctx, ep, () =>
    ctx.io.err(
      enabled
        ? `Endpoint ${ep.id} ${ep.url} is enabled again: new events are delivered to it.`
        : `Endpoint ${ep.id} ${ep.url} is disabled: it gets nothing until \`travel webhooks enable ${ep.id}\`.`,
    ),
  );
}

export async function runWebhooksDeliveries(id: number, limit: number, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const list = await ctx.client().company.webhookEndpoints.deliveries(id, { limit });
  output(ctx, list, () => {
    if (list.data.length === 0) {
      ctx.io.err(`No deliveries to endpoint ${id} yet.`);
      return;
    }
    for (const line of renderTable(
      ['id', 'event', 'type', 'status', 'attempts', 'last answer', 'next attempt'],
      list.data.map((d) => [
        String(d.id),
        d.event_id,
        d.event_type,
        d.status,
        String(d.attempts),
        d.last_status !== null ? String(d.last_status) : (d.last_error ?? '-'),
        when(d.next_attempt_at),
      ]),
      ctx.io.columns,
    ))
      ctx.io.out(line);
  });
}

const idArg = (id: string | undefined) => numericId(id, '<id>');

export function webhooksCommand(deps: Deps): Command {
  const hooks = new Command('webhooks').description(
    "your company's webhook endpoints (company admins): create, list, roll-secret, disable",
  );
  hooks.addCommand(
    examples(
      new Command('create')
        .description('register an endpoint and print its signing secret ONCE on stdout')
        .option('--url <url>', 'where events are POSTed: https:// (http:// to localhost in sandbox)')
        .option(
          '--events <types>',
          'only these types: a comma-separated list, `booking.*` for a kind (default all)',
        )
        .option('--description <text>', 'what the endpoint is for')
        .action(
          action(deps, (ctx, raw: { url?: string; events?: string; description?: string }) => {
            if (!raw.url) throw new UsageError('missing --url (e.g. --url https://example.com/hooks)');
            return runWebhooksCreate(
              { url: raw.url, types: parseEventTypes(raw.events, '--events'), description: raw.description },
              ctx,
            );
          }),
        ),
      'travel webhooks create --url https://erp.example.com/travel-hooks',
      "travel webhooks create --url https://erp.example.com/hooks --events 'booking.*,ticket.issued'",
      'travel webhooks create --url https://erp.example.com/hooks | vault kv put secret/travel-hook secret=-',
    ),
  );
  hooks.addCommand(
    examples(
      new Command('list')
        .description('the endpoints: url, event types, state (enabled, failing since, disabled and why)')
        .action(action(deps, (ctx) => runWebhooksList(ctx))),
      'travel webhooks list',
      "travel webhooks list --jq '.data[] | select(.enabled) | .url'",
    ),
  );
  hooks.addCommand(
    examples(
      new Command('roll-secret')
        .argument('<id>', 'the endpoint id (from `travel webhooks list`)')
        .description('a new signing secret, printed ONCE; the old one keeps signing during the overlap')
        .option(
          '--overlap <duration>',
          'how long the old secret still signs: seconds, 12h, 1d (default 1d; 0: stop now)',
        )
        .action(
          action(deps, (ctx, raw: { overlap?: string }, [id]) =>
            runWebhooksRoll(idArg(id), parseOverlap(raw.overlap), ctx),
          ),
        ),
      'travel webhooks roll-secret 3',
      'travel webhooks roll-secret 3 --overlap 0',
    ),
  );
  hooks.addCommand(
    examples(
      new Command('disable')
        .argument('<id>', 'the endpoint id')
        .description('stop delivering to an endpoint (`enable` starts again)')
        .action(action(deps, (ctx, _raw, [id]) => runWebhooksEnable(idArg(id), false, ctx))),
      'travel webhooks disable 3',
    ),
  );
  hooks.addCommand(
    examples(
      new Command('enable')
        .argument('<id>', 'the endpoint id')
        .description('deliver to a disabled endpoint again (its failure clock starts over)')
        .action(action(deps, (ctx, _raw, [id]) => runWebhooksEnable(idArg(id), true, ctx))),
      'travel webhooks enable 3',
    ),
  );
  hooks.addCommand(
    examples(
      new Command('deliveries')
        .argument('<id>', 'the endpoint id')
        .description("an endpoint's latest deliveries: event, status, attempts, its last answer")
        .option('--limit <n>', '1-100 (default 20)')
        .action(
          action(deps, (ctx, raw: { limit?: string }, [id]) =>
            runWebhooksDeliveries(idArg(id), integer(raw.limit, '--limit', 1, 100) ?? 20, ctx),
          ),
        ),
      'travel webhooks deliveries 3',
      'travel webhooks deliveries 3 --jq \'.data[] | select(.status == "dead") | .event_id\'',
    ),
  );
  return examples(
    hooks,
    'travel webhooks list',
    'travel webhooks create --url https://erp.example.com/hooks',
  );
}
