/** `travel logout`: ends the session on the server (best effort) and forgets the stored credentials. */
import { Command } from 'commander';
import { keyPrefix } from '../api-key.ts';
import { action, examples, output } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';

export async function runLogout(ctx: Ctx): Promise<void> {
  const profile = ctx.profile();
  const refresh = profile.refresh_token;
  let revoked = false;
  if (refresh) {
    // The SDK's auth.logout() only forgets the token locally; the server-side revoke goes through raw.
    // No credentials on this call: logout needs none, and a stale access token must not trigger a refresh.
    const result = await ctx
      .sdk({ baseUrl: ctx.baseUrl })
      .raw.POST('/api/v1/auth/logout', { body: { refresh_token: refresh } });
    revoked = result.response.ok;
  }
  ctx.config.clearCredentials(ctx.profileName);
  ctx.config.updateProfile(ctx.profileName, { session_ended_at: undefined });
  const key = profile.api_key ? keyPrefix(profile.api_key) : undefined;
  output(
    ctx,
    { profile: ctx.profileName, logged_out: true, revoked, ...(key ? { forgot_api_key: key } : {}) },
    () => {
      ctx.io.err(`Logged out of profile "${ctx.profileName}"${revoked ? ' (session revoked)' : ''}.`);
      if (key)
        ctx.io.err(
          `Forgot API key ${key}…; it stays valid on the server until revoked (travel api-keys revoke).`,
        );
    },
  );
}

export function logoutCommand(deps: Deps): Command {
  return examples(
    new Command('logout')
      .description('end the session on the server and forget the stored credentials of the profile')
      .action(action(deps, (ctx) => runLogout(ctx))),
    'travel logout',
    'travel --profile staging logout',
  );
}
