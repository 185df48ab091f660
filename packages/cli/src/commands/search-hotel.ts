/**
 * `travel search hotel`: like flights, one line per provider, a ranked table, --json / --ndjson; on a
 * terminal a picker that goes straight on to booking the rate.
 */
import type { HotelOffer } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { UsageError } from '../errors.ts';
import { resolveAgentCodes } from '../identity.ts';
import { integer, isoDate, type OutputModeFlags, requireValue } from '../parse.ts';
import { followReservationSearch, type OfferView, shortKey } from '../reservation-commands.ts';
import { money } from '../ui/table.ts';
import { runHotelBookOffer } from './hotel.ts';
import { type OutputMode, sharedSearchOptions } from './search-flight.ts';

export interface HotelSearchOptions {
  destination: string;
  checkIn: string;
  checkOut: string;
  adults: number;
  rooms: number;
  currency: string | undefined;
  minStars: number | undefined;
  limit: number;
  timeoutSeconds: number;
  mode: OutputMode;
}

export function parseHotelSearchOptions(
  raw: {
    destination?: string;
    checkIn?: string;
    checkOut?: string;
    adults?: string;
    rooms?: string;
    currency?: string;
    stars?: string;
    limit?: string;
    timeout?: string;
  } & OutputModeFlags,
  interactive: boolean,
): HotelSearchOptions {
  const checkIn = isoDate(requireValue(raw.checkIn, '--check-in'), '--check-in');
  const checkOut = isoDate(requireValue(raw.checkOut, '--check-out'), '--check-out');
  if (checkOut <= checkIn) throw new UsageError('--check-out must be after --check-in');
  return {
    destination: requireValue(raw.destination, '--destination', 'city, IATA code or "lat,lon"'),
    checkIn,
    checkOut,
    adults: integer(raw.adults, '--adults', 1, 9) ?? 2,
    rooms: integer(raw.rooms, '--rooms', 1, 8) ?? 1,
    minStars: integer(raw.stars, '--stars', 1, 5),
    ...sharedSearchOptions(raw, interactive),
  };
}

export async function runHotelSearch(options: HotelSearchOptions, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const codes = await resolveAgentCodes(ctx, {});
  const search = await ctx.client().hotels.search({
    destination: options.destination,
    check_in: options.checkIn,
    check_out: options.checkOut,
    rooms: Array.from({ length: options.rooms }, () => ({
      adults: options.adults,
      children: 0,
      child_ages: [],
    })),
    company_code: codes.companyCode,
    user_code: codes.userCode,
    ...(options.currency ? { currency: options.currency as 'USD' } : {}),
    ...(options.minStars ? { min_star_rating: options.minStars } : {}),
  });
  await followReservationSearch(search, options, HOTEL_OFFERS, ctx);
}

const HOTEL_OFFERS: OfferView<HotelOffer> = {
  offerEvent: 'hotel_offer',
  suppliers: ['hotelbeds', 'duffel_stays'],
  headers: ['hotel', 'stars', 'room', 'board', 'refundable', 'supplier', 'rate key'],
  cells: (o) => [
    o.hotel.name,
    `${o.hotel.star_rating}*`,
    o.room.room_name,
    o.room.board_name,
    o.refundable ? 'yes' : 'no',
    o.supplier,
    shortKey(o.rate_key),
  ],
  bookHint: 'book with: travel hotel book --rate-key … (full keys in --json)',
  pickPrompt: 'Pick a rate to book',
  summary: (o) =>
    `${money(o.price.total_minor, o.price.currency)}  ${o.hotel.name} ${o.hotel.star_rating}*  ${o.room.room_name}, ${o.room.board_name}  ${o.refundable ? 'refundable' : 'non-refundable'}  ${o.supplier}`,
  bookOffer: runHotelBookOffer,
};

export function searchHotelCommand(deps: Deps): Command {
  return examples(
    new Command('hotel')
      .description('search hotels live across providers')
      .option('--destination <place>', 'city, IATA code or "lat,lon"')
      .option('--check-in <YYYY-MM-DD>', 'arrival')
      .option('--check-out <YYYY-MM-DD>', 'departure')
      .option('--adults <n>', 'adults per room (default 2)')
      .option('--rooms <n>', 'rooms (default 1)')
      .option('--stars <n>', 'minimum star rating')
      .option('--currency <CUR>', 'e.g. GBP')
      .option('--limit <n>', 'offers in the table (default 20)')
      .option('--timeout <seconds>', 'stop following after this long (default 90)')
      .option('--ndjson', 'print each stream event as one JSON line')
      .action(
        action(deps, (ctx, raw: Parameters<typeof parseHotelSearchOptions>[0]) =>
          runHotelSearch(parseHotelSearchOptions(raw, ctx.io.interactive), ctx),
        ),
      ),
    'travel search hotel --destination DXB --check-in 2026-12-20 --check-out 2026-12-23',
    'travel search hotel --destination DXB --check-in 2026-12-20 --check-out 2026-12-23 --rooms 2 --json',
  );
}
