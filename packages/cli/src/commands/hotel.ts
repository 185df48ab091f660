/** `travel hotel book|show|cancel`: idempotent booking (502 polled by the SDK), guarded cancel. */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { CliError, UsageError } from '../errors.ts';
import { ExitCode } from '../exit-codes.ts';
import { type Guard, parseGuard, typeToConfirm } from '../guard.ts';
import { numericId, oneOf, requireValue } from '../parse.ts';

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

export async function runHotelBook(o: HotelBookOptions, ctx: Ctx) {
  requireToken(ctx);
  const guests = (await readJsonList(o.guestsFile, '--guests')) as never;
  const result = await ctx.client().hotels.book(
    {
      rate_key: o.rateKey,
      provider: o.provider,
      guests,
      contact_email: o.contactEmail,
      contact_phone: o.contactPhone,
      ...(o.reference ? { client_ref: o.reference } : {}),
    },
    o.idempotencyKey ? { idempotencyKey: o.idempotencyKey } : {},
  );
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
