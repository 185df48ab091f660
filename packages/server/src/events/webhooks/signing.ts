/**
 * Webhook signatures (contracts.md §8): `Travel-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
 * t + "." + raw body)>`, one `v1` per live secret (two while a rolled secret's overlap lasts).
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'Travel-Signature';

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

export function sign(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

/** The header value for `body` sent at `t` (unix seconds), signed with every secret given. */
export function signatureHeader(secrets: readonly string[], t: number, body: string): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${sign(s, t, body)}`)].join(',');
}
