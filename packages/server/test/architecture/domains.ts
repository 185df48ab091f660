/**
 * The rules between domain folders (docs/architecture.md, "Domains"): surfaces never import each other,
 * sub-aggregates never import each other, no domain imports a higher one, cross-domain pairs are
 * allow-listed, no folder cycles, and other folders reach an aggregate through its `index.ts` only.
 */
import type { Edge } from './imports.ts';
import { DOMAINS } from './layers.ts';

/** `domains/<name>` for a domain file, else the first path segment (`kernel`, `app.ts`, …). */
export const area = (p: string): string => {
  const [a, b] = p.split('/');
  return a === 'domains' && b !== undefined ? `domains/${b}` : (a ?? p);
};

/** The three surfaces: route files and their views over accounts/ and the aggregates; never each other. */
export const SURFACES = ['admin', 'company', 'customer'];
/** Sub-aggregates: folders inside an aggregate that build on its parent's store only, never on each other. */
export const SUB_AGGREGATES = [
  'flight-booking/payment',
  'flight-booking/ticketing',
  'flight-booking/ancillary',
];
/**
 * Domain layers, top down: a domain may import its own layer's allowed pairs or lower layers, never a
 * higher one (surfaces on top, accounts and auth at the bottom).
 */
export const DOMAIN_LAYER: Record<string, number> = {
  admin: 3,
  company: 3,
  customer: 3,
  'flight-booking': 2,
  reservation: 2,
  search: 2,
  markup: 2,
  reference: 2,
  platform: 2,
  accounts: 1,
  auth: 1,
};

/**
 * Domain -> domain imports the cut by aggregate (issue 15) needs. A pair not listed here fails; a listed
 * pair that no longer occurs fails too, so the list only shrinks.
 */
export const CROSS_DOMAIN_ALLOWED: Record<string, string> = {
  // surfaces -> accounts, aggregates and shared modules.
  'admin -> accounts': 'users, companies, their tables, views and paging helpers',
  'company -> accounts': 'the company, its staff, clients and wallet tables; paging helpers',
  'customer -> accounts': 'the customer profile and saved travelers; paging helpers',
  'admin -> flight-booking': 'manual refunds through the payment sub-aggregate; revenue and booking counts',
  'company -> flight-booking': 'company views of flight bookings; revenue',
  'customer -> flight-booking': 'customer views of flight bookings and their payments',
  'admin -> markup': 'markup rules CRUD and calculate on the markup module',
  'company -> markup': 'the company own markup rules through the markup module',
  'admin -> auth': 'the user view',
  'company -> auth': 'staff invitations',
  // aggregates -> accounts.
  'flight-booking -> accounts': 'saved travelers as passengers; paging helpers',
  'markup -> accounts': 'paging helpers of the rules list',
  'accounts -> auth': 'the user view',
  // shared modules.
  'search -> reference': 'airport and city lookup for search validation',
};

/**
 * Folder cycles that exist today and are owned elsewhere; the cycle check fails on any other, and on a
 * listed one that is gone.
 */
export const CYCLES_PENDING: Record<string, string> = {};

/** The domain folder of a file, with sub-aggregates as their own unit (`flight-booking/payment`). */
export const unit = (p: string): string => {
  const [a, b, c] = p.split('/');
  if (a !== 'domains' || b === undefined) return a ?? p;
  const sub = `${b}/${c}`;
  return SUB_AGGREGATES.includes(sub) ? sub : b;
};

export function domainRuleViolations(edges: Edge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    if (!e.from.startsWith(DOMAINS) || !e.to.startsWith(DOMAINS)) continue;
    const a = unit(e.from);
    const b = unit(e.to);
    if (a === b) continue;
    if (SURFACES.includes(a) && SURFACES.includes(b))
      out.push(`${e.from} -> ${e.to}: surfaces never import each other`);
    if (SUB_AGGREGATES.includes(a) && SUB_AGGREGATES.includes(b))
      out.push(
        `${e.from} -> ${e.to}: sub-aggregates never import each other (inject a callback from the parent)`,
      );
    const top = (u: string) => u.split('/')[0] ?? u;
    const la = DOMAIN_LAYER[top(a)];
    const lb = DOMAIN_LAYER[top(b)];
    if (la === undefined || lb === undefined) out.push(`${e.from} -> ${e.to}: a domain folder with no layer`);
    else if (lb > la) out.push(`${e.from} -> ${e.to}: an upward import (${top(a)} sits below ${top(b)})`);
  }
  return out;
}

/** Every elementary cycle of the domain-folder graph, as `a -> b -> a` from its smallest folder. */
export function folderCycles(pairs: Iterable<string>): string[] {
  const next = new Map<string, Set<string>>();
  for (const k of pairs) {
    const [a, b] = k.split(' -> ') as [string, string];
    next.set(a, (next.get(a) ?? new Set()).add(b));
  }
  const found = new Set<string>();
  const walk = (start: string, at: string, path: string[]) => {
    for (const n of next.get(at) ?? []) {
      if (n === start) found.add([...path, start].join(' -> '));
      else if (n > start && !path.includes(n)) walk(start, n, [...path, n]);
    }
  };
  for (const s of [...next.keys()].sort()) walk(s, s, [s]);
  return [...found].sort();
}

export function crossDomainPairs(edges: Edge[]): Map<string, string[]> {
  const pairs = new Map<string, string[]>();
  for (const e of edges) {
    const a = area(e.from);
    const b = area(e.to);
    if (!a.startsWith(DOMAINS) || !b.startsWith(DOMAINS) || a === b) continue;
    const key = `${a.slice(DOMAINS.length)} -> ${b.slice(DOMAINS.length)}`;
    pairs.set(key, [...(pairs.get(key) ?? []), `${e.from} -> ${e.to}`]);
  }
  return pairs;
}

/** The aggregates under domains/: each exposes an `index.ts`, the only file other folders import. */
export const AGGREGATES = [
  'accounts',
  'auth',
  'events',
  'flight-booking',
  'markup',
  'platform',
  'reference',
  'reservation',
  'search',
];

/** The folder of the aggregate a path lies in (`domains/flight-booking/`), if any. */
const aggregateOf = (p: string): string | undefined => {
  const [a, b] = p.split('/');
  return a === 'domains' && b !== undefined && AGGREGATES.includes(b) ? `domains/${b}/` : undefined;
};

/** The entry points of an aggregate: its index.ts and its sub-aggregates' (`flight-booking/payment/index.ts`). */
const isEntry = (agg: string, to: string): boolean =>
  to === `${agg}index.ts` || SUB_AGGREGATES.some((s) => to === `${DOMAINS}${s}/index.ts`);

/** `importer -> aggregate` for each import from outside an aggregate into a file that is not an entry point. */
export function indexBypasses(edges: Edge[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of edges) {
    const agg = aggregateOf(e.to);
    if (agg === undefined || e.from.startsWith(agg) || isEntry(agg, e.to)) continue;
    const key = `${area(e.from).replace(DOMAINS, '')} -> ${agg.slice(DOMAINS.length, -1)}`;
    out.set(key, [...(out.get(key) ?? []), `${e.from} -> ${e.to}`]);
  }
  return out;
}

/**
 * `importer -> aggregate` pairs that still import an aggregate's files directly; shrink-only (a pair not
 * listed fails, and so does a listed pair that no longer occurs).
 */
export const INDEX_BYPASS_PENDING: Record<string, string> = {};
