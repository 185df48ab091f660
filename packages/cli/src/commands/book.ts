/**
 * `travel book`: interactive on a terminal (travellers, contact, payment mode, price confirmation), fully
 * flag-driven without one. The offer is read first, so the prompts ask for exactly what it requires
 * (`booking_requirements`: an identity document, nationality, phone) and the currency defaults to its own. Idempotency keys are journalled so a re-run never books twice; a 502 "pending
 * confirmation" is polled with a visible spinner and ends in a plain outcome.
 */
import {
  type Booking,
  type CreateBookingRequest,
  FLIGHT_BOOKING_RULES,
  type FlightOffer,
  pollUntilSettled,
  TravelApiError,
  unwrap,
} from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { CliError, UsageError } from '../errors.ts';
import { ExitCode } from '../exit-codes.ts';
import { chooseIdempotencyKey, journalKey, replayNotice } from '../journal.ts';
import { integer, oneOf, requireValue } from '../parse.ts';
import { checkRequirements, loadPassengersFile, type Passenger, promptPassengers } from '../passengers.ts';
import { confirmCheckedPrice } from '../price-check.ts';
import { bookingLines } from '../views/booking.ts';

export const PAYMENT_MODES = ['PNR_FIRST', 'PAYMENT_FIRST', 'PNR_ONLY'] as const;
type PaymentMode = (typeof PAYMENT_MODES)[number];

/** What each payment mode does, one line each (the contract's `PaymentMode`), shown in the picker. */
export const PAYMENT_MODE_HELP: Record<PaymentMode, string> = {
  PNR_FIRST: 'book now (seats held where the airline allows), then pay: travel pay authorize',
  PAYMENT_FIRST: 'the card is authorized first; the booking is made only once the money is held',
  PNR_ONLY: 'book without any payment here: the agency settles with the supplier later',
};

export const paymentModeChoices = () =>
  PAYMENT_MODES.map((m) => ({
    name: `${m.padEnd(13)} ${PAYMENT_MODE_HELP[m]}`,
    value: m,
    description: PAYMENT_MODE_HELP[m],
  }));

export interface BookOptions {
  offerId: string | undefined;
  /** Known when coming from the search picker: passenger count and price without a revalidation. */
  offer?: FlightOffer | undefined;
  searchId?: string | undefined;
  currency: string | undefined;
  passengersFile: string | undefined;
  contactEmail: string | undefined;
  contactPhone: string | undefined;
  paymentMode: PaymentMode | undefined;
  reference: string | undefined;
  idempotencyKey: string | undefined;
  fresh: boolean;
  yes: boolean;
  waitSeconds: number;
}

export interface RawBookFlags {
  offer?: string;
  passengers?: string;
  contact?: string;
  contactEmail?: string;
  contactPhone?: string;
  paymentMode?: string;
  currency?: string;
  reference?: string;
  searchId?: string;
  idempotencyKey?: string;
  new?: boolean;
  yes?: boolean;
  wait?: string;
}

export function parseBookOptions(
  raw: RawBookFlags,
  interactive: boolean,
  env: NodeJS.ProcessEnv,
): BookOptions {
  let contactEmail = raw.contactEmail;
  let contactPhone = raw.contactPhone;
  if (raw.contact) {
    const [email, phone] = raw.contact.split(',').map((s) => s.trim());
    if (!email || !phone) throw new UsageError('--contact must be "email,phone"');
    contactEmail ??= email;
    contactPhone ??= phone;
  }
  const idempotencyKey = raw.idempotencyKey ?? (env.TRAVEL_IDEMPOTENCY_KEY || undefined);
  if (idempotencyKey && raw.new) throw new UsageError('--new and --idempotency-key exclude each other');
  if (!interactive) {
    requireValue(raw.offer, '--offer');
    requireValue(raw.passengers, '--passengers', 'a JSON file of passengers');
    requireValue(contactEmail, '--contact-email', 'or --contact email,phone');
    requireValue(contactPhone, '--contact-phone', 'or --contact email,phone');
  }
  if (raw.reference !== undefined && raw.reference.length > 64)
    throw new UsageError('--reference: at most 64 characters');
  return {
    offerId: raw.offer,
    searchId: raw.searchId,
    currency: raw.currency?.toUpperCase(),
    passengersFile: raw.passengers,
    contactEmail,
    contactPhone,
    paymentMode: oneOf(raw.paymentMode, '--payment-mode', PAYMENT_MODES),
    reference: raw.reference,
    idempotencyKey,
    fresh: Boolean(raw.new),
    yes: Boolean(raw.yes),
    waitSeconds: integer(raw.wait, '--wait', 0, 3600) ?? 60,
  };
}

/** The offer as the caller's search stored it: its price, currency and `booking_requirements`. */
async function fetchOffer(ctx: Ctx, offerId: string): Promise<FlightOffer> {
  return unwrap(
    ctx.client().raw.GET('/api/v1/flight/offers/{offer_id}', { params: { path: { offer_id: offerId } } }),
  ) as Promise<FlightOffer>;
}

async function gatherInputs(options: BookOptions, ctx: Ctx) {
  const { prompter, io } = ctx;
  const offerId =
    options.offerId ?? (await prompter.input('Offer id', { validate: (v) => (v ? true : 'required') }));
  // Learn the offer before asking anything: what it requires of travellers, and its currency. Only a fully
  // flag-driven run that names both the travellers file and the currency can do without.
  const offer =
    options.offer ??
    (options.currency && options.passengersFile ? undefined : await fetchOffer(ctx, offerId));
  const requirements = offer?.booking_requirements;
  const travelDate = offer?.slices[0]?.departure_date;
  const count = offer
    ? offer.passengers.adults + offer.passengers.children + offer.passengers.infants
    : undefined;
  let passengers: Passenger[];
  if (options.passengersFile) {
    passengers = await loadPassengersFile(options.passengersFile);
    checkRequirements(
      passengers,
      requirements,
      `--passengers ${options.passengersFile}`,
      travelDate ? new Date(travelDate) : undefined,
    );
  } else {
    const doc = requirements?.passengers.find((n) => n.identity_document);
    if (doc)
      io.err(
        `This offer requires an identity document for each traveller (${doc.document_types.join(' or ') || 'passport'}): number, expiry date and issuing country.`,
      );
    passengers = await promptPassengers(
      ctx,
      count,
      travelDate ? new Date(travelDate) : ctx.now(),
      requirements,
    );
  }
  const lead = passengers[0];
  const contactEmail =
    options.contactEmail ??
    (await prompter.input('Contact email', { default: lead?.email ?? ctx.profile().email ?? '' }));
  const contactPhone =
    options.contactPhone ?? (await prompter.input('Contact phone', { default: lead?.phone ?? '' }));
  const paymentMode =
    options.paymentMode ??
    (io.interactive
      ? await prompter.select<PaymentMode>('Payment mode', paymentModeChoices())
      : ((ctx.profile().payment_mode as PaymentMode | undefined) ?? 'PNR_FIRST'));
  const currency = options.currency ?? offer?.price.currency ?? ctx.profile().currency ?? 'USD';
  return { offerId, passengers, contactEmail, contactPhone, paymentMode, currency };
}

/** On a terminal: the current price from the supplier, and a yes before anything is booked. */
async function confirmPrice(ctx: Ctx, offerId: string, currency: string, yes: boolean): Promise<void> {
  const check = await ctx
    .client()
    .bookings.revalidate({ offer_id: offerId, currency: currency as CreateBookingRequest['currency'] });
  await confirmCheckedPrice(ctx, check, `offer ${offerId}`, yes);
}

/** The server refused the request outright (4xx other than a key still in use): nothing was booked. */
const refused = (error: unknown) =>
  error instanceof TravelApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.code !== 'idempotency_in_progress';

export async function runBook(options: BookOptions, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const { io } = ctx;
  const input = await gatherInputs(options, ctx);
  if (io.interactive) await confirmPrice(ctx, input.offerId, input.currency, options.yes);

  const body: CreateBookingRequest = {
    offer_id: input.offerId,
    currency: input.currency as CreateBookingRequest['currency'],
    passengers: input.passengers,
    contact: { email: input.contactEmail, phone: input.contactPhone },
    payment_mode: input.paymentMode,
    ...(options.reference ? { client_ref: options.reference } : {}),
    ...(options.searchId ? { search_id: options.searchId } : {}),
  };
  // The key covers the whole request: a corrected re-run is another request (a fresh key).
  const entryKey = journalKey({ profile: ctx.profileName, body });
  const choice = chooseIdempotencyKey(ctx.config, entryKey, {
    explicit: options.idempotencyKey,
    fresh: options.fresh,
  });
  if (choice.source === 'journal') io.err(replayNotice(choice));
  // Written before sending: if we crash mid-request, the next run still replays this key.
  const entry = {
    idempotencyKey: choice.idempotencyKey,
    offerId: input.offerId,
    createdAt: choice.previous?.createdAt ?? ctx.now().toISOString(),
  };
  ctx.config.setJournal(entryKey, entry);

  const board = io.statusBoard(['booking']);
  board.update('booking', `creating (idempotency key ${choice.idempotencyKey})`);
  let result: Awaited<ReturnType<ReturnType<Ctx['client']>['bookings']['create']>>;
  try {
    // deadlineMs 0: the SDK returns at once on a 502, so we can poll here with our own spinner text.
    result = await ctx
      .client()
      .bookings.create(body, { idempotencyKey: choice.idempotencyKey, pending: { deadlineMs: 0 } });
    if (result.outcome === 'pending' && options.waitSeconds > 0) {
      board.update(
        'booking',
        `supplier has not confirmed booking ${result.booking_id} yet; waiting up to ${options.waitSeconds}s`,
        'running',
      );
      if (!io.interactive)
        io.err(
          `booking ${result.booking_id} pending with the supplier; polling up to ${options.waitSeconds}s`,
        );
      const settled = await pollUntilSettled(
        (id) => ctx.client().bookings.get(id),
        result.booking_id,
        FLIGHT_BOOKING_RULES,
        { sleep: ctx.sleep, now: () => ctx.now().getTime() },
        { deadlineMs: options.waitSeconds * 1000, initialDelayMs: 1000, maxDelayMs: 5000 },
      );
      result = { ...result, ...settled, booking: settled.booking ?? result.booking };
    }
  } catch (error) {
    board.update('booking', 'failed', 'failed');
    board.stop();
    // Refused (4xx): nothing was booked, so there is nothing to replay; the next run takes a fresh key.
    if (refused(error)) ctx.config.deleteJournal(entryKey);
    throw error;
  }
  const booking = result.booking as Booking | undefined;
  ctx.config.setJournal(entryKey, {
    ...entry,
    bookingId: result.booking_id,
    pnr: booking?.pnr ?? null,
    ...(booking ? { status: booking.status } : {}),
  });
  board.update(
    'booking',
    `${result.outcome}${booking?.pnr ? ` · PNR ${booking.pnr}` : ''}`,
    result.outcome === 'confirmed' ? 'done' : result.outcome === 'pending' ? 'warn' : 'failed',
  );
  board.stop();

  output(
    ctx,
    {
      outcome: result.outcome,
      booking_id: result.booking_id,
      pnr: booking?.pnr ?? null,
      idempotency_key: choice.idempotencyKey,
      key_source: choice.source,
      booking: booking ?? null,
    },
    () => {
      if (booking) for (const line of bookingLines(booking)) io.out(line);
      else io.out(`booking ${result.booking_id}: ${result.outcome}`);
    },
  );
  if (result.outcome === 'failed') {
    throw new CliError(
      `the supplier did not confirm booking ${result.booking_id} (status ${booking?.status ?? 'unknown'})`,
      ExitCode.failed,
    );
  }
  if (result.outcome === 'pending') {
    throw new CliError(
      `booking ${result.booking_id} is still pending with the supplier; check later: travel booking show ${result.booking_id}`,
      ExitCode.supplierPending,
    );
  }
}

export function bookCommand(deps: Deps): Command {
  const command = new Command('book')
    .description('book a flight offer (interactive on a terminal, flag-driven without one)')
    .option('--offer <id>', 'offer id from `travel search flight`')
    .option('--passengers <file>', 'JSON file: [{ type, first_name, last_name, gender, date_of_birth, ... }]')
    .option('--contact <email,phone>', 'contact email and phone in one flag')
    .option('--contact-email <email>', 'contact email')
    .option('--contact-phone <phone>', 'contact phone')
    .option(
      '--payment-mode <mode>',
      `${PAYMENT_MODES.join(' | ')}: ${PAYMENT_MODES.map((m) => `${m} ${PAYMENT_MODE_HELP[m]}`).join('; ')}`,
    )
    .option('--currency <CUR>', "booking currency (default: the offer's, read from the server)")
    .option('--reference <ref>', 'your reference (client_ref); part of the re-run journal key')
    .option('--search-id <id>', 'the search the offer came from')
    .option('--idempotency-key <key>', 'send this Idempotency-Key (also TRAVEL_IDEMPOTENCY_KEY)')
    .option('--new', 'ignore the journal: a fresh key, a new booking')
    .option('--yes', 'do not ask to confirm the price')
    .option('--wait <seconds>', 'how long to poll a pending (502) booking (default 60)')
    .action(
      action(deps, (ctx, raw: RawBookFlags) =>
        runBook(parseBookOptions(raw, ctx.io.interactive, ctx.env), ctx),
      ),
    );
  return examples(
    command,
    'travel book',
    'travel book --offer off_01JD3XA0QW --passengers pax.json --contact ada@example.org,+447700900123 --payment-mode PNR_FIRST --reference ACME-0042',
    'TRAVEL_IDEMPOTENCY_KEY=$CI_JOB_ID travel book --offer off_01JD3XA0QW --passengers pax.json --contact ada@example.org,+447700900123 --json',
  );
}
