/**
 * Searches must name the caller's own company and user code (403 otherwise). They are stored at login; for
 * TRAVEL_TOKEN runs they are looked up once with /auth/me. An API key cannot call /auth/me: it describes
 * itself (GET /company/api-keys/current) with its company's code and the user code of the user it acts as
 * (its creator); a creator without a user code is named by id (`created_by`), which the server accepts.
 * --company-code / --user-code, TRAVEL_COMPANY_CODE / TRAVEL_USER_CODE override all of these.
 */
import { currentApiKey } from './api-key.ts';
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
  // An empty value (TRAVEL_USER_CODE= in a CI file) counts as unset.
  let companyCode = flags.companyCode || ctx.env.TRAVEL_COMPANY_CODE || profile.company_code || undefined;
  let userCode = flags.userCode || ctx.env.TRAVEL_USER_CODE || profile.user_code || undefined;
  if ((!companyCode || !userCode) && ctx.credential().kind === 'api_key') {
    const key = await currentApiKey(ctx);
    companyCode ??= key.company_code;
    userCode ??= key.user_code ?? key.created_by;
  } else if (!companyCode || !userCode) {
    const me = await ctx.client().auth.me();
    companyCode ??= me.company_code ?? undefined;
    userCode ??= me.user_code ?? undefined;
  }
  if (!companyCode) throw new UsageError('no company code for this account: pass --company-code');
  if (!userCode) throw new UsageError('no user code for this account: pass --user-code');
  return { companyCode, userCode };
}
