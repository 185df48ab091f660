/** `travel bookings list`: flights, hotels and transfers in one list, each id with its kind. */
import { Command } from 'commander';
import { BOOKING_KINDS, type BookingKind } from '../bookings-list.ts';
import { action, examples } from '../command-kit.ts';
import type { Deps } from '../context.ts';
import { oneOf } from '../parse.ts';
import {
  listOptions,
  parseListOptions,
  type ReservationListFlags,
  runBookingsList,
} from '../reservation-commands.ts';

export function bookingsCommand(deps: Deps): Command {
  const bookings = new Command('bookings').description('every kind of booking in one list');
  bookings.addCommand(
    examples(
      listOptions(
        new Command('list').description(
          "bookings newest first: a customer's own, a company's for its staff, all for an admin",
        ),
      )
        .option('--kind <kind>', BOOKING_KINDS.join(' | '))
        .action(
          action(deps, (ctx, raw: ReservationListFlags & { kind?: string }) => {
            const kind = oneOf(raw.kind, '--kind', BOOKING_KINDS);
            const kinds: readonly BookingKind[] = kind ? [kind] : BOOKING_KINDS;
            return runBookingsList(parseListOptions(raw, kinds), ctx);
          }),
        ),
      'travel bookings list',
      'travel bookings list --status confirmed --from 2026-11-01 --to 2026-11-30',
      'travel bookings list --kind hotel --page 2 --limit 50 --json',
    ),
  );
  return bookings;
}
