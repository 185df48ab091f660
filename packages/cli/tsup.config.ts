import { defineConfig } from 'tsup';

// One ESM file with a shebang; dependencies (commander, inquirer, chalk, conf, @travel/sdk) stay external.
export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  clean: true,
  sourcemap: true,
  dts: false,
});
