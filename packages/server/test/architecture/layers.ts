/**
 * The layer rules of docs/architecture.md for every top-level entry of packages/server/src, the package
 * rules of the workspace, the composition roots outside src/, and the allow-list of computed `import()`s. Each rule says what an area MAY
 * import (anything else fails), so a new folder, or a new kind of import, needs a rule before it passes.
 */
import type { ComputedImport, Edge } from './imports.ts';

export const DOMAINS = 'domains/';
export const COMPOSITION = ['app.ts', 'runtime.ts', 'server.ts', 'main.ts'];

/** The shared services every engine and domain may use, each with its own table(s); none imports a domain. */
const SHARED = ['cache/', 'idempotency/', 'rate-limit/', 'api-keys/', 'audit/', 'jobs/', 'mail/', 'events/'];

/**
 * `area -> what it may import` (folders end in `/`; a file path allows that file only). An area may always
 * import inside itself. `anything` is for the composition roots.
 */
export const MAY_IMPORT: Record<string, { may: string[] | 'anything'; why: string }> = {
  'internal/': {
    may: [],
    why: 'the ground floor (ids, money, clock, config, tokens, the Logger type) imports nothing of src/',
  },
  'storage/': {
    may: ['internal/', 'observability/tracing.ts'],
    why: 'the database layer knows no service, HTTP or domain (it traces its queries)',
  },
  'observability/': {
    may: ['internal/', 'storage/', 'suppliers/ports/errors.ts'],
    why: 'spans, metrics and the supplier-call log: below the kernel and the adapters',
  },
  'cache/': { may: ['internal/'], why: 'a shared service imports no domain, engine or supplier' },
  'mail/': { may: ['internal/', 'storage/'], why: 'a shared service imports no domain, engine or supplier' },
  'idempotency/': {
    may: ['internal/', 'storage/'],
    why: 'a shared service imports no domain, engine, supplier or composition root',
  },
  'rate-limit/': {
    may: ['internal/', 'storage/'],
    why: 'a shared service imports no domain, engine or supplier',
  },
  'api-keys/': {
    may: ['internal/', 'storage/', 'rate-limit/'],
    why: 'a shared service (the keys table and its per-key limits)',
  },
  'audit/': {
    may: ['internal/', 'storage/', 'kernel/types.ts'],
    why: 'a shared service; an audit row records the request context (a type)',
  },
  'jobs/': {
    may: ['internal/', 'storage/', 'observability/'],
    why: 'the job runner imports no domain, engine or supplier: handlers are registered by the root',
  },
  'events/': {
    may: ['internal/', 'storage/', 'observability/', 'jobs/', 'mail/', 'kernel/types.ts', 'kernel/sse.ts'],
    why: 'the outbox and its delivery: a shared service, fed by the domains, importing none (kernel/sse.ts: the one SSE frame encoder its stream shares)',
  },
  'kernel/': {
    may: ['internal/', 'storage/', 'observability/', 'cache/', 'idempotency/', 'rate-limit/', 'api-keys/'],
    why: 'the kernel knows HTTP and its middleware services; no domain, engine or supplier',
  },
  'suppliers/': {
    may: ['internal/', 'storage/', 'observability/', 'kernel/errors.ts'],
    why: 'the ports and adapters do not know the engine that calls them, nor any domain',
  },
  'search/': {
    may: ['internal/', 'storage/', 'observability/', 'kernel/', 'suppliers/', ...SHARED],
    why: 'the engine gets what it needs of a domain (markup) injected',
  },
  'domains/': {
    may: ['internal/', 'storage/', 'observability/', 'kernel/', 'suppliers/', 'search/', ...SHARED],
    why: 'a domain is handed its deps; it does not import the composition root',
  },
  'runtime-metrics.ts': {
    may: ['internal/', 'storage/', 'kernel/', 'search/'],
    why: 'process metrics, read by the root',
  },
  'sandbox-seed.ts': { may: ['internal/', 'storage/', 'audit/'], why: 'seed rows of sandbox mode' },
  'app.ts': { may: 'anything', why: 'the composition root' },
  'runtime.ts': { may: 'anything', why: 'the composition root (jobs, timers, domains)' },
  'server.ts': {
    may: 'anything',
    why: 'the process: env, runtime, listen, SIGTERM drain (sandbox emulators come in as a port)',
  },
  'main.ts': {
    may: ['server.ts'],
    why: "`node src/main.ts`: every supplier by URL; the in-process emulators are the launcher's (ROOTS_OUTSIDE_SRC)",
  },
};

/** The top-level entry of src/ a path belongs to: `kernel/`, `domains/`, `app.ts`. */
export const topArea = (p: string): string => {
  const [a, b] = p.split('/');
  return b === undefined ? (a ?? p) : `${a}/`;
};

const allows = (entry: string, to: string) => to === entry || (entry.endsWith('/') && to.startsWith(entry));

export function layerViolations(edges: Edge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    const a = topArea(e.from);
    if (e.to.startsWith('..') || topArea(e.to) === a) continue;
    const rule = MAY_IMPORT[a];
    if (rule === undefined) out.push(`${e.from} imports ${e.to} (${a} has no rule in MAY_IMPORT)`);
    else if (rule.may !== 'anything' && !rule.may.some((m) => allows(m, e.to)))
      out.push(
        `${e.from} imports ${e.to} (${a} may import only ${rule.may.join(', ') || 'itself'}: ${rule.why})`,
      );
  }
  return out;
}

/** Workspace packages a package's production code may import (by `@travel/<name>` or a relative path). */
export const PACKAGE_DEPS: Record<string, string[]> = {
  contract: [],
  server: ['contract'],
  sdk: ['contract'],
  cli: ['sdk', 'contract'],
  'mock-server': ['contract'],
};

/**
 * Package imports that break PACKAGE_DEPS today, each with its reason; shrink-only (a listed import that
 * is gone fails). None: the server's production code imports no emulator (see ROOTS_OUTSIDE_SRC).
 */
export const PACKAGE_IMPORTS_PENDING: Record<string, string> = {};

export function packageViolations(imports: string[]): string[] {
  return imports.filter((i) => {
    const [from, to] = i.split(' -> ') as [string, string];
    const pkg = from.split(':')[0] ?? '';
    return !(PACKAGE_DEPS[pkg] ?? []).includes(to) && !(i in PACKAGE_IMPORTS_PENDING);
  });
}

/**
 * Composition roots outside a package's production source (`package:folder/`, relative to the package):
 * what runs the package together with what its src/ must not import. A root's files may import the
 * workspace packages listed (and their own package's src/, by relative path); src/ never imports a root.
 */
export const ROOTS_OUTSIDE_SRC: Record<string, { may: string[]; why: string }> = {
  'server:sandbox/': {
    may: ['contract', 'mock-server'],
    why:
      'sandbox mode in one process (`pnpm start`, the image alone, @travel/server/testing) starts the ' +
      "emulators of @travel/mock-server and hands src/server.ts their URLs and close(); the server's " +
      'production code (src/) knows suppliers only by URL',
  },
};

/** Imports (`package:path -> package`, the path relative to the package) no ROOTS_OUTSIDE_SRC rule allows. */
export function rootViolations(imports: string[]): string[] {
  return imports.flatMap((i) => {
    const [from, to] = i.split(' -> ') as [string, string];
    const root = Object.entries(ROOTS_OUTSIDE_SRC).find(([r]) => from.startsWith(r));
    if (!root) return [`${i} (${from} is in no composition root of ROOTS_OUTSIDE_SRC)`];
    return root[1].may.includes(to)
      ? []
      : [`${i} (${root[0]} may import only ${root[1].may.join(', ')}: ${root[1].why})`];
  });
}

/** Imports of src/ that reach a server composition root outside it (`../sandbox/main.ts`). */
export function srcToRootViolations(edges: Edge[]): string[] {
  const folders = Object.keys(ROOTS_OUTSIDE_SRC)
    .filter((r) => r.startsWith('server:'))
    .map((r) => `../${r.slice('server:'.length)}`);
  return edges
    .filter((e) => folders.some((f) => e.to.startsWith(f)))
    .map((e) => `${e.from} imports ${e.to.slice(3)} (src/ never imports a composition root outside it)`);
}

/**
 * Files allowed a dynamic `import()` / `require()` of a computed specifier (which no rule above can
 * read); shrink-only.
 */
export const COMPUTED_IMPORTS_ALLOWED: Record<string, string> = {
  'storage/migrate.ts': "Kysely's FileMigrationProvider loads each migration file by its path",
  'suppliers/amadeus/client.ts': 'require(node:https or node:http) by the configured scheme',
};

export function computedImportViolations(found: ComputedImport[]): string[] {
  return found
    .filter((c) => !(c.from in COMPUTED_IMPORTS_ALLOWED))
    .map((c) => `${c.from}: ${c.call} (a computed specifier escapes every import rule)`);
}
