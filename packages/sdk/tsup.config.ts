import { defineConfig } from 'tsup';

// ESM + CJS + .d.ts. eventsource-parser is ESM-only, so it is bundled: a CJS consumer on Node 22.0-22.11
// (no require(esm) by default) must not have to load it. openapi-fetch ships both formats and stays external.
// @travel/contract (private, TypeScript sources) is bundled into both the code and the .d.ts, so the
// published package stays self-contained: its types (paths, components, ErrorCode) are inlined.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // Relative imports are resolved by path too, so the contract's own `./generated/*.ts` (reached through
  // the workspace symlink in node_modules) are inlined rather than left as imports of files not shipped.
  dts: { resolve: [/^@travel\/contract(\/|$)/, /^\.\.?\//] },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  noExternal: ['eventsource-parser', '@travel/contract'],
});
