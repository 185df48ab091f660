import FindMyWay from 'find-my-way';
import type { Operation } from './contract.ts';

export interface RouteMatch {
  operation: Operation;
  params: Record<string, string>;
}

export type RouteLookup =
  | { kind: 'found'; match: RouteMatch }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

/** The parameters of a path without any (never written: validation copies them). */
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** `/a/{b}/c` -> `/a/:b/c` (find-my-way's syntax). */
const toRadix = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/** The methods the contract can route; any other (TRACE, PROPFIND, ...) is a 405 on a known path. */
const ROUTABLE = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * A radix router over the contract's paths. Every operation gets a route, including those without a
 * handler yet (they answer 501), so 404 means "not in the contract" and 405 means "wrong method".
 * A contract path ending in `/` (`/health/`) also answers without it (`/health`), unless that is a
 * contract path of its own.
 */
export class Router {
  readonly #fmw = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 500 });
  readonly #methodsByPath = new Map<string, Set<string>>();
  /**
   * Paths without parameters, exactly as sent: path -> method -> match (its `params` an empty frozen
   * object). A path or method not here goes to the radix router, which routes it as before (an exact
   * static path is what the radix router would match first too).
   */
  readonly #static = new Map<string, Map<string, RouteMatch>>();
  /** Templates with parameters, split into segments: segments -> method -> operation (`shape`). */
  readonly #templates = new Map<string[], Map<string, Operation>>();

  constructor(operations: Operation[]) {
    const paths = new Set(operations.map((op) => op.path));
    const addStatic = (path: string, op: Operation) => {
      if (path.includes('{')) return;
      let byMethod = this.#static.get(path);
      if (!byMethod) {
        byMethod = new Map();
        this.#static.set(path, byMethod);
      }
      byMethod.set(op.method.toUpperCase(), { operation: op, params: NO_PARAMS });
    };
    const templates = new Map<string, Map<string, Operation>>();
    for (const op of operations) {
      if (op.path.includes('{')) {
        const byMethod = templates.get(op.path) ?? new Map<string, Operation>();
        byMethod.set(op.method.toUpperCase(), op);
        templates.set(op.path, byMethod);
      }
      this.#fmw.on(op.method as 'GET', toRadix(op.path), () => {}, { operation: op });
      addStatic(op.path, op);
      const bare = op.path.slice(0, -1);
      if (op.path.length > 1 && op.path.endsWith('/') && !paths.has(bare)) {
        this.#fmw.on(op.method as 'GET', toRadix(bare), () => {}, { operation: op });
        addStatic(bare, op);
      }
      const set = this.#methodsByPath.get(op.path) ?? new Set<string>();
      set.add(op.method);
      this.#methodsByPath.set(op.path, set);
    }
    for (const [path, byMethod] of templates) this.#templates.set(path.split('/'), byMethod);
  }

  /** The operation `method` `path` routes to, or undefined (then `allowed` tells 404 from 405). */
  find(method: string, path: string): RouteMatch | undefined {
    const hit = this.#static.get(path)?.get(method);
    if (hit) return hit;
    const found = (ROUTABLE as readonly string[]).includes(method)
      ? this.#fmw.find(method as 'GET', path)
      : null;
    if (!found) return undefined;
    const operation = (found.store as { operation: Operation }).operation;
    const params: Record<string, string> = {};
    for (const k in found.params) {
      const v = found.params[k];
      if (v !== undefined) params[k] = v;
    }
    return { operation, params };
  }

  /**
   * The operation whose path template `path` has the shape of (same segments, its literal ones equal)
   * when the radix router could not route it: a parameter it cannot read (malformed percent-encoding,
   * longer than any id). The kernel answers that operation's 422 naming the parameter, instead of an
   * undeclared 404. Only asked on a miss.
   */
  shape(method: string, path: string): { operation: Operation; param: string } | undefined {
    const parts = path.split('/');
    for (const [template, ops] of this.#templates) {
      if (template.length !== parts.length) continue;
      let param: string | undefined;
      let fits = true;
      for (let i = 0; i < template.length && fits; i++) {
        const t = template[i] as string;
        const p = parts[i] as string;
        if (t.startsWith('{')) {
          if (p === '') fits = false;
          else param ??= t.slice(1, -1);
        } else if (t !== p) fits = false;
      }
      const operation = fits && param ? ops.get(method) : undefined;
      if (operation && param) return { operation, param };
    }
    return undefined;
  }

  lookup(method: string, path: string): RouteLookup {
    const match = this.find(method, path);
    if (match) return { kind: 'found', match };
    const allow = this.allowed(path);
    return allow.length > 0 ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
  }

  /**
   * The methods a path answers, sorted (empty when the path is not in the contract): its operations'
   * methods, HEAD wherever GET, and OPTIONS (the kernel answers it on every known path).
   */
  allowed(path: string): string[] {
    const allow = new Set<string>();
    for (const m of ROUTABLE) {
      const other = this.#fmw.find(m, path);
      if (other)
        for (const x of this.#methodsByPath.get((other.store as { operation: Operation }).operation.path) ??
          [])
          allow.add(x);
    }
    if (allow.size === 0) return [];
    if (allow.has('GET')) allow.add('HEAD');
    allow.add('OPTIONS');
    return [...allow].sort();
  }
}
