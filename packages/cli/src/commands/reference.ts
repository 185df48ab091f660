/** `travel airports <text>` and `travel airlines <text>`: suggestions, no login needed. */
import { Command } from 'commander';
import { action, examples, output } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { requireValue } from '../parse.ts';
import { renderTable } from '../ui/table.ts';

export async function runAirports(text: string, ctx: Ctx) {
  const result = await ctx.client().reference.airports({ query: text });
  output(ctx, result, () => {
    const rows = result.items.map((a) => {
      const r = a as Record<string, unknown>;
      return [
        String(r.iata_code ?? r.code ?? ''),
        String(r.name ?? ''),
        String(r.city ?? r.city_name ?? ''),
        String(r.country ?? r.country_code ?? ''),
      ];
    });
    for (const line of renderTable(['code', 'name', 'city', 'country'], rows)) ctx.io.out(line);
  });
}

export async function runAirlines(text: string, ctx: Ctx) {
  const result = await ctx.client().reference.airlines({ query: text });
  output(ctx, result, () => {
    const rows = result.items.map((a) => {
      const r = a as Record<string, unknown>;
      return [String(r.iata_code ?? r.code ?? ''), String(r.name ?? ''), String(r.country ?? '')];
    });
    for (const line of renderTable(['code', 'name', 'country'], rows)) ctx.io.out(line);
  });
}

export function airportsCommand(deps: Deps): Command {
  return examples(
    new Command('airports')
      .argument('<text>', 'name, city or code')
      .description('find airports')
      .action(action(deps, (ctx, _o, [text]) => runAirports(requireValue(text, '<text>'), ctx))),
    'travel airports heathrow',
    'travel airports dubai --json',
  );
}

export function airlinesCommand(deps: Deps): Command {
  return examples(
    new Command('airlines')
      .argument('<text>', 'name or code')
      .description('find airlines')
      .action(action(deps, (ctx, _o, [text]) => runAirlines(requireValue(text, '<text>'), ctx))),
    'travel airlines emirates',
  );
}
