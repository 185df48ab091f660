/** What the published package says about itself: a licence (the file and the field) and where it comes from. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

describe('the CLI package', () => {
  it('is MIT licensed like the SDK, ships the LICENSE and names its repository', () => {
    const pkg = JSON.parse(read('package.json')) as {
      license?: string;
      files?: string[];
      repository?: { url?: string; directory?: string };
    };
    expect(pkg.license).toBe('MIT');
    expect(pkg.files).toContain('LICENSE');
    expect(pkg.repository?.directory).toBe('packages/cli');
    expect(read('LICENSE')).toMatch(/^MIT License/);
  });
});
