/** `travel whoami`: who the stored (or TRAVEL_TOKEN) credentials belong to. */
import { Command } from 'commander';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';

export async function runWhoami(ctx: Ctx): Promise<void> {
  requireToken(ctx);
  const user = await ctx.client().auth.me();
  output(ctx, { profile: ctx.profileName, base_url: ctx.baseUrl, user }, () => {
    ctx.io.out(`${user.email} (${user.role})`);
    ctx.io.out(`company: ${user.company_code ?? '-'}  user code: ${user.user_code ?? '-'}`);
    ctx.io.out(`profile: ${ctx.profileName}  server: ${ctx.baseUrl}`);
  });
}

export function whoamiCommand(deps: Deps): Command {
  return examples(
    new Command('whoami')
      .description('show the logged-in user')
      .action(action(deps, (ctx) => runWhoami(ctx))),
    'travel whoami',
    'TRAVEL_TOKEN=… TRAVEL_BASE_URL=https://sandbox.travel.example travel whoami --json',
  );
}
