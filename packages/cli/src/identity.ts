/**
 * Searches must name the caller's own company and user code (403 otherwise). They are stored at login; for
 * TRAVEL_TOKEN runs they are looked up once with /auth/me. An API key cannot call /auth/me: its company
 * code comes from /company/profile and its user (the key's creator) from /company/api-keys/current, whose
 * `created_by` is the creator's id, which the server accepts only when the creator has no user code:
 * otherwise pass --user-code / TRAVEL_USER_CODE (or `travel config set user_code`).
 */
import { companyCodeOfKey, currentApiKey } from './api-key.ts';
import type { Ctx } from './context.ts';
import { UsageError } from './errors.ts';

export interface AgentCodes {
  companyCode: string;
  userCode: string;
}

export async function resolveAgentCodes(
  ctx: Ctx,
  flags: { companyCode?: string | undefined; userCode?: string | undefined },
  options: { ignoreProfile?: boolean } = {},
): Promise<AgentCodes> {
  const profile = options.ignoreProfile ? {} : ctx.profile();
  let companyCode = flags.companyCode ?? ctx.env.TRAVEL_COMPANY_CODE ?? profile.company_code;
  let userCode = flags.userCode ?? ctx.env.TRAVEL_USER_CODE ?? profile.user_code;
  if ((!companyCode || !userCode) && ctx.credential().kind === 'api_key') {
    companyCode ??= await companyCodeOfKey(ctx);
    userCode ??= (await currentApiKey(ctx)).created_by;
  } else if (!companyCode || !userCode) {
    const me = await ctx.client().auth.me();
    companyCode ??= me.company_code ?? undefined;
    userCode ??= me.user_code ?? undefined;
  }
  if (!companyCode) throw new UsageError('no company code for this account: pass --company-code');
  if (!userCode) throw new UsageError('no user code for this account: pass --user-code');
  return { companyCode, userCode };
}
