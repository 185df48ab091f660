/**
 * API keys as the CLI sees them: never shown whole (only the public prefix the server also lists), and
 * described by the server itself (GET /company/api-keys/current: a key cannot call /auth/me), with the
 * company code and the user code of the user the key acts as (what searches name).
 */
import { type components, unwrap } from '@travel/sdk';
import type { Ctx } from './context.ts';

export type ApiKey = components['schemas']['ApiKey'];

/** The public start of a key: `tk_test_` / `tk_live_` and 8 characters (the server's `prefix`). */
export function keyPrefix(key: string): string {
  const match = /^(tk_(?:test|live)_[A-Za-z0-9_-]{0,8})/.exec(key);
  return match?.[1] ?? key.slice(0, 8);
}

/** What each run's client learnt of its key (one request per run, however many steps ask). */
const described = new WeakMap<object, ApiKey>();

/** The key this run uses, as the server describes it (401 `api_key_revoked` / `api_key_expired` if dead). */
export async function currentApiKey(ctx: Ctx): Promise<ApiKey> {
  const client = ctx.client();
  const known = described.get(client);
  if (known) return known;
  const key = await unwrap(client.raw.GET('/api/v1/company/api-keys/current', {}));
  described.set(client, key);
  return key;
}
