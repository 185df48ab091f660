import { describe, expect, it } from 'vitest';
import { applyMarkup, type MarkupContext, type MarkupRule } from './engine.ts';

const rule = (r: Partial<MarkupRule> & Pick<MarkupRule, 'id' | 'rule_type' | 'amount'>): MarkupRule => ({
  company_id: null,
  currency: null,
  origin: null,
  destination: null,
  cabin_class: null,
  airline: null,
  gds_provider: null,
  min_fare: null,
  max_fare: null,
  priority: 0,
  is_active: true,
  ...r,
});

const ctx: MarkupContext = {
  company_id: 7,
  base_total_minor: 10_000, // 100.00 GBP
  currency: 'GBP',
  origin: 'LHR',
  destination: 'DXB',
  cabin_class: 'economy',
  airline: 'EK',
  gds_provider: 'amadeus',
  pax_count: 2,
  segment_count: 3,
};

interface Case {
  name: string;
  rules: MarkupRule[];
  ctx?: Partial<MarkupContext>;
  markup: number;
  applied: (number | string)[];
}

const cases: Case[] = [
  { name: 'no rules', rules: [], markup: 0, applied: [] },
  { name: 'fixed', rules: [rule({ id: 1, rule_type: 'fixed', amount: 5 })], markup: 500, applied: [1] },
  {
    name: 'percentage',
    rules: [rule({ id: 1, rule_type: 'percentage', amount: 2.5 })],
    markup: 250,
    applied: [1],
  },
  {
    name: 'per_pax',
    rules: [rule({ id: 1, rule_type: 'per_pax', amount: 3.33 })],
    markup: 666,
    applied: [1],
  },
  {
    name: 'per_segment',
    rules: [rule({ id: 1, rule_type: 'per_segment', amount: 1 })],
    markup: 300,
    applied: [1],
  },
  {
    name: 'percentage rounds half away from zero',
    rules: [rule({ id: 1, rule_type: 'percentage', amount: 0.005 })],
    markup: 1,
    applied: [1],
  },
  {
    name: '3-decimal currency',
    rules: [rule({ id: 1, rule_type: 'fixed', amount: 1.5, currency: 'BHD' })],
    ctx: { currency: 'BHD', base_total_minor: 50_000 },
    markup: 1500,
    applied: [1],
  },
  {
    name: 'inactive rule ignored',
    rules: [rule({ id: 1, rule_type: 'fixed', amount: 5, is_active: false })],
    markup: 0,
    applied: [],
  },
  {
    name: 'other company rule ignored',
    rules: [rule({ id: 1, rule_type: 'fixed', amount: 5, company_id: 8 })],
    markup: 0,
    applied: [],
  },
  {
    name: 'filters match case-insensitively',
    rules: [
      rule({ id: 1, rule_type: 'fixed', amount: 5, origin: 'lhr', airline: 'ek', gds_provider: 'AMADEUS' }),
    ],
    markup: 500,
    applied: [1],
  },
  {
    name: 'a filter that differs skips the rule',
    rules: [rule({ id: 1, rule_type: 'fixed', amount: 5, destination: 'JFK' })],
    markup: 0,
    applied: [],
  },
  {
    name: 'a filter unknown on the offer skips the rule',
    rules: [rule({ id: 1, rule_type: 'fixed', amount: 5, cabin_class: 'business' })],
    ctx: { cabin_class: null },
    markup: 0,
    applied: [],
  },
  {
    name: 'min/max fare inclusive, in major units',
    rules: [
      rule({ id: 1, rule_type: 'fixed', amount: 1, min_fare: 100, max_fare: 100 }),
      rule({ id: 2, rule_type: 'fixed', amount: 9, min_fare: 100.01, priority: 5 }),
    ],
    markup: 100,
    applied: [1],
  },
  {
    name: 'fixed rule in another currency skipped',
    rules: [rule({ id: 1, rule_type: 'fixed', amount: 5, currency: 'USD' })],
    markup: 0,
    applied: [],
  },
  {
    name: 'percentage rule in another currency applies',
    rules: [rule({ id: 1, rule_type: 'percentage', amount: 10, currency: 'USD' })],
    markup: 1000,
    applied: [1],
  },
  {
    name: 'highest priority wins within a scope',
    rules: [
      rule({ id: 1, rule_type: 'fixed', amount: 5, priority: 1 }),
      rule({ id: 2, rule_type: 'fixed', amount: 7, priority: 3 }),
    ],
    markup: 700,
    applied: [2],
  },
  {
    name: 'priority tie: more specific, then lowest id',
    rules: [
      rule({ id: 3, rule_type: 'fixed', amount: 1 }),
      rule({ id: 2, rule_type: 'fixed', amount: 2, airline: 'EK' }),
      rule({ id: 1, rule_type: 'fixed', amount: 3, origin: 'LHR' }),
    ],
    markup: 300,
    applied: [1],
  },
  {
    name: 'platform then company, company on the marked-up price',
    rules: [
      rule({ id: 1, rule_type: 'fixed', amount: 5 }),
      rule({ id: 2, rule_type: 'percentage', amount: 10, company_id: 7 }),
    ],
    markup: 500 + 1050,
    applied: [1, 2],
  },
  {
    name: 'discount never below zero',
    rules: [rule({ id: 1, rule_type: 'fixed', amount: -150 })],
    markup: -10_000,
    applied: [1],
  },
];

describe('applyMarkup', () => {
  it.each(cases)('$name', (c) => {
    const r = applyMarkup(c.rules, { ...ctx, ...c.ctx });
    expect(r.markup_minor).toBe(c.markup);
    expect(r.applied_rule_ids).toEqual(c.applied);
    expect(r.breakdown.reduce((s, b) => s + b.markup_minor, 0)).toBe(c.markup);
  });

  it('breakdown records scope and basis', () => {
    const r = applyMarkup(
      [
        rule({ id: 'p', rule_type: 'fixed', amount: 5 }),
        rule({ id: 'c', rule_type: 'fixed', amount: 1, company_id: 7 }),
      ],
      ctx,
    );
    expect(r.breakdown).toEqual([
      {
        rule_id: 'p',
        scope: 'platform',
        rule_type: 'fixed',
        amount: 5,
        basis_minor: 10_000,
        markup_minor: 500,
      },
      {
        rule_id: 'c',
        scope: 'company',
        rule_type: 'fixed',
        amount: 1,
        basis_minor: 10_500,
        markup_minor: 100,
      },
    ]);
  });

  it('rejects an unsupported currency', () => {
    expect(() => applyMarkup([], { ...ctx, currency: 'JPY' })).toThrow(RangeError);
  });
});
