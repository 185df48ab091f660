/**
 * Writes `src/version.ts` (the version the User-Agent sends) from package.json. `pnpm version-packages`
 * runs it after `changeset version` bumps package.json; `test/surface.test.ts` fails when the two differ.
 * Run: `node packages/sdk/scripts/sync-version.ts` (from anywhere).
 */
import { readFileSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const target = new URL('../src/version.ts', import.meta.url);
writeFileSync(
  target,
  `/** The package version, sent in the User-Agent. \`test/surface.test.ts\` keeps it equal to package.json's. */\nexport const VERSION = '${pkg.version}';\n`,
);
console.log(`src/version.ts: ${pkg.version}`);
