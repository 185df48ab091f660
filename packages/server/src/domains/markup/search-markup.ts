/**
 * The markup the search engine applies to flight offers, as the engine's `MarkupSource`: the rules are
 * loaded once per search (platform-wide and the caller's company's), then priced per offer. The
 * composition root hands this to the engine, so `search/` never imports this domain.
 */
import type { Db } from '../../storage/schema.ts';
import { applyMarkup } from './engine.ts';
import { loadMarkupRules } from './markup-store.ts';

type SearchMarkupQuery = Parameters<typeof applyMarkup>[1];

export function searchMarkup(
  db: Db,
): (companyId: number | null) => Promise<(q: SearchMarkupQuery) => number> {
  return async (companyId) => {
    const rules = await loadMarkupRules(db, companyId);
    return (q) => applyMarkup(rules, q).markup_minor;
  };
}
