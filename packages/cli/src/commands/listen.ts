/**
 * `travel listen`: the company's events live, one line each, from `GET /api/v1/events/stream`. The SDK's
 * stream resumes with `Last-Event-ID` across drops; once listening, a server that cannot be reached is
 * retried here with backoff, resuming after the last event printed. With `--forward-to` each event is also
 * POSTed to a local URL, signed as a webhook delivery with the profile's listen secret (the `stripe listen`
 * loop). It runs until Ctrl-C (exit 130, as every stream).
 */
import type { ConnectionError, Logger, LogRecord, TravelEvent } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, requireToken } from '../command-kit.ts';
import type { ClientOptions, Ctx, Deps } from '../context.ts';
import { type EventTypeName, parseEventTypes } from '../event-types.ts';
import { forwardEvent, newListenSecret, parseForwardUrl } from '../forward.ts';
import { VERSION } from '../program.ts';
import { eventLine, eventTime } from '../views/event.ts';

export interface ListenOptions {
  types: EventTypeName[] | undefined;
  /** --events as typed (`booking.*`), for the banner. */
  typesLabel: string | undefined;
  forwardTo: URL | undefined;
  printSecret: boolean;
  /** --jq: each event goes through the filter (io.json); plain --json prints one JSON line per event. */
  jq: boolean;
}

/** The run learns from the SDK's request log when the stream's response arrives (it is listening then). */
export interface StreamWatch {
  onConnected: (() => void) | undefined;
}

/** Consecutive connections that fail, once listening, before listen gives up (~3 minutes of backoff). */
const MAX_FAILED_CONNECTIONS = 10;

/** The profile's listen secret, made and stored on first use so a handler's configuration keeps working. */
export function listenSecret(ctx: Ctx): string {
  const stored = ctx.profile().listen_secret;
  if (stored) return stored;
  const secret = newListenSecret();
  ctx.config.updateProfile(ctx.profileName, { listen_secret: secret });
  return secret;
}

export async function runListen(options: ListenOptions, ctx: Ctx, watch: StreamWatch): Promise<void> {
  if (options.printSecret) {
    ctx.io.out(listenSecret(ctx));
    return;
  }
  requireToken(ctx);
  const secret = listenSecret(ctx);
  const { c } = ctx.io;
  let lastId: string | undefined;
  let connections = 0;
  let failures = 0;
  watch.onConnected = () => {
    connections++;
    failures = 0;
    if (connections > 1) {
      ctx.io.err(c.dim(`reconnected${lastId ? `; resuming after ${lastId}` : ''}`));
      return;
    }
    const what = options.types ? (options.typesLabel ?? options.types.join(', ')) : 'every event type';
    ctx.io.err(`Ready. Listening to ${what} on ${ctx.baseUrl} (Ctrl-C to quit).`);
    if (options.forwardTo) {
      ctx.io.err(`Forwarding to ${options.forwardTo.href}, signed with ${c.bold(secret)}`);
      ctx.io.err(
        c.dim('Verify it in your handler: webhooks.constructEvent(rawBody, signatureHeader, secret).'),
      );
      ctx.io.err(
        c.dim(`The secret stays the same for profile "${ctx.profileName}" (travel listen --print-secret).`),
      );
    }
  };
  const query = options.types ? { type: options.types.join(',') } : {};
  const events = ctx.client().events;
  for (;;) {
    try {
      const stream = events.stream(query, {
        ...(lastId ? { lastEventId: lastId } : {}),
        maxReconnects: MAX_FAILED_CONNECTIONS,
      });
      for await (const message of stream) {
        if (message.event === 'shutdown') {
          ctx.io.err(c.dim('the server is restarting; reconnecting…'));
          continue;
        }
        if (message.event !== 'event') continue;
        const event = message.data as TravelEvent;
        lastId = event.id;
        await show(event, options, secret, ctx);
      }
    } catch (error) {
      // Never connected: a wrong URL or a stopped server fails at once (the error names the server).
      if (!isConnectionError(error) || connections === 0 || ++failures > MAX_FAILED_CONNECTIONS) throw error;
      const waitMs = Math.min(30_000, 1000 * 2 ** (failures - 1));
      ctx.io.err(c.yellow(`lost ${ctx.baseUrl} (${error.message}); reconnecting in ${waitMs / 1000} s…`));
      await ctx.sleep(waitMs);
    }
  }
}

function isConnectionError(error: unknown): error is ConnectionError {
  return error instanceof Error && error.name === 'ConnectionError';
}

async function show(event: TravelEvent, options: ListenOptions, secret: string, ctx: Ctx): Promise<void> {
  if (options.jq) ctx.io.json(event);
  else if (ctx.json) ctx.io.out(JSON.stringify(event));
  else ctx.io.out(eventLine(event, ctx.io.c));
  if (!options.forwardTo) return;
  const r = await forwardEvent(options.forwardTo, event, secret, {
    now: ctx.now,
    userAgent: `travel-cli-listen/${VERSION}`,
  });
  const { c } = ctx.io;
  const answer =
    r.status === undefined
      ? c.red(`failed: ${r.error}`)
      : (r.status >= 200 && r.status < 300 ? c.green : c.red)(`[${r.status}]`);
  const line = `${eventTime(ctx.now().toISOString())}  <-- ${answer} POST ${options.forwardTo.href} [${event.id}] ${r.ms} ms`;
  // With --json stdout carries only events: the forwarding lines are progress then.
  if (ctx.json) ctx.io.err(line);
  else ctx.io.out(line);
}

/** The deps of one run, with the SDK's request log telling `watch` when the event stream is open. */
function watched(deps: Deps, watch: StreamWatch): Deps {
  const isStream = (r: LogRecord) => r.status === 200 && r.path.includes('/api/v1/events/stream');
  const sdk = (o: ClientOptions) => {
    const logger: Logger = {
      debug(message, record) {
        o.logger?.debug(message, record);
        if (isStream(record)) watch.onConnected?.();
      },
    };
    return deps.sdk({ ...o, logger });
  };
  return { ...deps, sdk };
}

export function listenCommand(deps: Deps): Command {
  return examples(
    new Command('listen')
      .description(
        "stream your company's events live, one line each; --forward-to POSTs each one to a local URL, signed like a webhook",
      )
      .option('--events <types>', 'only these types: a comma-separated list, `booking.*` for a kind')
      .option('--forward-to <url>', 'POST each event here, signed with the listen secret (Travel-Signature)')
      .option('--print-secret', "print this profile's listen secret (whsec_…) and exit")
      .addHelpText(
        'after',
        '\nEach event prints its time, type, resource (kind, id, version) and id; with --forward-to a second line\n' +
          'shows the status your endpoint answered. --json prints each event as one JSON line. The stream resumes\n' +
          'after a dropped connection without losing or repeating an event. Ctrl-C stops it (exit 130).',
      )
      .action((...params: unknown[]) => {
        const watch: StreamWatch = { onConnected: undefined };
        return action(
          watched(deps, watch),
          (ctx, raw: { events?: string; forwardTo?: string; printSecret?: boolean; jq?: string }) =>
            runListen(
              {
                types: parseEventTypes(raw.events, '--events'),
                typesLabel: raw.events,
                forwardTo: parseForwardUrl(raw.forwardTo),
                printSecret: Boolean(raw.printSecret),
                jq: raw.jq !== undefined,
              },
              ctx,
              watch,
            ),
        )(...params);
      }),
    'travel listen',
    "travel listen --events 'booking.*,payment.captured'",
    'travel listen --forward-to http://localhost:3000/hooks',
    'export TRAVEL_WEBHOOK_SECRET=$(travel listen --print-secret)',
    'travel listen --json | jq -c \'select(.type == "booking.pending_settled") | .resource\'',
  );
}
