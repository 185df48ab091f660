/** `travel booking show|list|timeline|cancel|accept-change`. */
import type { Booking, ScheduleChange } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { confirmationWord, type Guard, parseGuard, typeToConfirm } from '../guard.ts';
import { bookingRef, integer } from '../parse.ts';
import { money, renderTable } from '../ui/table.ts';
import { bookingLines } from '../views/booking.ts';
import { scheduleChangeLines } from '../views/schedule-change.ts';
import { timelineLines } from '../views/timeline.ts';

/**
 * The booking's schedule changes (`refresh`: after re-reading the airline's schedule), or null when they
 * cannot be read: the booking is shown anyway, with a warning for a failed re-read.
 */
export async function scheduleChangesOf(
  ctx: Ctx,
  ref: string,
  refresh: boolean,
): Promise<ScheduleChange[] | null> {
  const changes = ctx.client().bookings.scheduleChanges;
  if (refresh) {
    try {
      return (await changes.refresh(ref)).data;
    } catch (error) {
      ctx.io.err(
        `could not re-read the airline's schedule: ${error instanceof Error ? error.message : error}`,
      );
    }
  }
  try {
    return (await changes.list(ref)).data;
  } catch {
    return null;
  }
}

export async function runBookingShow(ref: string, o: { refresh: boolean }, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  // The re-read first: a change it finds is listed below the booking.
  const changes = await scheduleChangesOf(ctx, ref, o.refresh);
  const booking = await ctx.client().bookings.get(ref);
  // --json: the booking as the API returns it, plus its schedule changes when they could be read.
  output(ctx, changes ? { ...booking, schedule_changes: changes } : booking, () => {
    for (const line of bookingLines(booking)) ctx.io.out(line);
    // A cancelled booking takes no schedule change: its pending one is not offered.
    const live = !['cancelled', 'refunded', 'expired'].includes(booking.status);
    const shown = (changes ?? []).filter((c) => live || c.status !== 'pending');
    for (const line of scheduleChangeLines(shown, ref)) ctx.io.out(line);
  });
}

/** `travel booking accept-change`: accept the airline's schedule change; the booking shows the new times. */
export async function runBookingAcceptChange(ref: string, changeId: string, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const accepted = await ctx.client().bookings.scheduleChanges.accept(ref, changeId);
  output(ctx, accepted, () => {
    for (const line of scheduleChangeLines([accepted], ref)) ctx.io.out(line);
  });
}

/** `travel booking timeline`: the booking's story (state changes, supplier and payment calls, money). */
export async function runBookingTimeline(ref: string, o: { excerpts: boolean }, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const client = ctx.client();
  // The timeline is read by id: a PNR is resolved through the booking first.
  const id = /^[0-9]+$/.test(ref) ? Number(ref) : (await client.bookings.get(ref)).booking_id;
  const me = await client.auth.me();
  const timeline =
    me.role === 'super_admin'
      ? await client.admin.bookings.timeline(id)
      : await client.company.bookings.timeline(id);
  output(ctx, timeline, () => {
    for (const line of timelineLines(timeline, o)) ctx.io.out(line);
  });
}

export interface BookingListOptions {
  status: string | undefined;
  limit: number;
}

type Row = Pick<Booking, 'booking_id' | 'pnr' | 'status' | 'pricing' | 'created_at' | 'client_ref'>;

/** Each role sees bookings through its own surface (admin, company, customer). */
export async function listBookings(
  ctx: Ctx,
  options: BookingListOptions & { search?: string },
): Promise<Row[]> {
  const client = ctx.client();
  const me = await client.auth.me();
  const status = options.status as never;
  const iterator =
    me.role === 'super_admin'
      ? client.admin.bookings.list({
          page_size: 50,
          ...(status ? { status } : {}),
          ...(options.search ? { search: options.search } : {}),
        })
      : me.role === 'customer'
        ? client.customer.bookings.list({ page_size: 50, ...(status ? { status } : {}) })
        : client.company.bookings.list({
            page_size: 50,
            ...(status ? { status } : {}),
            ...(options.search ? { search: options.search } : {}),
          });
  const rows: Row[] = [];
  for await (const item of iterator as AsyncIterable<Row>) {
    rows.push(item);
    if (rows.length >= options.limit) break;
  }
  return rows;
}

export async function runBookingList(options: BookingListOptions, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const rows = await listBookings(ctx, options);
  output(ctx, { items: rows }, () => {
    const table = renderTable(
      ['id', 'pnr', 'status', 'total', 'created', 'reference'],
      rows.map((b) => [
        String(b.booking_id),
        b.pnr ?? '-',
        b.status,
        money(b.pricing?.total_minor, b.pricing?.currency),
        b.created_at,
        b.client_ref ?? '-',
      ]),
    );
    for (const line of table) ctx.io.out(line);
  });
}

export async function runBookingCancel(ref: string, guard: Guard, ctx: Ctx): Promise<void> {
  requireToken(ctx);
  if (!guard.confirm) {
    const booking = await ctx.client().bookings.get(ref);
    output(
      ctx,
      {
        booking_id: booking.booking_id,
        status: booking.status,
        cancelled: false,
        hint: 'pass --confirm to cancel',
      },
      () => {
        for (const line of bookingLines(booking)) ctx.io.out(line);
      },
    );
    ctx.io.err('Nothing changed. Pass --confirm to cancel this booking.');
    return;
  }
  await typeToConfirm(ctx, guard, await confirmationWord(ctx, ref), `Cancel booking ${ref}`);
  const result = await ctx.client().bookings.cancel(ref);
  output(ctx, result);
}

export function bookingCommand(deps: Deps): Command {
  const booking = new Command('booking').description(
    'flight bookings: show, list, timeline, cancel, accept-change',
  );
  booking.addCommand(
    examples(
      new Command('show')
        .argument('<booking>', 'booking id or PNR')
        .description('show one booking, with the airline’s schedule changes (old -> new times)')
        .option('--refresh', 're-read the airline’s schedule now instead of waiting for the next check')
        .action(
          action(deps, (ctx, raw: { refresh?: boolean }, [ref]) =>
            runBookingShow(bookingRef(ref), { refresh: raw.refresh === true }, ctx),
          ),
        ),
      'travel booking show X7KQ2M',
      'travel booking show X7KQ2M --refresh',
      'travel booking show 1042 --json',
    ),
  );
  booking.addCommand(
    examples(
      new Command('accept-change')
        .argument('<booking>', 'booking id or PNR')
        .argument('<change>', 'the schedule change id (sc_…), as `travel booking show` lists it')
        .description('accept the airline’s schedule change: the booking takes the new flight times')
        .action(
          action(deps, (ctx, _o, [ref, change]) =>
            runBookingAcceptChange(bookingRef(ref), String(change), ctx),
          ),
        ),
      'travel booking accept-change X7KQ2M sc_3kTqJ9fQe1x0',
      'travel booking accept-change 1042 sc_3kTqJ9fQe1x0 --json',
    ),
  );
  booking.addCommand(
    examples(
      new Command('timeline')
        .argument('<booking>', 'booking id or PNR')
        .description('the booking’s story: state changes, supplier and payment calls, money (staff, admins)')
        .option('--excerpts', 'show what each supplier call sent and answered (redacted)')
        .action(
          action(deps, (ctx, raw: { excerpts?: boolean }, [ref]) =>
            runBookingTimeline(bookingRef(ref), { excerpts: raw.excerpts === true }, ctx),
          ),
        ),
      'travel booking timeline X7KQ2M',
      'travel booking timeline X7KQ2M --excerpts',
      'travel booking timeline 1042 --json | jq \'.entries[] | select(.kind == "supplier_call")\'',
    ),
  );
  booking.addCommand(
    examples(
      new Command('list')
        .description('your bookings, newest first')
        .option('--status <status>', 'e.g. confirmed, ticketed, pending_pnr')
        .option('--limit <n>', 'at most this many (default 50)')
        .action(
          action(deps, (ctx, raw: { status?: string; limit?: string }) =>
            runBookingList({ status: raw.status, limit: integer(raw.limit, '--limit', 1, 1000) ?? 50 }, ctx),
          ),
        ),
      'travel booking list --status confirmed',
    ),
  );
  booking.addCommand(
    examples(
      new Command('cancel')
        .argument('<booking>', 'booking id or PNR')
        .description('cancel a booking (guarded)')
        .option('--confirm', 'really cancel (else: show the booking, change nothing)')
        .option('--yes', 'skip typing the PNR (required with --confirm without a terminal)')
        .action(
          action(deps, (ctx, raw: { confirm?: boolean; yes?: boolean }, [ref]) =>
            runBookingCancel(bookingRef(ref), parseGuard(raw, ctx.io.interactive), ctx),
          ),
        ),
      'travel booking cancel X7KQ2M',
      'travel booking cancel X7KQ2M --confirm',
      'travel booking cancel 1042 --confirm --yes --json',
    ),
  );
  return booking;
}
