import { defineConfig } from 'tsup';

// ESM + CJS + .d.ts. eventsource-parser is ESM-only, so it is bundled: a CJS consumer on Node 22.0-22.11
// (no require(esm) by default) must not have to load it. openapi-fetch ships both formats and stays external.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  noExternal: ['eventsource-parser'],
});
