/**
 * `travel search flight`: starts a search and follows its stream. On a terminal: one live line per supplier,
 * then a ranked table and a picker that can go straight on to booking. --json prints one document at the
 * end, --ndjson every event as it arrives; without a terminal, the table goes to stdout.
 */
import { FLIGHT_SUPPLIERS } from '@travel/contract/enums';
import type { FlightOffer, FlightSearchRequest } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { UsageError } from '../errors.ts';
import { resolveAgentCodes } from '../identity.ts';
import { iata, integer, isoDate, oneOf, requireValue } from '../parse.ts';
import type { LineState } from '../ui/status-board.ts';
import { offerSummary, offerTable, rankOffers } from '../views/flight-offers.ts';
import { runBook } from './book.ts';

export const CABINS = ['Economy', 'Premium', 'Business', 'First'] as const;
export type OutputMode = 'json' | 'ndjson' | 'interactive' | 'plain';

export interface FlightSearchOptions {
  from: string;
  to: string;
  date: string;
  returnDate: string | undefined;
  adults: number;
  children: number;
  cabin: (typeof CABINS)[number] | undefined;
  airline: string | undefined;
  currency: string | undefined;
  suppliers: string[];
  limit: number;
  timeoutSeconds: number;
  mode: OutputMode;
  companyCode: string | undefined;
  userCode: string | undefined;
}

export interface RawFlightFlags {
  from?: string;
  to?: string;
  date?: string;
  return?: string;
  adults?: string;
  children?: string;
  cabin?: string;
  airline?: string;
  currency?: string;
  supplier?: string[];
  limit?: string;
  timeout?: string;
  json?: boolean;
  ndjson?: boolean;
  companyCode?: string;
  userCode?: string;
}

export function outputMode(flags: { json?: boolean; ndjson?: boolean }, interactive: boolean): OutputMode {
  if (flags.json && flags.ndjson) throw new UsageError('--json and --ndjson exclude each other');
  if (flags.ndjson) return 'ndjson';
  if (flags.json) return 'json';
  return interactive ? 'interactive' : 'plain';
}

/** The flags every search command shares: the currency, how many offers, how long to wait, the output. */
export function sharedSearchOptions(
  raw: { json?: boolean; ndjson?: boolean; currency?: string; limit?: string; timeout?: string },
  interactive: boolean,
) {
  return {
    currency: raw.currency?.toUpperCase(),
    limit: integer(raw.limit, '--limit', 1, 500) ?? 20,
    timeoutSeconds: integer(raw.timeout, '--timeout', 5, 600) ?? 90,
    mode: outputMode(raw, interactive),
  };
}

export function parseFlightSearchOptions(raw: RawFlightFlags, interactive: boolean): FlightSearchOptions {
  const from = iata(requireValue(raw.from, '--from', 'e.g. --from LHR'), '--from');
  const to = iata(requireValue(raw.to, '--to', 'e.g. --to DXB'), '--to');
  const date = isoDate(requireValue(raw.date, '--date', 'e.g. --date 2026-12-20'), '--date');
  const returnDate = raw.return ? isoDate(raw.return, '--return') : undefined;
  if (returnDate && returnDate < date) throw new UsageError('--return must not be before --date');
  if (from === to) throw new UsageError('--from and --to must differ');
  const airline = raw.airline?.toUpperCase();
  if (airline !== undefined && !/^[A-Z0-9]{2}$/.test(airline)) {
    throw new UsageError(`--airline must be a 2-character IATA code, got "${raw.airline}"`);
  }
  const suppliers = (raw.supplier ?? []).map((s) => oneOf(s, '--supplier', FLIGHT_SUPPLIERS) as string);
  return {
    from,
    to,
    date,
    returnDate,
    adults: integer(raw.adults, '--adults', 1, 9) ?? 1,
    children: integer(raw.children, '--children', 0, 8) ?? 0,
    cabin: oneOf(raw.cabin, '--cabin', CABINS),
    airline,
    suppliers,
    ...sharedSearchOptions(raw, interactive),
    companyCode: raw.companyCode,
    userCode: raw.userCode,
  };
}

export function flightSearchBody(
  options: FlightSearchOptions,
  codes: { companyCode: string; userCode: string },
) {
  const legs = [{ origin: options.from, destination: options.to, departureDate: options.date }];
  if (options.returnDate)
    legs.push({ origin: options.to, destination: options.from, departureDate: options.returnDate });
  const body: FlightSearchRequest = {
    ...codes,
    adults: options.adults,
    children: options.children,
    // The contract wants one age per child; without --child-age we assume school age.
    ...(options.children > 0 ? { childAge: Array.from({ length: options.children }, () => 8) } : {}),
    journeyType: options.returnDate ? 'Return' : 'OneWay',
    searchAirLegs: legs,
    ...(options.cabin ? { cabinClass: options.cabin } : {}),
    ...(options.airline ? { airline: options.airline } : {}),
    ...(options.currency ? { currency: options.currency as FlightSearchRequest['currency'] } : {}),
    ...(options.suppliers.length ? { sources: options.suppliers as FlightSearchRequest['sources'] } : {}),
  };
  return body;
}

export interface FlightSearchResult {
  search_id: string;
  status: string;
  total_offers: number;
  suppliers: Record<string, { status: string; offer_count: number }>;
  offers: FlightOffer[];
}

const STATE_OF: Record<string, LineState> = {
  completed: 'done',
  timed_out: 'warn',
  skipped: 'warn',
  failed: 'failed',
};
const LABEL_OF: Record<string, string> = {
  completed: 'done',
  timed_out: 'timed out',
  skipped: 'skipped',
  failed: 'failed',
};

/** Runs the search to its end (or our timeout) and returns what came in; events go out as they arrive. */
export async function collectFlightSearch(
  options: FlightSearchOptions,
  ctx: Ctx,
): Promise<FlightSearchResult> {
  const codes = await resolveAgentCodes(ctx, options);
  const search = await ctx.client().flights.search(flightSearchBody(options, codes));
  const keys = options.suppliers.length ? options.suppliers : [...FLIGHT_SUPPLIERS];
  const board = options.mode === 'interactive' ? ctx.io.statusBoard(keys) : undefined;
  const suppliers: FlightSearchResult['suppliers'] = {};
  const counts = new Map<string, number>();
  const offers: FlightOffer[] = [];
  let status = 'timed_out';
  try {
    for await (const event of search.stream({ signal: AbortSignal.timeout(options.timeoutSeconds * 1000) })) {
      if (options.mode === 'ndjson') ctx.io.out(JSON.stringify(event));
      if (event.event === 'offer') {
        const offer = event.data.offer;
        offers.push(offer);
        const n = (counts.get(offer.supplier) ?? 0) + 1;
        counts.set(offer.supplier, n);
        board?.update(offer.supplier, `${n} offer${n === 1 ? '' : 's'}`);
      } else if (event.event === 'supplier_done') {
        const { supplier, status: s, offer_count } = event.data;
        suppliers[supplier] = { status: s, offer_count };
        board?.update(supplier, `${LABEL_OF[s] ?? s} · ${offer_count} offers`, STATE_OF[s] ?? 'warn');
        if (options.mode === 'plain') ctx.io.err(`${supplier}: ${LABEL_OF[s] ?? s} (${offer_count} offers)`);
      } else if (event.event === 'done') {
        status = event.data.status;
      }
    }
  } catch (error) {
    // Our own deadline is a partial result, not a failure: show what arrived.
    if (!(error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))) {
      board?.stop();
      throw error;
    }
    ctx.io.err(
      `search still running after ${options.timeoutSeconds}s; showing what arrived (--timeout to wait longer)`,
    );
  }
  for (const key of keys) {
    if (!suppliers[key]) board?.update(key, status === 'timed_out' ? 'timed out' : 'no answer', 'warn');
  }
  board?.stop();
  return {
    search_id: search.searchId,
    status,
    total_offers: offers.length,
    suppliers,
    offers: rankOffers(offers),
  };
}

export async function runFlightSearch(options: FlightSearchOptions, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const result = await collectFlightSearch(options, ctx);
  if (options.mode === 'json') return ctx.io.json(result);
  if (options.mode === 'ndjson') return;
  const shown = result.offers.slice(0, options.limit);
  if (shown.length === 0) {
    ctx.io.err(`no offers (search ${result.search_id}, ${result.status})`);
    return;
  }
  for (const line of offerTable(shown, ctx.io.columns)) ctx.io.out(line);
  ctx.io.err(`${result.offers.length} offers, search ${result.search_id} (${result.status})`);
  if (options.mode !== 'interactive') return;
  const picked = await ctx.prompter.select<FlightOffer | null>('Pick an offer to book', [
    ...shown.map((offer, i) => ({ name: `${i + 1}. ${offerSummary(offer)}`, value: offer })),
    { name: 'Done (book nothing)', value: null },
  ]);
  if (!picked) return;
  await runBook(
    {
      offerId: picked.offer_id,
      offer: picked,
      searchId: result.search_id,
      currency: picked.price.currency,
      passengersFile: undefined,
      contactEmail: undefined,
      contactPhone: undefined,
      paymentMode: undefined,
      reference: undefined,
      idempotencyKey: undefined,
      fresh: false,
      yes: false,
      waitSeconds: 60,
    },
    ctx,
  );
}

export function searchFlightCommand(deps: Deps): Command {
  const command = new Command('flight')
    .description('search flights live across suppliers')
    .option('--from <IATA>', 'origin airport or city code')
    .option('--to <IATA>', 'destination airport or city code')
    .option('--date <YYYY-MM-DD>', 'departure date')
    .option('--return <YYYY-MM-DD>', 'return date (makes it a return trip)')
    .option('--adults <n>', 'adults (1-9)', undefined)
    .option('--children <n>', 'children (0-8)')
    .option('--cabin <cabin>', CABINS.join(' | '))
    .option('--airline <XX>', 'only this marketing carrier')
    .option('--currency <CUR>', 'e.g. GBP')
    .option('--supplier <name...>', `only these suppliers (${FLIGHT_SUPPLIERS.join(', ')})`)
    .option('--limit <n>', 'offers in the table (default 20)')
    .option('--timeout <seconds>', 'stop following the stream after this long (default 90)')
    .option('--ndjson', 'print each stream event as one JSON line as it arrives')
    .option('--company-code <code>', 'your company code (default: from login)')
    .option('--user-code <code>', 'your user code (default: from login)')
    .action(
      action(deps, (ctx, raw: RawFlightFlags) =>
        runFlightSearch(parseFlightSearchOptions(raw, ctx.io.interactive), ctx),
      ),
    );
  return examples(
    command,
    'travel search flight --from LHR --to DXB --date 2026-12-20',
    'travel search flight --from LHR --to DXB --date 2026-12-20 --return 2026-12-27 --adults 2 --children 1 --cabin Business --airline EK',
    'travel search flight --from LHR --to DXB --date 2026-12-20 --json | jq ".offers[0].offer_id"',
    'travel search flight --from LHR --to DXB --date 2026-12-20 --ndjson',
  );
}
