import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Builds dist/bin.js and starts a real server once for the process tests.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
