/** `travel logout`: revokes the refresh token on the server (best effort) and forgets the credentials. */
import { Command } from 'commander';
import { action, examples, output } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';

export async function runLogout(ctx: Ctx): Promise<void> {
  const refresh = ctx.profile().refresh_token;
  let revoked = false;
  if (refresh) {
    // The SDK's auth.logout() only forgets the token locally; the server-side revoke goes through raw.
    const result = await ctx.client().raw.POST('/api/v1/auth/logout', { body: { refresh_token: refresh } });
    revoked = result.response.ok;
  }
  ctx.config.clearCredentials(ctx.profileName);
  output(ctx, { profile: ctx.profileName, logged_out: true, revoked }, () =>
    ctx.io.err(`Logged out of profile "${ctx.profileName}"${revoked ? ' (session revoked)' : ''}.`),
  );
}

export function logoutCommand(deps: Deps): Command {
  return examples(
    new Command('logout')
      .description('forget the stored credentials of the profile')
      .action(action(deps, (ctx) => runLogout(ctx))),
    'travel logout',
    'travel --profile staging logout',
  );
}
