/**
 * The `User-Agent` the SDK sends: `travel-sdk/<version> <runtime>/<version>` on server runtimes (Node,
 * Bun, Deno), so the service's logs can tell SDK versions apart. Nothing in browsers, where `User-Agent`
 * is the browser's own (a forbidden header for scripts), nor on runtimes we cannot name.
 */

interface RuntimeGlobals {
  Deno?: { version?: { deno?: string } };
  process?: { versions?: { node?: string; bun?: string } };
  document?: unknown;
  window?: unknown;
}

/**
 * The header value for this runtime, or undefined where none should be set.
 *
 * @example
 * userAgent('0.1.0'); // 'travel-sdk/0.1.0 node/24.11.0' on Node
 */
export function userAgent(version: string, globals: RuntimeGlobals = globalThis as RuntimeGlobals) {
  // A page (or Electron renderer) has a document: its User-Agent belongs to the browser.
  if (globals.window !== undefined || globals.document !== undefined) return undefined;
  const deno = globals.Deno?.version?.deno;
  if (deno) return `travel-sdk/${version} deno/${deno}`;
  const versions = globals.process?.versions;
  if (versions?.bun) return `travel-sdk/${version} bun/${versions.bun}`;
  if (versions?.node) return `travel-sdk/${version} node/${versions.node}`;
  return undefined;
}
