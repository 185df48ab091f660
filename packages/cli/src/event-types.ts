/**
 * `--events` / `--type`: a comma-separated list of event types, where `booking.*` stands for every type of
 * that kind and `*` for all. Checked against the contract's list here, so a typo is a usage error (exit 2)
 * naming the types there are, before any request.
 */
import { EVENT_TYPES } from '@travel/contract/enums';
import { UsageError } from './errors.ts';

export type EventTypeName = (typeof EVENT_TYPES)[number];

/** The types `raw` names, in the contract's order; undefined when `raw` is absent or `*` (every type). */
export function parseEventTypes(raw: string | undefined, flag: string): EventTypeName[] | undefined {
  if (raw === undefined) return undefined;
  const words = raw
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  if (words.length === 0) throw new UsageError(`${flag} needs at least one event type, e.g. booking.*`);
  if (words.includes('*')) return undefined;
  const chosen = new Set<EventTypeName>();
  for (const word of words) {
    const matches = word.endsWith('.*')
      ? EVENT_TYPES.filter((t) => t.startsWith(word.slice(0, -1)))
      : EVENT_TYPES.filter((t) => t === word);
    if (matches.length === 0) {
      const kinds = [...new Set(EVENT_TYPES.map((t) => `${t.split('.')[0]}.*`))].join(', ');
      throw new UsageError(
        `${flag}: no event type "${word}" (kinds: ${kinds}; \`travel events types\` lists every type)`,
      );
    }
    for (const m of matches) chosen.add(m);
  }
  return EVENT_TYPES.filter((t) => chosen.has(t));
}

export const ALL_EVENT_TYPES: readonly EventTypeName[] = EVENT_TYPES;
