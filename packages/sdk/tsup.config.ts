import { defineConfig } from 'tsup';

// ESM + CJS + .d.ts. openapi-fetch ships both formats and stays external (the one runtime dependency).
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
  noExternal: ['@travel/contract'],
});
