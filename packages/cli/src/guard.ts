/**
 * The guard on irreversible actions (ticket void/refund, pay capture/void/refund, booking cancel): without
 * --confirm nothing changes; with it, a person types the PNR unless --yes; a script must say --yes.
 */
import type { Ctx } from './context.ts';
import { CliError, UsageError } from './errors.ts';
import { ExitCode } from './exit-codes.ts';

export interface Guard {
  confirm: boolean;
  yes: boolean;
}

export function parseGuard(raw: { confirm?: boolean; yes?: boolean }, interactive: boolean): Guard {
  const guard = { confirm: Boolean(raw.confirm), yes: Boolean(raw.yes) };
  if (guard.confirm && !guard.yes && !interactive) {
    throw new UsageError(
      '--confirm without a terminal also needs --yes (there is nobody to type the confirmation)',
    );
  }
  return guard;
}

/** Asks for the PNR (or the booking id when there is no PNR yet); anything else stops here. */
export async function typeToConfirm(ctx: Ctx, guard: Guard, expected: string, what: string): Promise<void> {
  if (guard.yes) return;
  const typed = await ctx.prompter.input(`${what}: type ${expected} to go ahead`);
  if (typed.trim().toUpperCase() !== expected.toUpperCase()) {
    throw new CliError(`"${typed}" does not match ${expected}; nothing changed`, ExitCode.failed);
  }
}

/** The PNR to type, read from the booking (falls back to the numeric id while no PNR exists). */
export async function confirmationWord(ctx: Ctx, ref: string): Promise<string> {
  if (/^[A-Z0-9]{6}$/.test(ref) && !/^\d+$/.test(ref)) return ref;
  const booking = await ctx.client().bookings.get(ref);
  return booking.pnr ?? String(booking.booking_id);
}
