/**
 * Idempotency keys at the payment provider are unique per installation: `i<16 hex of the installation
 * id>:<our key>`, so two databases on one Stripe account never meet on `bk1:cancel:void` (Stripe replays a
 * key's first answer for 24 h, whatever the PaymentIntent). An operation written before the installation
 * existed (a database upgraded while it was in flight) keeps the key it was first sent with, so the
 * provider still recognises it. Without an installation (unit tests building deps by hand) keys are bare.
 */
import type { BookingDeps } from '../deps.ts';

export function pspKey(d: Pick<BookingDeps, 'installation'>, key: string, writtenAt?: Date): string {
  const inst = d.installation;
  if (!inst) return key;
  if (writtenAt && writtenAt.getTime() < inst.since.getTime()) return key;
  return `i${inst.id.slice(0, 16)}:${key}`;
}
