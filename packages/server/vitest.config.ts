import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each storage suite boots its own embedded PostgreSQL (PGlite, WASM): seconds, not milliseconds.
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
