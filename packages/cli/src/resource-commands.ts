/**
 * `travel admin …` and `travel company …` are tables over contract operations: each list / show / create
 * names its operation's path, its filters or fields, and the columns of its human table. They send
 * through the same request builder as `travel api` (so the Idempotency-Key rules are the contract's).
 */
import { formatMoney, isCurrency } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, output } from './command-kit.ts';
import { callOperation } from './commands/api.ts';
import type { Ctx, Deps } from './context.ts';
import { UsageError } from './errors.ts';
import { renderRecord, renderTable } from './ui/table.ts';

/** A column: header, and how to read it from a row. */
export type Column = readonly [header: string, read: (row: Record<string, unknown>) => unknown];

/** A flag mapped to a query parameter or body field: [flag, key, description, typed as number?]. */
export type Param = readonly [flag: string, key: string, description: string, kind?: 'number' | 'boolean'];

export interface ListSpec {
  kind: 'list';
  name: string;
  description: string;
  path: string;
  columns: readonly Column[];
  filters?: readonly Param[];
  examples: string[];
}

export interface ShowSpec {
  kind: 'show';
  name: string;
  description: string;
  /** With one `{param}`, filled from the argument (none for a singleton such as the wallet). */
  path: string;
  /** Leading `label  value` lines of the human view (the whole record follows them). */
  summary?: readonly Column[];
  examples: string[];
}

export interface CreateSpec {
  kind: 'create';
  name: string;
  description: string;
  method: 'POST';
  path: string;
  required: readonly Param[];
  optional?: readonly Param[];
  examples: string[];
}

export type Spec = ListSpec | ShowSpec | CreateSpec;

/** A cell: money as money, lists counted, nested records summarised. */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return String(value.length);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `amount_minor` + `currency` of a row as money ("-" when either is missing). */
export const money =
  (field: string, currencyField = 'currency') =>
  (row: Record<string, unknown>): string => {
    const amount = row[field];
    const currency = row[currencyField];
    if (typeof amount !== 'number' || typeof currency !== 'string') return cell(amount);
    return isCurrency(currency) ? formatMoney(amount, currency) : `${amount} ${currency}`;
  };

export const field =
  (key: string) =>
  (row: Record<string, unknown>): unknown =>
    row[key];

function typed(value: string, param: Param): unknown {
  if (param[3] === 'number') {
    const n = Number(value);
    if (!Number.isFinite(n) || value.trim() === '')
      throw new UsageError(`--${param[0]} ${value}: expected a number`);
    return n;
  }
  if (param[3] === 'boolean') {
    if (value !== 'true' && value !== 'false') throw new UsageError(`--${param[0]} ${value}: true or false`);
    return value === 'true';
  }
  return value;
}

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

function readParams(params: readonly Param[], options: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const param of params) {
    const raw = options[camel(param[0])];
    if (raw !== undefined) out[param[1]] = typed(String(raw), param);
  }
  return out;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export async function runList(spec: ListSpec, options: Record<string, unknown>, ctx: Ctx): Promise<void> {
  const query = { ...readParams(spec.filters ?? [], options), ...pageQuery(options) };
  const page = (await callOperation(ctx, 'GET', spec.path, { query })) as {
    items?: Record<string, unknown>[];
    total?: number;
    page?: number;
    page_size?: number;
  };
  output(ctx, page, () => {
    const items = page.items ?? [];
    if (items.length === 0) {
      ctx.io.out('(none)');
      return;
    }
    const rows = items.map((row) => spec.columns.map(([, read]) => cell(read(row))));
    for (const line of renderTable(
      spec.columns.map(([h]) => h),
      rows,
    ))
      ctx.io.out(line);
    if (page.total !== undefined && page.total > items.length)
      ctx.io.err(`${items.length} of ${page.total} (page ${page.page ?? 1}; --page N for more)`);
  });
}

function pageQuery(options: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [flag, key] of [
    ['page', 'page'],
    ['limit', 'page_size'],
  ] as const) {
    const raw = options[flag];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`--${flag} ${String(raw)}: a whole number from 1`);
    out[key] = n;
  }
  return out;
}

export async function runShow(spec: ShowSpec, id: string | undefined, ctx: Ctx): Promise<void> {
  const param = spec.path.match(/\{[^}]+\}/)?.[0];
  if (param && !id) throw new UsageError(`<id> is missing: travel … ${spec.name} <id>`);
  const path = param ? spec.path.replace(param, encodeURIComponent(id as string)) : spec.path;
  const record = await callOperation(ctx, 'GET', path, {});
  output(ctx, record, () => {
    if (spec.summary && record && typeof record === 'object') {
      const width = Math.max(...spec.summary.map(([label]) => label.length));
      for (const [label, read] of spec.summary)
        ctx.io.out(`${label.padEnd(width)}  ${cell(read(record as Record<string, unknown>))}`);
      ctx.io.out('');
    }
    for (const line of renderRecord(record)) ctx.io.out(line);
  });
}

export async function runCreate(spec: CreateSpec, options: Record<string, unknown>, ctx: Ctx): Promise<void> {
  for (const param of spec.required)
    if (options[camel(param[0])] === undefined)
      throw new UsageError(`--${param[0]} is required (${param[2]})`);
  const body = readParams([...spec.required, ...(spec.optional ?? [])], options);
  const created = await callOperation(ctx, spec.method, spec.path, {
    body,
    fields: (options.field as string[] | undefined) ?? [],
  });
  output(ctx, created, () => {
    for (const line of renderRecord(created)) ctx.io.out(line);
  });
}

/** One commander command per spec. */
export function specCommand(deps: Deps, spec: Spec): Command {
  const command = new Command(spec.name).description(spec.description);
  if (spec.kind === 'list') {
    for (const [flag, , description, kind] of spec.filters ?? [])
      command.option(`--${flag} <${kind === 'number' ? 'n' : 'value'}>`, description);
    command
      .option('--page <n>', 'page number (from 1)')
      .option('--limit <n>', 'rows per page')
      .action(action<Record<string, unknown>>(deps, (ctx, options) => runList(spec, options, ctx)));
  } else if (spec.kind === 'show') {
    if (/\{[^}]+\}/.test(spec.path)) command.argument('<id>', 'its id');
    command.action(action(deps, (ctx, _o, [id]) => runShow(spec, id, ctx)));
  } else {
    for (const [flag, , description, kind] of spec.required)
      command.option(`--${flag} <${kind === 'number' ? 'n' : 'value'}>`, `${description} (required)`);
    for (const [flag, , description, kind] of spec.optional ?? [])
      command.option(`--${flag} <${kind === 'number' ? 'n' : 'value'}>`, description);
    command
      .option(
        '-f, --field <key=value>',
        'any other field of the request body, typed as in `travel api`',
        collect,
      )
      .action(action<Record<string, unknown>>(deps, (ctx, options) => runCreate(spec, options, ctx)));
  }
  return examples(command, ...spec.examples);
}

/** A group (`travel admin companies`) of specs. */
export function group(deps: Deps, name: string, description: string, specs: readonly Spec[]): Command {
  const command = new Command(name).description(description);
  for (const spec of specs) command.addCommand(specCommand(deps, spec));
  return command;
}
