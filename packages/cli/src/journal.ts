/**
 * The booking journal: which Idempotency-Key `travel book` used for which request. Re-running the same
 * command after a crash or a CI retry sends the same key, so the server answers with the first booking
 * instead of making a second one.
 *
 * The journal key is the hash of the profile and the whole request body, hashed the way the server
 * compares requests (object keys sorted, arrays in order): a re-run that changes anything the server
 * sees (a passport's expiry, the contact, the payment mode) is another request and gets a fresh key,
 * where re-sending the old one would be refused with `idempotency_key_reused`.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ConfigStore, JournalEntry } from './config.ts';

/** JSON with object keys sorted (undefined members left out), as the server's request hash reads a body. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function journalKey(input: { profile: string; body: unknown }): string {
  return createHash('sha256')
    .update(canonical([input.profile, input.body]))
    .digest('hex');
}

export interface KeyChoice {
  idempotencyKey: string;
  /** `explicit` (flag/env), `journal` (replaying an earlier run) or `new`. */
  source: 'explicit' | 'journal' | 'new';
  previous: JournalEntry | undefined;
}

export function chooseIdempotencyKey(
  journal: Pick<ConfigStore, 'getJournal'>,
  key: string,
  options: { explicit: string | undefined; fresh: boolean },
  newKey: () => string = randomUUID,
): KeyChoice {
  const previous = journal.getJournal(key);
  if (options.explicit) return { idempotencyKey: options.explicit, source: 'explicit', previous };
  if (previous && !options.fresh)
    return { idempotencyKey: previous.idempotencyKey, source: 'journal', previous };
  return { idempotencyKey: newKey(), source: 'new', previous };
}

/** What re-sending a journalled key will do, in words that match what the journal knows. */
export function replayNotice(choice: KeyChoice): string {
  const p = choice.previous;
  const head = `Re-sending idempotency key ${choice.idempotencyKey} of ${p?.createdAt ?? 'an earlier run'} (the same request)`;
  if (p?.bookingId !== undefined)
    return `${head}: the server answers with booking ${p.bookingId}${p.pnr ? ` (PNR ${p.pnr})` : ''} again instead of booking twice. --new books again.`;
  return `${head}: that run got no answer. If it reached the server, the server answers with what it booked then; if not, this books now. --new ignores it.`;
}
