/**
 * Verifying the service's webhooks (contracts.md §8): `Travel-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256(secret, t + "." + raw body)>`, with one `v1` per live secret (two while a rolled secret's
 * overlap lasts). Web Crypto only, so it runs on Node, Bun, Deno and edge runtimes alike.
 */
import type { components } from '@travel/contract';

/** An event as the feed lists it and webhooks deliver it. */
export type TravelEvent = components['schemas']['Event'];

/** The signature is missing, malformed, stale, or made with another secret (or over another body). */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

export interface ConstructEventOptions {
  /** Seconds a timestamp may be away from now (default 300, the service's promise). */
  toleranceSeconds?: number;
  /** Now, in ms (tests); default `Date.now()`. */
  now?: number;
}

const encoder = new TextEncoder();

async function hmacHex(secret: string, payload: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(payload)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Compares in time that depends only on the length (which is public: 64 hex digits). */
function equalConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks a delivery's `Travel-Signature` against your endpoint's secret and returns the event. Pass the
 * raw body exactly as received (not re-serialized JSON).
 *
 * @example
 * ```ts
 * import { webhooks } from '@travel/sdk';
 * app.post('/hooks', express.raw({ type: 'application/json' }), async (req, res) => {
 *   const event = await webhooks.constructEvent(req.body.toString('utf8'), req.get('travel-signature'), secret);
 *   if (event.type === 'booking.pending_settled') console.log(event.data.status);
 *   res.sendStatus(200);
 * });
 * ```
 */
async function constructEvent(
  rawBody: string,
  signatureHeader: string | null | undefined,
  secret: string,
  options: ConstructEventOptions = {},
): Promise<TravelEvent> {
  if (!signatureHeader) throw new WebhookSignatureError('No Travel-Signature header.');
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of signatureHeader.split(',')) {
    const [k, v] = [part.slice(0, part.indexOf('=')).trim(), part.slice(part.indexOf('=') + 1).trim()];
    if (k === 't') t = v;
    else if (k === 'v1' && v) v1.push(v.toLowerCase());
  }
  if (!t || !/^\d+$/.test(t) || v1.length === 0)
    throw new WebhookSignatureError('The Travel-Signature header is malformed.');
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(now - Number(t)) > tolerance)
    throw new WebhookSignatureError(`The signature timestamp is more than ${tolerance} s away.`);
  const expected = await hmacHex(secret, `${t}.${rawBody}`);
  // Every candidate is compared (no early exit): which one matched is not timed either.
  let ok = false;
  for (const candidate of v1) ok = equalConstantTime(candidate, expected) || ok;
  if (!ok) throw new WebhookSignatureError('No signature matches the secret and the body.');
  try {
    return JSON.parse(rawBody) as TravelEvent;
  } catch {
    throw new WebhookSignatureError('The body is not JSON.');
  }
}

/** Webhook helpers. */
export const webhooks = { constructEvent };
