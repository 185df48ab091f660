/**
 * The README, run as written against the real server. Every `ts` block is joined in order into one module
 * (its `@travel/sdk` imports merged into one line, as a reader pasting the blocks into one file would do),
 * and run by Node from TypeScript source against `startTestServer` in sandbox mode with the job runner on
 * (what `pnpm start` runs). The only change: `http://localhost:8080` becomes the test server's URL.
 * `@travel/sdk` resolves to this checkout's source (the package's `travel-source` export condition).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '@travel/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(packageDir, '../..');
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** Every ```ts block, de-indented (the Authentication blocks sit in a list). */
function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^( *)```ts\n([\s\S]*?)^\1```$/gm)].map(([, indent = '', code = '']) =>
    code
      .split('\n')
      .map((line) => line.slice(indent.length))
      .join('\n'),
  );
}

/** One module: the blocks' `@travel/sdk` imports merged at the top, then their code in order. */
function readmeProgram(markdown: string): string {
  const names = new Set<string>();
  const bodies = tsBlocks(markdown).map((block) =>
    block.replace(/^import \{([^}]*)\} from '@travel\/sdk';\n/gm, (_, list: string) => {
      for (const name of list.split(',')) if (name.trim()) names.add(name.trim());
      return '';
    }),
  );
  return [`import { ${[...names].sort().join(', ')} } from '@travel/sdk';`, ...bodies].join('\n');
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ startJobs: true });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** Must be asynchronous: the server answering the child lives on this event loop. */
function run(program: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=travel-source', '--input-type=module-typescript', '--eval', program],
      { cwd: packageDir, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('README.md against the real server', () => {
  it('has the blocks this test expects (quick start first, every section after it)', () => {
    const blocks = tsBlocks(readme);
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    expect(blocks[0]).toMatch(/^import \{[^}]*\bcreateTravelClient\b[^}]*\} from '@travel\/sdk';$/m);
    expect(blocks[0]).toContain("'http://localhost:8080'");
  });

  it('the blocks typecheck as a consumer compiles them (strict, exactOptionalPropertyTypes, nodenext)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sdk-readme-'));
    try {
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
      writeFileSync(join(dir, 'readme.ts'), readmeProgram(readme));
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2023',
            lib: ['es2023'],
            module: 'nodenext',
            moduleResolution: 'nodenext',
            strict: true,
            noUncheckedIndexedAccess: true,
            exactOptionalPropertyTypes: true,
            allowImportingTsExtensions: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
            typeRoots: [join(repoRoot, 'node_modules/@types')],
            // The package's source, as the `travel-source` condition resolves it at run time.
            paths: { '@travel/sdk': [join(packageDir, 'src/index.ts')] },
          },
          files: ['readme.ts'],
        }),
      );
      const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
      let output = '';
      try {
        execFileSync(tsc, ['-p', dir], { encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('every ts block runs, in order, as written: the quick start books, pays, tickets and voids', async () => {
    const program = readmeProgram(readme).replaceAll('http://localhost:8080', server.url);
    const r = await run(program);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const expected = [
      /^\d+ offers; cheapest \S+ \d+ [A-Z]{3}$/m,
      /^price changed: (true|false)$/m,
      /^booked PNR [A-Z0-9]{6} id \d+$/m,
      /^payment AUTHORIZED$/m,
      /^ticketed true$/m,
      /^void permitted: true \S+$/m,
      /^voided; booking is \S+$/m,
      /^booking \d+ \S+$/m,
      /^payment transactions: [1-9]\d*$/m,
      /^searching with an API key: \S+$/m,
      /^signed in as agent@sandbox\.travel$/m,
      /^resumed as agent@sandbox\.travel$/m,
      /^offer \S+ \d+$/m,
      /^search finished: \S+$/m,
      /^authorized with key \S+ request \S+$/m,
      /^replayed the same booking: true$/m,
      /^confirmed after pending: PNR [A-Z0-9]{6}$/m,
      /^declined; ask for another card$/m,
      /^no booking ZZZZZZ: \S+ \S+$/m,
      /^company booking \d+ /m,
    ];
    for (const line of expected) expect(r.stdout, r.stderr).toMatch(line);
  }, 120_000);
});
