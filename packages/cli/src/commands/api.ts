/**
 * `travel api METHOD PATH [-f key=value …] [--query k=v …] [--input FILE] [-H 'Name: value']`: any
 * operation of the contract, with the run's credentials, an Idempotency-Key where the contract declares
 * one, the response as JSON on stdout and the documented exit codes.
 */
import { readFileSync } from 'node:fs';
import { toApiError } from '@travel/sdk';
import { Command } from 'commander';
import { type ApiInput, type ApiRequest, buildApiRequest } from '../api-request.ts';
import { action, examples } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { UsageError } from '../errors.ts';
import { OPERATIONS } from '../operations.generated.ts';

export interface ApiOptions {
  field?: string[];
  query?: string[];
  header?: string[];
  input?: string;
  idempotencyKey?: string;
  include?: boolean;
  list?: boolean;
}

export async function runApi(
  method: string | undefined,
  path: string | undefined,
  options: ApiOptions,
  ctx: Ctx,
): Promise<void> {
  if (options.list) {
    for (const [m, template, operationId, idempotency] of OPERATIONS)
      ctx.io.out(
        `${m.padEnd(6)} ${template}  ${operationId}${idempotency === 'required' ? '  (idempotency key)' : ''}`,
      );
    return;
  }
  if (!method)
    throw new UsageError(
      'METHOD and PATH are missing, e.g. `travel api GET /api/v1/auth/me`; `travel api --list` lists every operation',
    );
  if (!path) throw new UsageError('PATH is missing, e.g. `travel api GET /api/v1/auth/me`');
  const input: ApiInput = {
    method,
    path,
    fields: options.field ?? [],
    query: options.query ?? [],
    headers: options.header ?? [],
    idempotencyKey: options.idempotencyKey ?? ctx.env.TRAVEL_IDEMPOTENCY_KEY,
  };
  if (options.input !== undefined) input.input = await readInput(options.input, ctx);
  const request = buildApiRequest(input);
  const key = request.headers['Idempotency-Key'];
  if (key && ctx.verbose) ctx.io.err(`Idempotency-Key: ${key}`);
  const { response, body } = await send(ctx, request, options.include === true);
  if (!body) return;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) return streamLines(body, ctx);
  const text = await new Response(body).text();
  if (!text) return;
  if (type.includes('json')) {
    ctx.io.json(JSON.parse(text));
    return;
  }
  ctx.io.out(text.replace(/\n$/, ''));
}

/** Sends a built request with the run's client; a non-2xx answer throws the SDK's mapped error. */
async function send(ctx: Ctx, request: ApiRequest, include = false) {
  // A wait on a terminal shows one spinner line on stderr (nothing without a terminal or with --json).
  const spinner = ctx.json
    ? undefined
    : ctx.io.spinner(`${request.operation.method} ${request.operation.path}`);
  const result = await ctx
    .client()
    .raw.request(
      request.operation.method.toLowerCase() as 'get',
      request.operation.path as '/',
      {
        params: { query: request.query },
        ...(request.body !== undefined ? { body: request.body as never } : {}),
        headers: request.headers,
        parseAs: 'stream',
      } as never,
    )
    .finally(() => spinner?.stop());
  const response = result.response;
  if (include) {
    ctx.io.err(`HTTP ${response.status} ${response.statusText}`);
    for (const [name, value] of response.headers) ctx.io.err(`${name}: ${value}`);
  }
  if (!response.ok) throw toApiError(result as { error?: unknown; response: Response });
  return { response, body: (result as { data?: ReadableStream<Uint8Array> | undefined }).data };
}

/** One operation of the contract, its JSON answer parsed (undefined for an empty answer). */
export async function callOperation(
  ctx: Ctx,
  method: string,
  path: string,
  init: { query?: Record<string, unknown>; body?: unknown; fields?: string[] },
): Promise<unknown> {
  const input: ApiInput = {
    method,
    path,
    fields: init.fields ?? [],
    query: Object.entries(init.query ?? {}).map(([k, v]) => `${k}=${String(v)}`),
    headers: [],
  };
  if (init.body !== undefined) input.input = init.body;
  const { body } = await send(ctx, buildApiRequest(input));
  const text = body ? await new Response(body).text() : '';
  return text ? JSON.parse(text) : undefined;
}

async function readInput(file: string, ctx: Ctx): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await ctx.io.readStdin() : readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--input ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--input ${file}: not a JSON document`);
  }
}

/** Server-sent events: every line as it arrives (`event: …`, `data: …`), so `| grep data:` works live. */
async function streamLines(body: ReadableStream<Uint8Array>, ctx: Ctx): Promise<void> {
  let pending = '';
  for await (const chunk of body.pipeThrough(
    new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>,
  )) {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) ctx.io.out(line.replace(/\r$/, ''));
  }
  if (pending) ctx.io.out(pending);
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function apiCommand(deps: Deps): Command {
  return examples(
    new Command('api')
      .argument('[method]', 'GET | POST | PUT | PATCH | DELETE')
      .argument(
        '[path]',
        'a path of the contract, e.g. /api/v1/bookings/42 (the /api/v1 prefix may be left out)',
      )
      .description('call any operation of the contract (JSON out); like `gh api`')
      .option(
        '-f, --field <key=value>',
        'a body field (query field for GET/DELETE), typed: numbers, true/false/null, JSON, @file; key[sub]= and key[]= nest',
        collect,
      )
      .option('-q, --query <key=value>', 'a query parameter (repeatable)', collect)
      .option('-H, --header <"Name: value">', 'an extra request header (repeatable)', collect)
      .option('--input <file>', 'the JSON request body from a file (- for stdin); -f fields are merged in')
      .option(
        '--idempotency-key <key>',
        'use this Idempotency-Key (else a fresh one where the contract has one)',
      )
      .option('-i, --include', 'print the status line and response headers on stderr')
      .option('--list', 'list every operation of the contract')
      .action(action<ApiOptions>(deps, (ctx, options, [method, path]) => runApi(method, path, options, ctx))),
    'travel api GET /api/v1/auth/me',
    'travel api GET airports/search -f query=dubai',
    'travel api POST /api/v1/bookings/42/notes -f notes="window seat please"',
    'travel api POST /api/v1/admin/markup-rules --input rule.json -f priority=10',
    'travel api PATCH /api/v1/company/profile/settings -f settings[auto_ticketing]=true',
    'travel api --list | grep wallet',
  );
}
