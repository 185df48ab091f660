/**
 * The booking journal: which Idempotency-Key `travel book` used for which (profile, offer, passengers,
 * reference). Re-running the same command after a crash or a CI retry sends the same key, so the server
 * replays the first booking instead of making a second one.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ConfigStore, JournalEntry } from './config.ts';
import type { Passenger } from './passengers.ts';

export function journalKey(input: {
  profile: string;
  offerId: string;
  currency: string;
  passengers: Passenger[];
  reference: string | undefined;
}): string {
  // Names and dates identify the people; order does not matter to whether it is "the same booking".
  const people = input.passengers
    .map(
      (p) =>
        `${p.type}|${(p.first_name ?? '').toUpperCase()}|${(p.last_name ?? '').toUpperCase()}|${p.traveler_id ?? ''}|${p.date_of_birth}`,
    )
    .sort();
  // The currency is part of the request: a re-run that corrects it is another request, not a replay.
  const canonical = JSON.stringify([
    input.profile,
    input.offerId,
    input.currency,
    people,
    input.reference ?? '',
  ]);
  return createHash('sha256').update(canonical).digest('hex');
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
