/**
 * The import rules of docs/architecture.md, checked on the source's import statements (static, re-export
 * and dynamic `import('…')` specifiers), plus the navigation rules: every operationId is a literal key
 * in a server file, and every route file's header table names its paths as the contract does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

interface Edge {
  /** Importing file, relative to packages/server/src (e.g. `search/engine.ts`). */
  from: string;
  /** Imported file, relative to packages/server/src (may start with `..` outside it). */
  to: string;
}

/** Relative imports of every source file (package imports are not part of the layering). */
function importEdges(files: { path: string; text: string }[]): Edge[] {
  const out: Edge[] = [];
  for (const f of files) {
    for (const m of f.text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? '';
      if (!spec.startsWith('.')) continue;
      out.push({ from: f.path, to: normalize(join(dirname(f.path), spec)).replaceAll('\\', '/') });
    }
  }
  return out;
}

/** `domains/<name>` for a domain file, else the first path segment (`kernel`, `app.ts`, …). */
const area = (p: string): string => {
  const [a, b] = p.split('/');
  return a === 'domains' && b !== undefined ? `domains/${b}` : (a ?? p);
};

const COMPOSITION = ['app.ts', 'runtime.ts', 'main.ts', 'testing.ts'];
const DOMAINS = 'domains/';

/** Layer rules: files of `layer` may not import anything under `forbidden` (path prefixes). */
const LAYER_RULES: { layer: string; forbidden: string[]; why: string }[] = [
  {
    layer: 'internal/',
    forbidden: ['kernel/', DOMAINS, 'search/', 'suppliers/', ...COMPOSITION],
    why: 'the ground floor (ids, money, clock, config, tokens) knows no HTTP and no domain',
  },
  {
    layer: 'storage/',
    forbidden: [DOMAINS, 'search/', 'suppliers/', ...COMPOSITION],
    why: 'the database layer knows no domain',
  },
  {
    layer: 'kernel/',
    forbidden: [DOMAINS, 'search/', 'suppliers/', ...COMPOSITION],
    why: 'the kernel knows HTTP, no domain, engine or supplier',
  },
  {
    layer: 'suppliers/',
    forbidden: ['search/', DOMAINS, ...COMPOSITION],
    why: 'the ports and adapters do not know the engine that calls them',
  },
  {
    layer: 'search/',
    forbidden: [DOMAINS, ...COMPOSITION],
    why: 'the engine gets what it needs of a domain (markup) injected',
  },
  {
    layer: DOMAINS,
    forbidden: COMPOSITION,
    why: 'a domain is handed its deps; it does not import the composition root',
  },
];

/**
 * Domain -> domain imports that exist today and are allowed until the re-cut into aggregates (issue 15:
 * accounts/, flight-booking/ with payment/ ticketing/ ancillary/ inside, reservation/) removes them. A
 * pair not listed here fails; a listed pair that no longer occurs fails too, so the list only shrinks.
 */
const CROSS_DOMAIN_ALLOWED: Record<string, string> = {
  // accounts: admin/ holds the users, companies and their tables that company/ and customer/ build on.
  'company -> admin': 'accounts module hidden in admin/ (tables, deps, http helpers, revenue, companies)',
  'customer -> admin': 'accounts module hidden in admin/ (tables, deps, http helpers, users, payments)',
  'admin -> company': 'the company view of the accounts module',
  'admin -> auth': 'the user view',
  'company -> auth': 'staff invitations',
  // reservation: the one engine for hotel and transport bookings.
  'booking -> reservation': 'supplier error mapping (reservation/supplier-errors.ts)',
  'reservation -> booking': 'the booking call window shared with flight bookings',
  // flight booking: one aggregate in four folders that import each other.
  'booking -> payment': 'flight-booking aggregate (cycle)',
  'booking -> ticketing': 'flight-booking aggregate (cycle)',
  'booking -> ancillary': 'flight-booking aggregate (cycle)',
  'payment -> booking': 'flight-booking aggregate (cycle)',
  'ticketing -> booking': 'flight-booking aggregate (cycle)',
  'ticketing -> payment': 'flight-booking aggregate (cycle)',
  'ticketing -> ancillary': 'flight-booking aggregate (cycle)',
  'ancillary -> booking': 'flight-booking aggregate (cycle)',
  'ancillary -> payment': 'flight-booking aggregate (cycle)',
  // surfaces reading the flight-booking aggregate.
  'admin -> booking': 'admin views of flight bookings and their suppliers',
  'admin -> payment': 'manual refunds and settlement through the payment store',
  'company -> booking': 'company views of flight bookings',
  'customer -> booking': 'customer views of flight bookings',
  'booking -> customer': 'saved travelers as passengers',
  // shared modules.
  'admin -> markup': 'markup rules CRUD and calculate on the markup module',
  'search -> reference': 'airport and city lookup for search validation',
  'search -> reservation': 'transport search input validation (reservation/transport/search-input.ts)',
  'reservation -> search': 'location parsing of the search routes',
};

function layerViolations(edges: Edge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    for (const r of LAYER_RULES) {
      if (!e.from.startsWith(r.layer)) continue;
      const hit = r.forbidden.find((f) => e.to === f || (f.endsWith('/') && e.to.startsWith(f)));
      if (hit) out.push(`${e.from} imports ${e.to} (${r.layer} may not import ${hit}: ${r.why})`);
    }
  }
  return out;
}

function crossDomainPairs(edges: Edge[]): Map<string, string[]> {
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

const files = sourceFiles(SRC).map((p) => ({
  path: relative(SRC, p).replaceAll('\\', '/'),
  text: readFileSync(p, 'utf8'),
}));
const edges = importEdges(files);

describe('import graph (docs/architecture.md)', () => {
  it('reads the imports of the source tree', () => {
    // A parser that found nothing would pass every rule below.
    expect(files.length).toBeGreaterThan(200);
    expect(edges).toContainEqual({ from: 'runtime.ts', to: 'app.ts' });
    expect(edges).toContainEqual({ from: 'search/engine.ts', to: 'suppliers/ports.ts' });
  });

  it('no import runs up a layer', () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  it('no domain imports another domain outside the documented allow-list, and the list has no stale entries', () => {
    const pairs = crossDomainPairs(edges);
    const unexpected = [...pairs].filter(([k]) => !(k in CROSS_DOMAIN_ALLOWED)).flatMap(([, v]) => v);
    expect(unexpected).toEqual([]);
    const stale = Object.keys(CROSS_DOMAIN_ALLOWED).filter((k) => !pairs.has(k));
    expect(stale).toEqual([]);
  });

  it('only the composition roots import app.ts and runtime.ts', () => {
    const bad = edges.filter(
      (e) => (e.to === 'app.ts' || e.to === 'runtime.ts') && !COMPOSITION.includes(e.from),
    );
    expect(bad).toEqual([]);
  });

  it('the rules catch what they are meant to catch', () => {
    const probe = importEdges([
      { path: 'search/engine.ts', text: "import { x } from '../domains/markup/engine.ts';" },
      { path: 'suppliers/registry.ts', text: "import type { V } from '../search/tables.ts';" },
      { path: 'domains/admin/deps.ts', text: "import type { S } from '../../app.ts';" },
      { path: 'internal/tokens.ts', text: "import type { Role } from '../kernel/types.ts';" },
      { path: 'kernel/kernel.ts', text: "const m = await import('../suppliers/registry.ts');" },
      { path: 'domains/hotel/book.ts', text: "export { y } from '../payment/service.ts';" },
    ]);
    expect(layerViolations(probe)).toHaveLength(5);
    expect([...crossDomainPairs(probe).keys()]).toEqual(['hotel -> payment']);
  });
});

describe('navigation', () => {
  const doc = JSON.parse(readFileSync(join(REPO, 'openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      op?.operationId ? [{ method: method.toUpperCase(), path, id: op.operationId }] : [],
    ),
  );

  it('every operationId is a literal string in the contract source', () => {
    const contract = ['admin', 'company', 'customer', 'hotel']
      .map((f) => readFileSync(join(REPO, 'contract/paths', `${f}.ts`), 'utf8'))
      .join('\n');
    expect(contract).not.toMatch(/operationId:\s*`/);
    expect(contract).toContain("'companyListHotelBookings'");
  });

  it('every operation has a handler keyed by its literal operationId in a server file', () => {
    const handlerFiles = files.filter((f) => f.path.startsWith(DOMAINS) || f.path.startsWith('search/'));
    const missing = ops
      .filter(
        (o) => !handlerFiles.some((f) => new RegExp(`^\\s+(async\\s+)?${o.id}\\s*[:(]`, 'm').test(f.text)),
      )
      .map((o) => o.id);
    expect(ops.length).toBeGreaterThan(150);
    expect(missing).toEqual([]);
  });

  const routeFiles = files.filter((f) => /^domains\/.*routes[^/]*\.ts$/.test(f.path));
  const TABLE_ROW = /^ \* {3}([A-Z]+) +(\S+) → (\w+)(?: \(([\w-]+\.ts)\))?$/gm;
  const listed = routeFiles.flatMap((f) =>
    [...(f.text.split('\n */')[0] ?? '').matchAll(TABLE_ROW)].map((m) => ({
      line: `${m[1]} ${m[2]} → ${m[3]}`,
      id: m[3] ?? '',
      // The file the handler is in: the route file, or the sibling its row names.
      handler: m[4] ? `${dirname(f.path)}/${m[4]}` : f.path,
    })),
  );

  it('every route file names its paths: each operation is listed once, as the contract declares it', () => {
    const declared = new Set(ops.map((o) => `${o.method} ${o.path} → ${o.id}`));
    expect(listed.filter((l) => !declared.has(l.line))).toEqual([]);
    const ids = listed.map((l) => l.id);
    expect(ops.map((o) => o.id).filter((id) => !ids.includes(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('docs/architecture.md maps every path prefix to the file that handles it', () => {
    const text = readFileSync(join(REPO, 'docs/architecture.md'), 'utf8');
    const map = [...text.matchAll(/^- `([^`]+)` → `packages\/server\/src\/([^`]+)`$/gm)].map((m) => ({
      prefix: m[1] ?? '',
      file: m[2] ?? '',
    }));
    expect(map.length).toBeGreaterThan(40);
    const handler = new Map(listed.map((l) => [l.id, l.handler]));
    const covers = (prefix: string, path: string) =>
      prefix.endsWith('/*')
        ? path === prefix.slice(0, -2) || path.startsWith(prefix.slice(0, -1))
        : path === prefix;
    const wrong = ops.flatMap((o) => {
      const best = map
        .filter((m) => covers(m.prefix, o.path))
        .sort((a, b) => b.prefix.length - a.prefix.length)[0];
      const want = handler.get(o.id);
      return best?.file === want
        ? []
        : [`${o.method} ${o.path}: the map says ${best?.file}, the handler is in ${want}`];
    });
    expect(wrong).toEqual([]);
  });
});
