/**
 * `travel hotel book|show|cancel`: idempotent booking (502 polled by the SDK), guarded cancel. The search
 * picker books through `runHotelBookOffer`, which asks for what the flags would give.
 */
import { readFile } from 'node:fs/promises';
import type { BodyOf, HotelOffer } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { CliError, UsageError } from '../errors.ts';
import { ExitCode } from '../exit-codes.ts';
import { type Guard, parseGuard, typeToConfirm } from '../guard.ts';
import { numericId, oneOf, requireValue } from '../parse.ts';
import { promptContact } from '../passengers.ts';
import { confirmCheckedPrice } from '../price-check.ts';

const PROVIDERS = ['hotelbeds', 'duffel_stays'] as const;

export interface HotelBookOptions {
  rateKey: string;
  provider: (typeof PROVIDERS)[number];
  guestsFile: string;
  contactEmail: string;
  contactPhone: string;
  reference: string | undefined;
  idempotencyKey: string | undefined;
}

export function parseHotelBookOptions(raw: {
  rateKey?: string;
  provider?: string;
  guests?: string;
  contactEmail?: string;
  contactPhone?: string;
  reference?: string;
  idempotencyKey?: string;
}): HotelBookOptions {
  return {
    rateKey: requireValue(raw.rateKey, '--rate-key'),
    provider: oneOf(requireValue(raw.provider, '--provider'), '--provider', PROVIDERS) ?? 'hotelbeds',
    guestsFile: requireValue(raw.guests, '--guests', 'JSON file: [{ room, type, first_name, last_name }]'),
    contactEmail: requireValue(raw.contactEmail, '--contact-email'),
    contactPhone: requireValue(raw.contactPhone, '--contact-phone'),
    reference: raw.reference,
    idempotencyKey: raw.idempotencyKey,
  };
}

export async function readJsonList(path: string, flag: string): Promise<unknown[]> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as unknown;
    if (Array.isArray(value) && value.length > 0) return value;
  } catch {
    // fall through to the usage error
  }
  throw new UsageError(`${flag} ${path}: expected a non-empty JSON array`);
}

type HotelBookBody = BodyOf<'/api/v1/hotel/book', 'post'>;
type HotelGuest = HotelBookBody['guests'][number];

export async function runHotelBook(o: HotelBookOptions, ctx: Ctx) {
  requireToken(ctx);
  const guests = (await readJsonList(o.guestsFile, '--guests')) as HotelGuest[];
  await submitHotelBooking(
    {
      rate_key: o.rateKey,
      provider: o.provider,
      guests,
      contact_email: o.contactEmail,
      contact_phone: o.contactPhone,
      ...(o.reference ? { client_ref: o.reference } : {}),
    },
    o.idempotencyKey,
    ctx,
  );
}

/**
 * From the `travel search hotel` picker: names the guests the rate was priced for, asks for a contact,
 * shows the price the provider quotes now and books on a yes.
 */
export async function runHotelBookOffer(offer: HotelOffer, ctx: Ctx) {
  requireToken(ctx);
  const guests = await promptHotelGuests(ctx, offer);
  const contact = await promptContact(ctx);
  const check = await ctx.client().hotels.checkRate({ rate_key: offer.rate_key, provider: offer.supplier });
  await confirmCheckedPrice(ctx, check, `the rate at ${offer.hotel.name}`, false);
  await submitHotelBooking(
    {
      rate_key: offer.rate_key,
      provider: offer.supplier,
      guests,
      contact_email: contact.email,
      contact_phone: contact.phone,
    },
    undefined,
    ctx,
  );
}

/** One guest per person the rate was priced for, spread over its rooms so that every room has an adult. */
async function promptHotelGuests(
  ctx: Ctx,
  rate: Pick<HotelOffer, 'rooms' | 'adults' | 'children'>,
): Promise<HotelGuest[]> {
  const p = ctx.prompter;
  const nonEmpty = (v: string) => (v.trim() ? true : 'required');
  const guests: HotelGuest[] = [];
  for (let i = 0; i < rate.adults + rate.children; i++) {
    const child = i >= rate.adults;
    const room = (i % rate.rooms) + 1;
    const label = `Guest ${i + 1} (room ${room}${child ? ', child' : ''})`;
    const first_name = (await p.input(`${label}: first name`, { validate: nonEmpty })).trim();
    const last_name = (await p.input(`${label}: last name`, { validate: nonEmpty })).trim();
    if (!child) {
      guests.push({ room, type: 'AD', first_name, last_name });
      continue;
    }
    const age = await p.input(`${label}: age`, {
      validate: (v) => (/^\d+$/.test(v.trim()) && Number(v) <= 17 ? true : 'an age from 0 to 17'),
    });
    guests.push({ room, type: 'CH', first_name, last_name, age: Number(age) });
  }
  return guests;
}

/** The one booking call of both ways in: prints the outcome, exits 6 while pending, 1 when refused. */
async function submitHotelBooking(body: HotelBookBody, idempotencyKey: string | undefined, ctx: Ctx) {
  const result = await ctx.client().hotels.book(body, idempotencyKey ? { idempotencyKey } : {});
  output(ctx, {
    outcome: result.outcome,
    booking_id: result.booking_id,
    idempotency_key: result.idempotencyKey,
    booking: result.booking ?? null,
  });
  if (result.outcome === 'pending')
    throw new CliError(
      `hotel booking ${result.booking_id} is still pending with the provider`,
      ExitCode.supplierPending,
    );
  if (result.outcome === 'failed')
    throw new CliError(`the provider did not confirm hotel booking ${result.booking_id}`, ExitCode.failed);
}

export async function runHotelShow(id: number, ctx: Ctx) {
  requireToken(ctx);
  output(ctx, await ctx.client().hotels.get(id));
}

export async function runHotelCancel(id: number, guard: Guard, ctx: Ctx) {
  requireToken(ctx);
  if (!guard.confirm) {
    output(ctx, await ctx.client().hotels.get(id));
    ctx.io.err('Nothing changed. Pass --confirm to cancel this hotel booking.');
    return;
  }
  await typeToConfirm(ctx, guard, String(id), `Cancel hotel booking ${id}`);
  output(ctx, await ctx.client().hotels.cancel(id));
}

export function hotelCommand(deps: Deps): Command {
  const hotel = new Command('hotel').description('hotel bookings: book, show, cancel');
  hotel.addCommand(
    examples(
      new Command('book')
        .description('book a hotel rate (after `travel search hotel`)')
        .option('--rate-key <key>', 'rate key from the search')
        .option('--provider <name>', PROVIDERS.join(' | '))
        .option(
          '--guests <file>',
          'JSON file: [{ "room": 1, "type": "AD", "first_name": "Ada", "last_name": "Lovelace" }]',
        )
        .option('--contact-email <email>', 'contact email')
        .option('--contact-phone <phone>', 'contact phone')
        .option('--reference <ref>', 'your reference (client_ref)')
        .option('--idempotency-key <key>', 'send this Idempotency-Key')
        .action(
          action(deps, (ctx, raw: Parameters<typeof parseHotelBookOptions>[0]) =>
            runHotelBook(parseHotelBookOptions(raw), ctx),
          ),
        ),
      'travel hotel book --rate-key "$RATE" --provider hotelbeds --guests guests.json --contact-email ada@example.org --contact-phone +447700900123',
    ),
  );
  hotel.addCommand(
    examples(
      new Command('show')
        .argument('<id>', 'hotel booking id')
        .description('show a hotel booking')
        .action(action(deps, (ctx, _o, [id]) => runHotelShow(numericId(id, '<id>'), ctx))),
      'travel hotel show 77 --json',
    ),
  );
  hotel.addCommand(
    examples(
      new Command('cancel')
        .argument('<id>', 'hotel booking id')
        .description('cancel (guarded: --confirm, type the id or --yes)')
        .option('--confirm', 'really cancel')
        .option('--yes', 'skip typing the id (required with --confirm without a terminal)')
        .action(
          action(deps, (ctx, raw: { confirm?: boolean; yes?: boolean }, [id]) =>
            runHotelCancel(numericId(id, '<id>'), parseGuard(raw, ctx.io.interactive), ctx),
          ),
        ),
      'travel hotel cancel 77 --confirm',
    ),
  );
  return hotel;
}
