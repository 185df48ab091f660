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

/** `/a/{b}/c` -> `/a/:b/c` (find-my-way's syntax). */
const toRadix = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/**
 * A radix router over the contract's paths. Every operation gets a route, including those without a
 * handler yet (they answer 501), so 404 means "not in the contract" and 405 means "wrong method".
 */
export class Router {
  readonly #fmw = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: 500 });
  readonly #methodsByPath = new Map<string, Set<string>>();

  constructor(operations: Operation[]) {
    for (const op of operations) {
      this.#fmw.on(op.method as 'GET', toRadix(op.path), () => {}, { operation: op });
      const set = this.#methodsByPath.get(op.path) ?? new Set<string>();
      set.add(op.method);
      this.#methodsByPath.set(op.path, set);
    }
  }

  lookup(method: string, path: string): RouteLookup {
    const found = this.#fmw.find(method as 'GET', path);
    if (found) {
      const operation = (found.store as { operation: Operation }).operation;
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(found.params)) if (v !== undefined) params[k] = v;
      return { kind: 'found', match: { operation, params } };
    }
    const allow = new Set<string>();
    for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const other = this.#fmw.find(m as 'GET', path);
      if (other)
        for (const x of this.#methodsByPath.get((other.store as { operation: Operation }).operation.path) ??
          [])
          allow.add(x);
    }
    if (allow.size > 0) {
      if (allow.has('GET')) allow.add('HEAD');
      return { kind: 'method_not_allowed', allow: [...allow].sort() };
    }
    return { kind: 'not_found' };
  }
}
