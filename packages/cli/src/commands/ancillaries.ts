/** `travel ancillaries list|buy|emd|cancel`. */
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { CliError, UsageError } from '../errors.ts';
import { ExitCode } from '../exit-codes.ts';
import { bookingRef, numericId, oneOf } from '../parse.ts';
import { money, renderTable } from '../ui/table.ts';

const GROUPS = ['BG', 'ST', 'ML'] as const;

export async function runAncillariesList(ref: string, group: (typeof GROUPS)[number] | undefined, ctx: Ctx) {
  requireToken(ctx);
  const catalogue = await ctx.client().ancillaries.catalogue(ref, group ? { service_group: group } : {});
  output(ctx, catalogue, () => {
    const rows = catalogue.items.map((i) => [
      i.code,
      i.service_group,
      i.description,
      money(i.price.amount_minor, i.price.currency),
      i.segment_ids.join(' '),
    ]);
    for (const line of renderTable(['code', 'group', 'description', 'price', 'segments'], rows))
      ctx.io.out(line);
  });
}

export interface BuyOptions {
  codes: string[];
  passengers: string[];
}

export function parseBuyOptions(raw: { code?: string[]; passenger?: string[] }): BuyOptions {
  if (!raw.code?.length)
    throw new UsageError('missing --code (catalogue codes from `travel ancillaries list`)');
  if (!raw.passenger?.length) throw new UsageError('missing --passenger (passenger ids, e.g. 1)');
  return { codes: raw.code, passengers: raw.passenger };
}

/** Buys catalogue items by code: the purchase body needs the catalogue's rfic/rfisc/provider fields. */
export async function runAncillariesBuy(ref: string, options: BuyOptions, ctx: Ctx) {
  requireToken(ctx);
  const client = ctx.client();
  const catalogue = await client.ancillaries.catalogue(ref, {});
  const products = options.codes.map((code) => {
    const item = catalogue.items.find((i) => i.code === code);
    if (!item) throw new UsageError(`--code ${code} is not in the catalogue of booking ${ref}`);
    return {
      customer_ref_ids: options.passengers,
      code: item.code,
      rfic: item.rfic,
      rfisc: item.rfisc,
      booking_method: item.booking_method,
      provider: item.provider,
      segment_ref_ids: item.segment_ids.join(' '),
    };
  });
  output(ctx, await client.ancillaries.purchase(ref, { products }));
}

export async function runAncillariesEmd(ref: string, ctx: Ctx) {
  requireToken(ctx);
  output(ctx, await ctx.client().ancillaries.issueEmd(ref, {}));
}

/**
 * The server answers 200 with one outcome per item; an item the supplier could not cancel is `failed`
 * there, so the command exits 1 (after printing the outcomes) instead of reporting success.
 */
export async function runAncillariesCancel(ref: string, ids: number[], ctx: Ctx) {
  requireToken(ctx);
  const result = await ctx.client().ancillaries.cancel(ref, ids.length ? { ancillary_ids: ids } : {});
  output(ctx, result);
  const failed = result.results.filter((r) => r.outcome === 'failed');
  if (failed.length > 0)
    throw new CliError(
      `${failed.length} of ${result.results.length} ancillaries of booking ${ref} were not cancelled: ${failed
        .map((r) => `${r.ancillary_id} (${r.reason ?? 'no reason given'})`)
        .join(', ')}`,
      ExitCode.failed,
    );
}

export function ancillariesCommand(deps: Deps): Command {
  const anc = new Command('ancillaries').description('bags, meals and other extras of a flight booking');
  anc.addCommand(
    examples(
      new Command('list')
        .argument('<booking>', 'booking id or PNR')
        .description('the catalogue')
        .option('--group <group>', 'BG baggage, ST seats, ML meals')
        .action(
          action(deps, (ctx, raw: { group?: string }, [ref]) =>
            runAncillariesList(bookingRef(ref), oneOf(raw.group, '--group', GROUPS), ctx),
          ),
        ),
      'travel ancillaries list X7KQ2M --group BG',
    ),
  );
  anc.addCommand(
    examples(
      new Command('buy')
        .argument('<booking>', 'booking id or PNR')
        .description('buy catalogue items')
        .option('--code <code...>', 'catalogue codes')
        .option('--passenger <id...>', 'passenger ids')
        .action(
          action(deps, (ctx, raw: { code?: string[]; passenger?: string[] }, [ref]) =>
            runAncillariesBuy(bookingRef(ref), parseBuyOptions(raw), ctx),
          ),
        ),
      'travel ancillaries buy X7KQ2M --code XBAG --passenger 1',
    ),
  );
  anc.addCommand(
    examples(
      new Command('emd')
        .argument('<booking>', 'booking id or PNR')
        .description('issue EMDs for purchased items')
        .action(action(deps, (ctx, _o, [ref]) => runAncillariesEmd(bookingRef(ref), ctx))),
      'travel ancillaries emd X7KQ2M',
    ),
  );
  anc.addCommand(
    examples(
      new Command('cancel')
        .argument('<booking>', 'booking id or PNR')
        .description('cancel pending ancillaries')
        .option('--id <id...>', 'ancillary ids (default: all pending)')
        .action(
          action(deps, (ctx, raw: { id?: string[] }, [ref]) =>
            runAncillariesCancel(
              bookingRef(ref),
              (raw.id ?? []).map((id) => numericId(id, '--id')),
              ctx,
            ),
          ),
        ),
      'travel ancillaries cancel X7KQ2M --id 7',
    ),
  );
  return anc;
}
