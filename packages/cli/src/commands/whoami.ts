/** `travel whoami`: who the stored (or TRAVEL_API_KEY / TRAVEL_TOKEN) credentials belong to. */
import { Command } from 'commander';
import { currentApiKey } from '../api-key.ts';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';

export async function runWhoami(ctx: Ctx): Promise<void> {
  requireToken(ctx);
  if (ctx.credential().kind === 'api_key') {
    // A key may not call /auth/me; it describes itself.
    const key = await currentApiKey(ctx);
    output(ctx, { profile: ctx.profileName, base_url: ctx.baseUrl, api_key: key }, () => {
      ctx.io.out(`API key ${key.prefix}… "${key.name}" (${key.role}, ${key.mode})`);
      ctx.io.out(`company id: ${key.company_id}  acts as user: ${key.created_by}`);
      ctx.io.out(`profile: ${ctx.profileName}  server: ${ctx.baseUrl}`);
    });
    return;
  }
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
      .description('show the logged-in user (or the API key in use)')
      .action(action(deps, (ctx) => runWhoami(ctx))),
    'travel whoami',
    'TRAVEL_TOKEN=… TRAVEL_BASE_URL=https://sandbox.travel.example travel whoami --json',
    'TRAVEL_API_KEY=tk_test_… travel whoami',
  );
}
