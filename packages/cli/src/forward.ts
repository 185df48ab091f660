/**
 * `travel listen --forward-to`: each event POSTed to a local URL exactly as a webhook delivery is sent —
 * the same JSON body, `Travel-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>` and
 * `Travel-Event-Id` — signed with the profile's listen secret, so a handler that verifies deliveries with
 * the SDK's `webhooks.constructEvent(rawBody, header, secret)` accepts it unchanged.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { UsageError } from './errors.ts';

/** A secret in the form the server gives endpoints (`whsec_` + 24 random bytes). */
export const newListenSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

/** The `Travel-Signature` value for `body` sent at `t` (unix seconds). */
export function signatureHeader(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** `--forward-to`: an http(s) URL (a bare `localhost:3000/hooks` gets `http://`). */
export function parseForwardUrl(raw: string | undefined): URL | undefined {
  if (raw === undefined) return undefined;
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--forward-to must be a URL like http://localhost:3000/hooks, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--forward-to must be an http:// or https:// URL, got "${raw}"`);
  return url;
}

export interface Forwarded {
  /** The endpoint's HTTP status; undefined when it could not be reached. */
  status: number | undefined;
  error: string | undefined;
  ms: number;
}

const TIMEOUT_MS = 10_000;

/** One POST, as a delivery: no redirect followed, 10 s timeout, the answer read and dropped. */
export async function forwardEvent(
  url: URL,
  event: { id: string },
  secret: string,
  options: { now: () => Date; userAgent: string },
): Promise<Forwarded> {
  const body = JSON.stringify(event);
  const started = Date.now();
  const t = Math.floor(options.now().getTime() / 1000);
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'user-agent': options.userAgent,
        'travel-signature': signatureHeader(secret, t, body),
        'travel-event-id': event.id,
      },
    });
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status, error: undefined, ms: Date.now() - started };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : (cause?.code ?? cause?.message ?? (error as Error).message);
    return { status: undefined, error: reason, ms: Date.now() - started };
  }
}
