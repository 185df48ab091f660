/**
 * `travel search transport`: ground transfers, streamed like the other searches; on a terminal a picker
 * that goes straight on to booking the transfer.
 */
import type { TransferOffer } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { integer, isoDateTime, type OutputModeFlags, oneOf, requireValue } from '../parse.ts';
import { followReservationSearch, type OfferView, shortKey } from '../reservation-commands.ts';
import { duration, money } from '../ui/table.ts';
import { type OutputMode, sharedSearchOptions } from './search-flight.ts';
import { runTransferBookOffer } from './transfer.ts';

const TYPES = ['PRIVATE', 'SHARED', 'TAXI', 'HOURLY'] as const;

export interface TransportSearchOptions {
  pickup: string;
  dropoff: string;
  at: string;
  passengers: number;
  luggage: number;
  type: (typeof TYPES)[number] | undefined;
  currency: string | undefined;
  limit: number;
  timeoutSeconds: number;
  mode: OutputMode;
}

export function parseTransportSearchOptions(
  raw: {
    pickup?: string;
    dropoff?: string;
    at?: string;
    passengers?: string;
    luggage?: string;
    type?: string;
    currency?: string;
    limit?: string;
    timeout?: string;
  } & OutputModeFlags,
  interactive: boolean,
): TransportSearchOptions {
  return {
    pickup: requireValue(raw.pickup, '--pickup', 'IATA code, "lat,lon" or an address'),
    dropoff: requireValue(raw.dropoff, '--dropoff'),
    at: isoDateTime(requireValue(raw.at, '--at', 'pickup time, e.g. 2026-12-20T14:30'), '--at'),
    passengers: integer(raw.passengers, '--passengers', 1, 50) ?? 1,
    luggage: integer(raw.luggage, '--luggage', 0, 50) ?? 1,
    type: oneOf(raw.type, '--type', TYPES),
    ...sharedSearchOptions(raw, interactive),
  };
}

export async function runTransportSearch(options: TransportSearchOptions, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const search = await ctx.client().transfers.search({
    pickup_location: options.pickup,
    dropoff_location: options.dropoff,
    pickup_datetime: options.at,
    passengers: options.passengers,
    luggage: options.luggage,
    ...(options.type ? { transfer_type: options.type } : {}),
    ...(options.currency ? { currency: options.currency as 'USD' } : {}),
  });
  await followReservationSearch(search, options, TRANSFER_OFFERS, ctx);
}

const TRANSFER_OFFERS: OfferView<TransferOffer> = {
  offerEvent: 'transport_offer',
  suppliers: ['hotelbeds_transfers', 'amadeus_transfers'],
  headers: ['type', 'vehicle', 'provider', 'duration', 'supplier', 'quote'],
  cells: (o) => [
    o.transfer_type,
    o.vehicle.description,
    o.provider_name,
    duration(o.duration_minutes ?? undefined),
    o.supplier,
    // Quote ids run to hundreds of characters.
    shortKey(o.quote_id),
  ],
  bookHint: 'book with: travel transfer book --quote <quote> --provider <supplier> (full quotes in --json)',
  pickPrompt: 'Pick a transfer to book',
  summary: (o) =>
    `${money(o.price.total_minor, o.price.currency)}  ${o.transfer_type}  ${o.vehicle.description}  ${o.provider_name}  ${duration(o.duration_minutes ?? undefined)}  ${o.supplier}`,
  bookOffer: runTransferBookOffer,
};

export function searchTransportCommand(deps: Deps): Command {
  return examples(
    new Command('transport')
      .description('search ground transfers live across providers')
      .option('--pickup <place>', 'IATA code, "lat,lon" or an address')
      .option('--dropoff <place>', 'where to')
      .option('--at <YYYY-MM-DDTHH:MM>', 'pickup time (local)')
      .option('--passengers <n>', 'passengers (default 1)')
      .option('--luggage <n>', 'pieces of luggage (default 1)')
      .option('--type <type>', TYPES.join(' | '))
      .option('--currency <CUR>', 'e.g. GBP')
      .option('--limit <n>', 'offers in the table (default 20)')
      .option('--timeout <seconds>', 'stop following after this long (default 90)')
      .option('--ndjson', 'print each stream event as one JSON line')
      .action(
        action(deps, (ctx, raw: Parameters<typeof parseTransportSearchOptions>[0]) =>
          runTransportSearch(parseTransportSearchOptions(raw, ctx.io.interactive), ctx),
        ),
      ),
    'travel search transport --pickup DXB --dropoff "Atlantis The Palm, Dubai" --at 2026-12-20T14:30 --passengers 2',
  );
}
