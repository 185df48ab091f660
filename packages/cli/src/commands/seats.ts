/** `travel seats show|select|issue`. */
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { bookingRef, requireValue } from '../parse.ts';

export interface SeatSelectOptions {
  segment: string;
  seat: string;
  passenger: string;
}

export function parseSeatSelectOptions(raw: {
  segment?: string;
  seat?: string;
  passenger?: string;
}): SeatSelectOptions {
  return {
    segment: requireValue(raw.segment, '--segment', 'e.g. s1'),
    seat: requireValue(raw.seat, '--seat', 'e.g. 12A').toUpperCase(),
    passenger: requireValue(raw.passenger, '--passenger', 'passenger id, e.g. 1'),
  };
}

export async function runSeatsShow(ref: string, ctx: Ctx) {
  requireToken(ctx);
  output(ctx, await ctx.client().seats.map(ref));
}

export async function runSeatsSelect(ref: string, o: SeatSelectOptions, ctx: Ctx) {
  requireToken(ctx);
  output(
    ctx,
    await ctx
      .client()
      .seats.select(ref, { segment_id: o.segment, seat_number: o.seat, passenger_id: o.passenger }),
  );
}

export async function runSeatsIssue(ref: string, emd: boolean, ctx: Ctx) {
  requireToken(ctx);
  output(ctx, await ctx.client().seats.issue(ref, { issue_emd_documents: emd }));
}

export function seatsCommand(deps: Deps): Command {
  const seats = new Command('seats').description('seat maps, selection and paid-seat issuance');
  seats.addCommand(
    examples(
      new Command('show')
        .argument('<booking>', 'booking id or PNR')
        .description('the seat map per segment')
        .action(action(deps, (ctx, _o, [ref]) => runSeatsShow(bookingRef(ref), ctx))),
      'travel seats show X7KQ2M --json',
    ),
  );
  seats.addCommand(
    examples(
      new Command('select')
        .argument('<booking>', 'booking id or PNR')
        .description('request a seat')
        .option('--segment <id>', 'segment id (s1, s2, ...)')
        .option('--seat <number>', 'seat, e.g. 12A')
        .option('--passenger <id>', 'passenger id')
        .action(
          action(deps, (ctx, raw: { segment?: string; seat?: string; passenger?: string }, [ref]) =>
            runSeatsSelect(bookingRef(ref), parseSeatSelectOptions(raw), ctx),
          ),
        ),
      'travel seats select X7KQ2M --segment s1 --seat 12A --passenger 1',
    ),
  );
  seats.addCommand(
    examples(
      new Command('issue')
        .argument('<booking>', 'booking id or PNR')
        .description('issue paid seats (EMDs)')
        .option('--no-emd', 'do not issue EMD documents')
        .action(
          action(deps, (ctx, raw: { emd?: boolean }, [ref]) =>
            runSeatsIssue(bookingRef(ref), raw.emd !== false, ctx),
          ),
        ),
      'travel seats issue X7KQ2M',
    ),
  );
  return seats;
}
