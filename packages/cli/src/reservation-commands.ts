/**
 * What `travel hotel …` / `travel transfer …` and `travel search hotel|transport` share: the booking call
 * and its exit codes, show, guarded cancel, and following a search to a table and a picker. The command
 * files (`commands/hotel.ts`, `transfer.ts`, `search-hotel.ts`, `search-transport.ts`) keep only what
 * differs: flags, the request body and the offer columns.
 */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import {
  type BookingKind,
  LIST_HEADERS,
  type ListOptions,
  listBookingPage,
  listCells,
  pageHint,
} from './bookings-list.ts';
import { action, examples, output, requireToken } from './command-kit.ts';
import type { OutputMode } from './commands/search-flight.ts';
import type { Ctx, Deps } from './context.ts';
import { type DocumentModel, documentLines } from './documents/model.ts';
import { writePdf } from './documents/pdf.ts';
import { CliError, UsageError } from './errors.ts';
import { ExitCode } from './exit-codes.ts';
import { type Guard, parseGuard, typeToConfirm } from './guard.ts';
import { integer, isoDate, numericId } from './parse.ts';
import { followOfferStream } from './search-stream.ts';
import { byPrice, money, priceColumns, renderTable } from './ui/table.ts';
import { cancellationLines } from './views/reservation.ts';

/** The SDK namespace of one vertical (`hotels` or `transfers`), as far as these commands use it. */
export interface ReservationApi<TBody, TBooking> {
  book(
    body: TBody,
    options: { idempotencyKey?: string },
  ): Promise<{ outcome: string; booking_id: number; idempotencyKey: string; booking?: unknown }>;
  get(bookingId: number): Promise<TBooking>;
  cancel(bookingId: number): Promise<Cancellation>;
}

/** What a cancel call answers (hotel and transfer alike). */
export interface Cancellation {
  booking_id: number;
  status: string;
  cancelled: boolean;
  cancellation_fee?: { amount_minor: number; currency: string } | null;
  refund?: { amount_minor: number; currency: string } | null;
}

/** What cancelling now would cost, as far as the CLI can know it before asking. */
export interface CancelQuote {
  fee: { amount_minor: number; currency: string } | null;
  refund: { amount_minor: number; currency: string } | null;
  /** Where the numbers come from, for people. */
  basis: string;
  /** Extra lines (the policy steps). */
  lines: string[];
}

/** One reservation vertical as the CLI names it. */
export interface ReservationKind<TBody, TBooking = unknown> {
  /** The command name and the word in messages: `hotel 77`. */
  noun: 'hotel' | 'transfer';
  api(ctx: Ctx): ReservationApi<TBody, TBooking>;
  /** The human view of one booking. */
  lines(booking: TBooking): string[];
  /** The voucher a guest shows (text and PDF). */
  voucher(booking: TBooking): DocumentModel;
  /** What a person types to confirm a cancellation: the provider's booking reference when there is one. */
  confirmationWord(booking: TBooking): string;
  /** The fee cancelling now would cost. */
  quote(booking: TBooking, ctx: Ctx): Promise<CancelQuote>;
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
export async function submitReservation<TBody, TBooking>(
  kind: ReservationKind<TBody, TBooking>,
  body: TBody,
  idempotencyKey: string | undefined,
  ctx: Ctx,
): Promise<void> {
  const result = await kind.api(ctx).book(body, idempotencyKey ? { idempotencyKey } : {});
  output(
    ctx,
    {
      outcome: result.outcome,
      booking_id: result.booking_id,
      idempotency_key: result.idempotencyKey,
      booking: result.booking ?? null,
    },
    () => {
      if (result.booking) for (const line of kind.lines(result.booking as TBooking)) ctx.io.out(line);
      else ctx.io.out(`${kind.noun} ${result.booking_id}  ${result.outcome}`);
      ctx.io.err(
        `${kind.noun} ${result.booking_id}: ${result.outcome}; voucher: travel ${kind.noun} voucher ${result.booking_id}`,
      );
    },
  );
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

export async function runReservationShow<TBody, TBooking>(
  kind: ReservationKind<TBody, TBooking>,
  id: number,
  ctx: Ctx,
): Promise<void> {
  requireToken(ctx);
  const booking = await kind.api(ctx).get(id);
  output(ctx, booking, () => {
    for (const line of kind.lines(booking)) ctx.io.out(line);
  });
}

/** The voucher on the terminal, or with `pdf` written as a PDF file (the path is printed). */
export async function runReservationVoucher<TBody, TBooking>(
  kind: ReservationKind<TBody, TBooking>,
  id: number,
  pdf: string | undefined,
  ctx: Ctx,
): Promise<void> {
  requireToken(ctx);
  const booking = await kind.api(ctx).get(id);
  const doc = kind.voucher(booking);
  if (pdf) {
    const bytes = await writePdf(doc, pdf);
    output(ctx, { file: pdf, bytes, booking_id: id, kind: kind.noun }, () => ctx.io.out(pdf));
    ctx.io.err(`wrote the ${kind.noun} voucher of ${kind.noun} ${id} to ${pdf} (${bytes} bytes)`);
    return;
  }
  output(ctx, booking, () => {
    for (const line of documentLines(doc, ctx.io.columns)) ctx.io.out(line);
  });
}

function quoteLines(noun: string, id: number, q: CancelQuote): string[] {
  const fee = q.fee ? money(q.fee.amount_minor, q.fee.currency) : 'unknown until the provider answers';
  return [
    `Cancelling ${noun} ${id} now: fee ${fee}${q.refund ? `, refund ${money(q.refund.amount_minor, q.refund.currency)}` : ''}`,
    `  (${q.basis})`,
    ...q.lines.map((l) => `  ${l}`),
  ];
}

export async function runReservationCancel<TBody, TBooking>(
  kind: ReservationKind<TBody, TBooking>,
  id: number,
  guard: Guard,
  ctx: Ctx,
): Promise<void> {
  requireToken(ctx);
  const booking = await kind.api(ctx).get(id);
  const quote = await kind.quote(booking, ctx);
  const quoted = { fee: quote.fee, refund: quote.refund, basis: quote.basis };
  if (!guard.confirm) {
    output(
      ctx,
      {
        booking_id: id,
        status: (booking as { status?: string }).status,
        cancelled: false,
        quote: quoted,
        booking,
        hint: 'pass --confirm to cancel',
      },
      () => {
        for (const line of kind.lines(booking)) ctx.io.out(line);
        for (const line of quoteLines(kind.noun, id, quote)) ctx.io.out(line);
      },
    );
    ctx.io.err(`Nothing changed. Pass --confirm to cancel ${kind.noun} ${id}.`);
    return;
  }
  if (!guard.yes) for (const line of quoteLines(kind.noun, id, quote)) ctx.io.err(line);
  await typeToConfirm(ctx, guard, kind.confirmationWord(booking), `Cancel ${kind.noun} ${id}`);
  const done = await kind.api(ctx).cancel(id);
  output(ctx, done, () => {
    for (const line of cancellationLines(kind.noun, done)) ctx.io.out(line);
  });
}

export interface ReservationListFlags {
  status?: string;
  from?: string;
  to?: string;
  page?: string;
  limit?: string;
}

export function parseListOptions(raw: ReservationListFlags, kinds: readonly BookingKind[]): ListOptions {
  return {
    kinds,
    status: raw.status?.toLowerCase(),
    from: raw.from === undefined ? undefined : isoDate(raw.from, '--from'),
    to: raw.to === undefined ? undefined : isoDate(raw.to, '--to'),
    page: integer(raw.page, '--page', 1, 100_000) ?? 1,
    limit: integer(raw.limit, '--limit', 1, 100) ?? 20,
  };
}

/** A page of bookings as a table (kind and id in one column), the page hint on stderr. */
export async function runBookingsList(options: ListOptions, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const result = await listBookingPage(ctx, options);
  output(
    ctx,
    {
      items: result.items.map((r) => ({ kind: r.kind, ...(r.record as object) })),
      page: result.page,
      limit: result.limit,
      total: result.total,
    },
    () => {
      if (result.items.length === 0) ctx.io.out('no bookings');
      else
        for (const line of renderTable(LIST_HEADERS, result.items.map(listCells), ctx.io.columns))
          ctx.io.out(line);
      ctx.io.err(pageHint(result));
    },
  );
}

/** The list flags every list command takes. */
export function listOptions(command: Command): Command {
  return command
    .option('--status <status>', 'only bookings in this status')
    .option('--from <date>', 'created on or after (staff and admin)')
    .option('--to <date>', 'created on or before (staff and admin)')
    .option('--page <n>', 'page number (default 1)')
    .option('--limit <n>', 'bookings per page, at most 100 (default 20)');
}

/** `travel <noun> book|show|voucher|list|cancel`, given the vertical's own `book` command. */
export function reservationCommand<TBody, TBooking>(
  deps: Deps,
  kind: ReservationKind<TBody, TBooking>,
  book: Command,
): Command {
  const parent = new Command(kind.noun).description(
    `${kind.noun} bookings: book, show, voucher, list, cancel`,
  );
  parent.addCommand(book);
  parent.addCommand(
    examples(
      new Command('show')
        .argument('<id>', `${kind.noun} booking id`)
        .description(`show a ${kind.noun} booking`)
        .option('--pdf <file>', 'write the voucher as a PDF to this file instead')
        .action(
          action(deps, (ctx, raw: { pdf?: string }, [id]) =>
            raw.pdf
              ? runReservationVoucher(kind, numericId(id, '<id>'), raw.pdf, ctx)
              : runReservationShow(kind, numericId(id, '<id>'), ctx),
          ),
        ),
      kind.showExample,
    ),
  );
  parent.addCommand(
    examples(
      new Command('voucher')
        .argument('<id>', `${kind.noun} booking id`)
        .description(`the ${kind.noun} voucher to send a guest (on the terminal, or --pdf FILE)`)
        .option('--pdf <file>', 'write it as a PDF to this file')
        .action(
          action(deps, (ctx, raw: { pdf?: string }, [id]) =>
            runReservationVoucher(kind, numericId(id, '<id>'), raw.pdf, ctx),
          ),
        ),
      `travel ${kind.noun} voucher 12`,
      `travel ${kind.noun} voucher 12 --pdf ${kind.noun}-12.pdf`,
    ),
  );
  parent.addCommand(
    examples(
      listOptions(
        new Command('list').description(`your ${kind.noun} bookings, newest first (staff: the company's)`),
      ).action(
        action(deps, (ctx, raw: ReservationListFlags) =>
          runBookingsList(parseListOptions(raw, [kind.noun]), ctx),
        ),
      ),
      `travel ${kind.noun} list`,
      `travel ${kind.noun} list --status confirmed --from 2026-11-01 --page 2 --limit 50`,
    ),
  );
  parent.addCommand(
    examples(
      new Command('cancel')
        .argument('<id>', `${kind.noun} booking id`)
        .description('quote the fee; with --confirm, cancel (type the booking reference, or --yes)')
        .option('--confirm', 'really cancel (else: quote only)')
        .option('--yes', 'skip typing the reference (required with --confirm without a terminal)')
        .action(
          action(deps, (ctx, raw: { confirm?: boolean; yes?: boolean }, [id]) =>
            runReservationCancel(kind, numericId(id, '<id>'), parseGuard(raw, ctx.io.interactive), ctx),
          ),
        ),
      `travel ${kind.noun} cancel 12`,
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
  for (const line of renderTable(['#', ...price.headers, ...view.headers], rows, ctx.io.columns))
    ctx.io.out(line);
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
