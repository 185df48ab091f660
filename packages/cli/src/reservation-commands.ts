/**
 * What `travel hotel …` / `travel transfer …` and `travel search hotel|transport` share: the booking call
 * and its exit codes, show, guarded cancel, and following a search to a table and a picker. The command
 * files (`commands/hotel.ts`, `transfer.ts`, `search-hotel.ts`, `search-transport.ts`) keep only what
 * differs: flags, the request body and the offer columns.
 */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { action, examples, output, requireToken } from './command-kit.ts';
import type { OutputMode } from './commands/search-flight.ts';
import type { Ctx, Deps } from './context.ts';
import { CliError, UsageError } from './errors.ts';
import { ExitCode } from './exit-codes.ts';
import { type Guard, parseGuard, typeToConfirm } from './guard.ts';
import { numericId } from './parse.ts';
import { followOfferStream } from './search-stream.ts';
import { byPrice, priceColumns, renderTable } from './ui/table.ts';

/** The SDK namespace of one vertical (`hotels` or `transfers`), as far as these commands use it. */
export interface ReservationApi<TBody> {
  book(
    body: TBody,
    options: { idempotencyKey?: string },
  ): Promise<{ outcome: string; booking_id: number; idempotencyKey: string; booking?: unknown }>;
  get(bookingId: number): Promise<unknown>;
  cancel(bookingId: number): Promise<unknown>;
}

/** One reservation vertical as the CLI names it. */
export interface ReservationKind<TBody> {
  /** The command name and the word in messages: `hotel booking 77`. */
  noun: 'hotel' | 'transfer';
  api(ctx: Ctx): ReservationApi<TBody>;
  /** The help examples of `show` and `cancel`. */
  showExample: string;
  cancelExample: string;
}

/** Reads a `--guests` / `--passengers` file: a non-empty JSON array, or a usage error. */
export async function readJsonList(path: string, flag: string): Promise<unknown[]> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as unknown;
    if (Array.isArray(value) && value.length > 0) return value;
  } catch {
    // fall through to the usage error
  }
  throw new UsageError(`${flag} ${path}: expected a non-empty JSON array`);
}

/** The one booking call of both ways in (flags, picker): prints the outcome, exits 6 while pending, 1 when refused. */
export async function submitReservation<TBody>(
  kind: ReservationKind<TBody>,
  body: TBody,
  idempotencyKey: string | undefined,
  ctx: Ctx,
): Promise<void> {
  const result = await kind.api(ctx).book(body, idempotencyKey ? { idempotencyKey } : {});
  output(ctx, {
    outcome: result.outcome,
    booking_id: result.booking_id,
    idempotency_key: result.idempotencyKey,
    booking: result.booking ?? null,
  });
  if (result.outcome === 'pending')
    throw new CliError(
      `${kind.noun} booking ${result.booking_id} is still pending with the provider`,
      ExitCode.supplierPending,
    );
  if (result.outcome === 'failed')
    throw new CliError(
      `the provider did not confirm ${kind.noun} booking ${result.booking_id}`,
      ExitCode.failed,
    );
}

export async function runReservationShow<TBody>(
  kind: ReservationKind<TBody>,
  id: number,
  ctx: Ctx,
): Promise<void> {
  requireToken(ctx);
  output(ctx, await kind.api(ctx).get(id));
}

export async function runReservationCancel<TBody>(
  kind: ReservationKind<TBody>,
  id: number,
  guard: Guard,
  ctx: Ctx,
): Promise<void> {
  requireToken(ctx);
  if (!guard.confirm) {
    output(ctx, await kind.api(ctx).get(id));
    ctx.io.err(`Nothing changed. Pass --confirm to cancel this ${kind.noun} booking.`);
    return;
  }
  await typeToConfirm(ctx, guard, String(id), `Cancel ${kind.noun} booking ${id}`);
  output(ctx, await kind.api(ctx).cancel(id));
}

/** `travel <noun> book|show|cancel`, given the vertical's own `book` command. */
export function reservationCommand<TBody>(deps: Deps, kind: ReservationKind<TBody>, book: Command): Command {
  const parent = new Command(kind.noun).description(`${kind.noun} bookings: book, show, cancel`);
  parent.addCommand(book);
  parent.addCommand(
    examples(
      new Command('show')
        .argument('<id>', `${kind.noun} booking id`)
        .description(`show a ${kind.noun} booking`)
        .action(action(deps, (ctx, _o, [id]) => runReservationShow(kind, numericId(id, '<id>'), ctx))),
      kind.showExample,
    ),
  );
  parent.addCommand(
    examples(
      new Command('cancel')
        .argument('<id>', `${kind.noun} booking id`)
        .description('cancel (guarded: --confirm, type the id or --yes)')
        .option('--confirm', 'really cancel')
        .option('--yes', 'skip typing the id (required with --confirm without a terminal)')
        .action(
          action(deps, (ctx, raw: { confirm?: boolean; yes?: boolean }, [id]) =>
            runReservationCancel(kind, numericId(id, '<id>'), parseGuard(raw, ctx.io.interactive), ctx),
          ),
        ),
      kind.cancelExample,
    ),
  );
  return parent;
}

type Offer = { supplier: string; price: { currency: string; total_minor: number } } & Parameters<
  ReturnType<typeof priceColumns>['cells']
>[0];

/** How one vertical's offers look in the table and the picker, and how a picked one is booked. */
export interface OfferView<TOffer extends Offer> {
  offerEvent: 'hotel_offer' | 'transport_offer';
  suppliers: readonly string[];
  /** The columns after `#` and the price. */
  headers: string[];
  cells(offer: TOffer): string[];
  /** The stderr hint after the table when there is no picker. */
  bookHint: string;
  pickPrompt: string;
  /** One picker line. */
  summary(offer: TOffer): string;
  bookOffer(offer: TOffer, ctx: Ctx): Promise<void>;
}

/** What a search command follows: the started search's id and its offer stream. */
export interface StartedSearch {
  searchId: string;
  stream(options: { signal: AbortSignal }): AsyncIterable<{ event: string; data?: unknown }>;
}

/**
 * Follows a started search: one line per provider, then `--json`, `--ndjson` (already printed) or a
 * ranked table; on a terminal a picker that goes straight on to booking the offer.
 */
export async function followReservationSearch<TOffer extends Offer>(
  search: StartedSearch,
  options: { mode: OutputMode; limit: number; timeoutSeconds: number },
  view: OfferView<TOffer>,
  ctx: Ctx,
): Promise<void> {
  const signal = AbortSignal.timeout(options.timeoutSeconds * 1000);
  const result = await followOfferStream<TOffer>(
    ctx,
    search.stream({ signal }),
    view.offerEvent,
    view.suppliers,
    options.mode,
    options.timeoutSeconds,
  );
  const offers = byPrice<TOffer>()(result.offers);
  if (options.mode === 'json')
    return ctx.io.json({
      search_id: search.searchId,
      status: result.status,
      total_offers: offers.length,
      offers,
    });
  if (options.mode === 'ndjson') return;
  const shown = offers.slice(0, options.limit);
  const price = priceColumns(shown);
  const rows = shown.map((o, i) => [String(i + 1), ...price.cells(o), ...view.cells(o)]);
  for (const line of renderTable(['#', ...price.headers, ...view.headers], rows)) ctx.io.out(line);
  const summary = `${offers.length} offers, search ${search.searchId} (${result.status})`;
  if (options.mode !== 'interactive' || shown.length === 0) {
    ctx.io.err(`${summary}; ${view.bookHint}`);
    return;
  }
  ctx.io.err(summary);
  const picked = await ctx.prompter.select<TOffer | null>(view.pickPrompt, [
    ...shown.map((o, i) => ({ name: `${i + 1}. ${view.summary(o)}`, value: o })),
    { name: 'Done (book nothing)', value: null },
  ]);
  if (picked) await view.bookOffer(picked, ctx);
}

/** A long supplier key shortened for the table; the full one is in `--json` (and the picker books it). */
export const shortKey = (key: string): string => (key.length > 24 ? `${key.slice(0, 24)}…` : key);
