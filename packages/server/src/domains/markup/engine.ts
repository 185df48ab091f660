/**
 * Markup rules engine: pure, synchronous, integer minor units. Used on every offer at fan-out time and by
 * the admin "calculate" preview, so both always agree.
 *
 * How rules combine (docs/decisions/0002-markup-rules.md has the reasoning):
 * 1. Candidates: active rules that are platform-wide (`company_id` null) or belong to the caller's
 *    company. Another company's rules never apply.
 * 2. Filters: each non-null filter (origin, destination, cabin_class, airline, gds_provider) must equal the
 *    context value, case-insensitively; a null filter matches anything; a filter set on the rule but
 *    missing from the context does not match. `min_fare`/`max_fare` bound the base fare in major units of
 *    the context currency, inclusive.
 * 3. Currency: fixed, per_pax and per_segment amounts are in the rule's currency (null = the context's).
 *    No conversion happens here: a rule in another currency is skipped. Percentages are unit-free and apply
 *    whatever the rule's currency.
 * 4. Selection: per scope (platform, company) the matching rule with the highest `priority` wins; ties go to
 *    the more specific rule (more non-null filters), then to the lowest id, so the result is deterministic.
 * 5. Application: the platform rule first, on the base fare; then the company (agency) rule on the price
 *    after platform markup, as the agency sells on top of what it buys from the platform. Each rule's
 *    markup is rounded to minor units (half away from zero) on its own; per_pax / per_segment round the unit
 *    amount once and multiply.
 * 6. Negative amounts (discounts) are allowed, but the total never takes the price below zero.
 */

import { exponent, fromMinor, toMinor, toPayable } from '../../internal/money.ts';

export type RuleType = 'fixed' | 'percentage' | 'per_pax' | 'per_segment';

export interface MarkupRule {
  id: number | string;
  /** null = platform-wide */
  company_id: number | null;
  rule_type: RuleType;
  /** Major units in the rule's currency for fixed/per_pax/per_segment; percent for percentage. */
  amount: number;
  currency: string | null;
  origin: string | null;
  destination: string | null;
  cabin_class: string | null;
  airline: string | null;
  gds_provider: string | null;
  /** Base fare bounds in major units, inclusive. */
  min_fare: number | null;
  max_fare: number | null;
  priority: number;
  is_active: boolean;
}

export interface MarkupContext {
  company_id: number | null;
  base_total_minor: number;
  currency: string;
  origin?: string | null;
  destination?: string | null;
  cabin_class?: string | null;
  airline?: string | null;
  gds_provider?: string | null;
  pax_count: number;
  segment_count: number;
}

export interface MarkupBreakdownItem {
  rule_id: number | string;
  scope: 'platform' | 'company';
  rule_type: RuleType;
  amount: number;
  /** The price this rule was applied to (base, or base + platform markup). */
  basis_minor: number;
  markup_minor: number;
}

export interface MarkupResult {
  markup_minor: number;
  applied_rule_ids: (number | string)[];
  breakdown: MarkupBreakdownItem[];
}

const FILTERS = ['origin', 'destination', 'cabin_class', 'airline', 'gds_provider'] as const;

function specificity(r: MarkupRule): number {
  let n = 0;
  for (const f of FILTERS) if (r[f] !== null && r[f] !== undefined) n++;
  if (r.min_fare !== null && r.min_fare !== undefined) n++;
  if (r.max_fare !== null && r.max_fare !== undefined) n++;
  return n;
}

export function ruleMatches(r: MarkupRule, ctx: MarkupContext): boolean {
  if (!r.is_active) return false;
  if (r.company_id !== null && r.company_id !== ctx.company_id) return false;
  for (const f of FILTERS) {
    const want = r[f];
    if (want === null || want === undefined || want === '') continue;
    const have = ctx[f];
    if (have === null || have === undefined || have.toUpperCase() !== want.toUpperCase()) return false;
  }
  const base = fromMinor(ctx.base_total_minor, ctx.currency);
  if (r.min_fare !== null && r.min_fare !== undefined && base < r.min_fare) return false;
  if (r.max_fare !== null && r.max_fare !== undefined && base > r.max_fare) return false;
  if (r.rule_type !== 'percentage' && r.currency && r.currency.toUpperCase() !== ctx.currency.toUpperCase()) {
    return false;
  }
  return true;
}

function compareIds(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** The winning rule of one scope: priority, then specificity, then lowest id. */
function pick(rules: MarkupRule[]): MarkupRule | null {
  let best: MarkupRule | null = null;
  for (const r of rules) {
    if (
      best === null ||
      r.priority > best.priority ||
      (r.priority === best.priority &&
        (specificity(r) > specificity(best) ||
          (specificity(r) === specificity(best) && compareIds(r.id, best.id) < 0)))
    ) {
      best = r;
    }
  }
  return best;
}

/**
 * Markup of one rule on `basisMinor`, in minor units of the context currency (its ISO 4217 exponent from
 * the contract's table), rounded to the currency's payable step (10 fils for KWD, BHD, OMR), so a price
 * marked up stays one the payment provider accepts.
 */
export function ruleMarkupMinor(r: MarkupRule, basisMinor: number, ctx: MarkupContext): number {
  const unit = () => toPayable(toMinor(r.amount, ctx.currency), ctx.currency);
  switch (r.rule_type) {
    case 'percentage':
      // Rounded once, from the exact percentage, straight to the payable step.
      return toPayable((basisMinor * r.amount) / 100, ctx.currency);
    case 'fixed':
      return unit();
    case 'per_pax':
      return unit() * Math.max(0, ctx.pax_count);
    case 'per_segment':
      return unit() * Math.max(0, ctx.segment_count);
  }
}

export function applyMarkup(rules: readonly MarkupRule[], ctx: MarkupContext): MarkupResult {
  exponent(ctx.currency); // fail fast on an unsupported currency
  const matching = rules.filter((r) => ruleMatches(r, ctx));
  const platform = pick(matching.filter((r) => r.company_id === null));
  const company = pick(matching.filter((r) => r.company_id !== null));
  const breakdown: MarkupBreakdownItem[] = [];
  let price = ctx.base_total_minor;
  for (const [scope, rule] of [
    ['platform', platform],
    ['company', company],
  ] as const) {
    if (!rule) continue;
    let m = ruleMarkupMinor(rule, price, ctx);
    // A discount may not push the price below zero.
    if (price + m < 0) m = -price;
    breakdown.push({
      rule_id: rule.id,
      scope,
      rule_type: rule.rule_type,
      amount: rule.amount,
      basis_minor: price,
      markup_minor: m,
    });
    price += m;
  }
  return {
    markup_minor: price - ctx.base_total_minor,
    applied_rule_ids: breakdown.map((b) => b.rule_id),
    breakdown,
  };
}
