/**
 * The last question before anything is booked on a terminal: the price the supplier quotes now (flight
 * revalidation, hotel check-rate, transfer quote all answer in this shape) and a yes.
 */
import type { Ctx } from './context.ts';
import { CliError } from './errors.ts';
import { ExitCode } from './exit-codes.ts';
import { money } from './ui/table.ts';

export interface PriceCheck {
  available: boolean;
  price_changed: boolean;
  previous_total_minor: number;
  offer: { price: { currency: string; total_minor: number } };
}

/** Stops on an unavailable offer (exit 5) or a no (exit 1); warns when the price moved. */
export async function confirmCheckedPrice(
  ctx: Ctx,
  check: PriceCheck,
  what: string,
  yes: boolean,
): Promise<void> {
  if (!check.available) throw new CliError(`${what} is no longer available; search again`, ExitCode.conflict);
  const { currency, total_minor } = check.offer.price;
  const price = money(total_minor, currency);
  if (check.price_changed) {
    ctx.io.err(
      ctx.io.c.yellow(`The price changed from ${money(check.previous_total_minor, currency)} to ${price}.`),
    );
  }
  if (yes) return;
  if (!(await ctx.prompter.confirm(`Book for ${price}?`, true)))
    throw new CliError('not booked', ExitCode.failed);
}
