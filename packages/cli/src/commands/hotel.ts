/**
 * `travel hotel book|show|voucher|list|cancel`: idempotent booking (502 polled by the SDK), a cancel that
 * quotes the policy's fee and is guarded by the provider's reference; show, voucher, list, cancel and the
 * booking call are the shared reservation commands. The search picker books through
 * `runHotelBookOffer`, which asks for what the flags would give.
 */
import { type BodyOf, type HotelBooking, type HotelOffer, TravelApiError, unwrap } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { hotelVoucher, policyFeeAt, policyLines } from '../documents/vouchers.ts';
import { oneOf, requireValue } from '../parse.ts';
import { promptContact } from '../passengers.ts';
import { confirmCheckedPrice } from '../price-check.ts';
import {
  type CancelQuote,
  type ReservationKind,
  readJsonList,
  reservationCommand,
  submitReservation,
} from '../reservation-commands.ts';
import { hotelBookingLines } from '../views/reservation.ts';

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

type HotelBookBody = BodyOf<'/api/v1/hotel/book', 'post'>;
type HotelGuest = HotelBookBody['guests'][number];

export async function runHotelBook(o: HotelBookOptions, ctx: Ctx) {
  requireToken(ctx);
  const guests = (await readJsonList(o.guestsFile, '--guests')) as HotelGuest[];
  await submitReservation(
    HOTEL,
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
  await submitReservation(
    HOTEL,
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

/**
 * What cancelling costs now: the provider's own cancellation simulation (`quoteHotelCancellation`). When
 * the provider cannot be asked right now (503/502), the rate's cancellation policy says it instead (the
 * rule the server settles by when a provider's answer is lost), and the quote says which one it is.
 */
export async function quoteHotelCancellation(b: HotelBooking, ctx: Ctx): Promise<CancelQuote> {
  const policy = policyLines(b.cancellation_policies, b.total, b.created_at);
  try {
    const q = await unwrap(
      ctx.client().raw.GET('/api/v1/hotel/bookings/{booking_id}/cancellation-quote', {
        params: { path: { booking_id: b.booking_id } },
      }),
    );
    return {
      fee: q.cancellation_fee,
      refund: q.refund,
      basis: `the provider's cancellation simulation; nothing was cancelled`,
      lines: policy,
    };
  } catch (error) {
    if (!(error instanceof TravelApiError) || (error.status !== 503 && error.status !== 502)) throw error;
    const { fee, refund } = policyFeeAt(b.cancellation_policies, ctx.now(), b.total);
    return {
      fee,
      refund,
      basis: `the rate's cancellation policy: the provider could not be asked now (${error.code ?? error.status})`,
      lines: policy,
    };
  }
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

const HOTEL: ReservationKind<HotelBookBody, HotelBooking> = {
  noun: 'hotel',
  api: (ctx) => ctx.client().hotels,
  lines: hotelBookingLines,
  voucher: hotelVoucher,
  confirmationWord: (b) => b.supplier_booking_ref ?? b.hotel_confirmation ?? String(b.booking_id),
  quote: (b, ctx) => quoteHotelCancellation(b, ctx),
  showExample: 'travel hotel show 77 --json',
  cancelExample: 'travel hotel cancel 77 --confirm',
};

export function hotelCommand(deps: Deps): Command {
  return reservationCommand(
    deps,
    HOTEL,
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
}
