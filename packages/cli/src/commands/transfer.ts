/**
 * `travel transfer book|show|cancel`. The search picker books through `runTransferBookOffer`, which asks
 * for what the flags would give.
 */
import type { BodyOf, TransferOffer } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { CliError } from '../errors.ts';
import { ExitCode } from '../exit-codes.ts';
import { type Guard, parseGuard, typeToConfirm } from '../guard.ts';
import { numericId, oneOf, requireValue } from '../parse.ts';
import { promptContact } from '../passengers.ts';
import { confirmCheckedPrice } from '../price-check.ts';
import { readJsonList } from './hotel.ts';

const PROVIDERS = ['hotelbeds_transfers', 'amadeus_transfers'] as const;

export interface TransferBookOptions {
  quoteId: string;
  provider: (typeof PROVIDERS)[number];
  passengersFile: string;
  contactEmail: string;
  contactPhone: string;
  flightNumber: string | undefined;
  idempotencyKey: string | undefined;
}

export function parseTransferBookOptions(raw: {
  quote?: string;
  provider?: string;
  passengers?: string;
  contactEmail?: string;
  contactPhone?: string;
  flight?: string;
  idempotencyKey?: string;
}): TransferBookOptions {
  return {
    quoteId: requireValue(raw.quote, '--quote'),
    provider:
      oneOf(requireValue(raw.provider, '--provider'), '--provider', PROVIDERS) ?? 'hotelbeds_transfers',
    passengersFile: requireValue(raw.passengers, '--passengers', 'JSON file: [{ first_name, last_name }]'),
    contactEmail: requireValue(raw.contactEmail, '--contact-email'),
    contactPhone: requireValue(raw.contactPhone, '--contact-phone'),
    flightNumber: raw.flight?.toUpperCase(),
    idempotencyKey: raw.idempotencyKey,
  };
}

type TransferBookBody = BodyOf<'/api/v1/transport/book', 'post'>;

export async function runTransferBook(o: TransferBookOptions, ctx: Ctx) {
  requireToken(ctx);
  const passengers = (await readJsonList(o.passengersFile, '--passengers')) as TransferBookBody['passengers'];
  await submitTransferBooking(
    {
      quote_id: o.quoteId,
      provider: o.provider,
      passengers,
      contact: { email: o.contactEmail, phone: o.contactPhone },
      ...(o.flightNumber ? { flight_number: o.flightNumber } : {}),
    },
    o.idempotencyKey,
    ctx,
  );
}

/**
 * From the `travel search transport` picker: asks for the lead passenger (the provider needs no other
 * names) and a contact, shows the price the provider quotes now and books on a yes.
 */
export async function runTransferBookOffer(offer: TransferOffer, ctx: Ctx) {
  requireToken(ctx);
  const nonEmpty = (v: string) => (v.trim() ? true : 'required');
  const first_name = (await ctx.prompter.input('Lead passenger: first name', { validate: nonEmpty })).trim();
  const last_name = (await ctx.prompter.input('Lead passenger: last name', { validate: nonEmpty })).trim();
  const contact = await promptContact(ctx);
  const check = await ctx.client().transfers.quote({ quote_id: offer.quote_id, provider: offer.supplier });
  await confirmCheckedPrice(ctx, check, `the ${offer.provider_name} transfer`, false);
  await submitTransferBooking(
    {
      quote_id: offer.quote_id,
      provider: offer.supplier,
      passengers: [{ first_name, last_name }],
      contact,
    },
    undefined,
    ctx,
  );
}

/** The one booking call of both ways in: prints the outcome, exits 6 while pending, 1 when refused. */
async function submitTransferBooking(body: TransferBookBody, idempotencyKey: string | undefined, ctx: Ctx) {
  const result = await ctx.client().transfers.book(body, idempotencyKey ? { idempotencyKey } : {});
  output(ctx, {
    outcome: result.outcome,
    booking_id: result.booking_id,
    idempotency_key: result.idempotencyKey,
    booking: result.booking ?? null,
  });
  if (result.outcome === 'pending')
    throw new CliError(
      `transfer booking ${result.booking_id} is still pending with the provider`,
      ExitCode.supplierPending,
    );
  if (result.outcome === 'failed')
    throw new CliError(`the provider did not confirm transfer booking ${result.booking_id}`, ExitCode.failed);
}

export async function runTransferShow(id: number, ctx: Ctx) {
  requireToken(ctx);
  output(ctx, await ctx.client().transfers.get(id));
}

export async function runTransferCancel(id: number, guard: Guard, ctx: Ctx) {
  requireToken(ctx);
  if (!guard.confirm) {
    output(ctx, await ctx.client().transfers.get(id));
    ctx.io.err('Nothing changed. Pass --confirm to cancel this transfer booking.');
    return;
  }
  await typeToConfirm(ctx, guard, String(id), `Cancel transfer booking ${id}`);
  output(ctx, await ctx.client().transfers.cancel(id));
}

export function transferCommand(deps: Deps): Command {
  const transfer = new Command('transfer').description('transfer bookings: book, show, cancel');
  transfer.addCommand(
    examples(
      new Command('book')
        .description('book a transfer quote (after `travel search transport`)')
        .option('--quote <id>', 'quote id from the search')
        .option('--provider <name>', PROVIDERS.join(' | '))
        .option('--passengers <file>', 'JSON file: [{ "first_name": "Ada", "last_name": "Lovelace" }]')
        .option('--contact-email <email>', 'contact email')
        .option('--contact-phone <phone>', 'contact phone')
        .option('--flight <number>', 'arriving flight, e.g. EK2')
        .option('--idempotency-key <key>', 'send this Idempotency-Key')
        .action(
          action(deps, (ctx, raw: Parameters<typeof parseTransferBookOptions>[0]) =>
            runTransferBook(parseTransferBookOptions(raw), ctx),
          ),
        ),
      'travel transfer book --quote q_123 --provider hotelbeds_transfers --passengers pax.json --contact-email ada@example.org --contact-phone +447700900123',
    ),
  );
  transfer.addCommand(
    examples(
      new Command('show')
        .argument('<id>', 'transfer booking id')
        .description('show a transfer booking')
        .action(action(deps, (ctx, _o, [id]) => runTransferShow(numericId(id, '<id>'), ctx))),
      'travel transfer show 31',
    ),
  );
  transfer.addCommand(
    examples(
      new Command('cancel')
        .argument('<id>', 'transfer booking id')
        .description('cancel (guarded: --confirm, type the id or --yes)')
        .option('--confirm', 'really cancel')
        .option('--yes', 'skip typing the id (required with --confirm without a terminal)')
        .action(
          action(deps, (ctx, raw: { confirm?: boolean; yes?: boolean }, [id]) =>
            runTransferCancel(numericId(id, '<id>'), parseGuard(raw, ctx.io.interactive), ctx),
          ),
        ),
      'travel transfer cancel 31 --confirm --yes',
    ),
  );
  return transfer;
}
