/**
 * Every script in examples/ runs as a child process (Node running the TypeScript source, as the README
 * says) against the real server started in this process, and exits 0: on the Node running the tests, and
 * on Node 22 when TRAVEL_NODE22 names its binary (`.ci/run` installs one into .tools/node22 and
 * scripts/test.mjs passes it on), since the package promises Node 22+.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Login, startTestServer, type TestServer } from '@travel/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const examplesDir = fileURLToPath(new URL('../examples/', import.meta.url));

interface NodeBinary {
  label: string;
  path: string;
}

/** `node 24.1.0`, or why the binary does not run (the guard test below reports it). */
function describeNode(path: string): NodeBinary | { error: string } {
  try {
    const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    return { label: `node ${version}`, path };
  } catch (error) {
    return { error: `${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

const node22Path = process.env.TRAVEL_NODE22 || undefined;
const node22 = node22Path ? describeNode(node22Path) : undefined;
const nodes: NodeBinary[] = [{ label: `node ${process.versions.node}`, path: process.execPath }];
if (node22 && 'path' in node22 && node22.label !== nodes[0]?.label) nodes.push(node22);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** Must be asynchronous: the server answering the child lives on this event loop. */
function runExample(node: string, file: string, login: Login) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    // `travel-source`: the package's exports condition for its TypeScript source, so the examples' own
    // `import … from '@travel/sdk'` (as a consumer writes it) runs this checkout without a build.
    const child = spawn(node, ['--conditions=travel-source', file], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: {
        PATH: process.env.PATH ?? '',
        TRAVEL_BASE_URL: server.url,
        TRAVEL_EMAIL: login.email,
        TRAVEL_PASSWORD: login.password,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 55_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const expected: Record<string, { login: 'agent' | 'admin'; output: RegExp }> = {
  'flight.ts': { login: 'agent', output: /booking confirmed \d+[\s\S]*ticketed true/ },
  'hotel.ts': { login: 'agent', output: /hotel booking confirmed \d+/ },
  'transfer.ts': { login: 'agent', output: /transfer booking confirmed \d+/ },
  'admin-report.ts': { login: 'admin', output: /dashboard[\s\S]*\d+ bookings/ },
};

describe('examples/ against the real server', () => {
  it('every runnable example is covered here', () => {
    const scripts = readdirSync(examplesDir).filter((f) => f.endsWith('.ts') && f !== 'env.ts');
    expect(scripts.sort()).toEqual(Object.keys(expected).sort());
  });

  it('ship in the package (with api.md, CHANGELOG.md, LICENSE) and import @travel/sdk as a consumer would', () => {
    // `npm pack --dry-run` lists exactly what `files` puts in the tarball, offline, without building.
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    ) as { files: { path: string }[] }[];
    const files = (packed?.files ?? []).map((f) => f.path);
    const scripts = readdirSync(examplesDir).filter((f) => f.endsWith('.ts'));
    for (const file of [
      ...scripts.map((f) => `examples/${f}`),
      'api.md',
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
    ])
      expect(files).toContain(file);
    for (const file of scripts) {
      const source = readFileSync(join(examplesDir, file), 'utf8');
      // A shipped example cannot reach the repository's src/: only the package name resolves for a consumer.
      expect(source, file).not.toMatch(/from '\.\.\//);
    }
  }, 60_000);

  // Type stripping runs .ts without a flag from Node 22.18: an older 22 would fail every example below.
  it.skipIf(!node22Path)(
    'TRAVEL_NODE22 (set by .ci/run) is a Node 22.18+ binary: the examples run on it too',
    () => {
      expect(node22 && 'error' in node22 ? node22.error : undefined).toBeUndefined();
      const [major, minor] = (node22 as NodeBinary).label.replace('node ', '').split('.').map(Number);
      expect(major).toBe(22);
      expect(minor).toBeGreaterThanOrEqual(18);
    },
  );

  // Sequential: admin-report comes last and sees the bookings the others made.
  describe.each(nodes)('on $label', ({ path }) => {
    it.each(Object.entries(expected))(
      '%s exits 0',
      async (file, { login, output }) => {
        const r = await runExample(path, `examples/${file}`, login === 'admin' ? server.admin : server.agent);
        expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
        expect(r.stdout).toMatch(output);
      },
      60_000,
    );
  });
});
