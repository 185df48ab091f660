/**
 * `travel transfer book|show|voucher|list|cancel`. The search picker books through `runTransferBookOffer`, which asks
 * for what the flags would give.
 */
import type { BodyOf, TransferBooking, TransferOffer } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { transferVoucher } from '../documents/vouchers.ts';
import { oneOf, requireValue } from '../parse.ts';
import { promptContact } from '../passengers.ts';
import { confirmCheckedPrice } from '../price-check.ts';
import {
  type ReservationKind,
  readJsonList,
  reservationCommand,
  submitReservation,
} from '../reservation-commands.ts';
import { transferBookingLines } from '../views/reservation.ts';

const PROVIDERS = ['hotelbeds_transfers', 'amadeus_transfers'] as const;
/** The contract's pattern for `flight_number`. */
const FLIGHT_NUMBER = /^[A-Z0-9]{2}[0-9]{1,4}[A-Z]?$/;

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
  await submitReservation(
    TRANSFER,
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
  const flight = (
    await ctx.prompter.input(
      'Arriving flight (e.g. EK2): the driver tracks it and waits if it lands late; leave empty when not met at an airport',
      {
        validate: (v) =>
          v.trim() === '' || FLIGHT_NUMBER.test(v.trim().toUpperCase()) ? true : 'like EK2 or BA107',
      },
    )
  )
    .trim()
    .toUpperCase();
  const contact = await promptContact(ctx);
  const check = await ctx.client().transfers.quote({ quote_id: offer.quote_id, provider: offer.supplier });
  await confirmCheckedPrice(ctx, check, `the ${offer.provider_name} transfer`, false);
  await submitReservation(
    TRANSFER,
    {
      quote_id: offer.quote_id,
      provider: offer.supplier,
      passengers: [{ first_name, last_name }],
      contact,
      ...(flight ? { flight_number: flight } : {}),
    },
    undefined,
    ctx,
  );
}

const TRANSFER: ReservationKind<TransferBookBody, TransferBooking> = {
  noun: 'transfer',
  api: (ctx) => ctx.client().transfers,
  lines: transferBookingLines,
  voucher: transferVoucher,
  confirmationWord: (b) => b.confirmation_number ?? b.supplier_booking_ref ?? String(b.booking_id),
  // A transfer booking keeps no cancellation policy: the provider names its fee only when cancelling.
  quote: async () => ({
    fee: null,
    refund: null,
    basis: 'the provider states its fee when it cancels; the booking holds no policy to quote from',
    lines: [],
  }),
  showExample: 'travel transfer show 31',
  cancelExample: 'travel transfer cancel 31 --confirm --yes',
};

export function transferCommand(deps: Deps): Command {
  return reservationCommand(
    deps,
    TRANSFER,
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
}
