/**
 * The SDK core's size, part by part. The core is what `import … from '@travel/sdk'` loads: the ESM bundle
 * of `src/index.ts` with every export kept, without openapi-fetch (a dependency an app shares) and with the
 * contract's types erased, minified and gzipped at level 9 as size-limit measures `dist/index.js` (the gate
 * of `pnpm test`, `.size-limit.json`). Parts loaded on first use (`import()`) are listed apart. The table
 * is printed on every run, so a change that grows the core shows where it went.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'tsup';
import { afterAll, describe, expect, it } from 'vitest';
import { SURFACE } from '../src/surface.ts';
import { CORE_BUDGET_BYTES, CORE_TARGET_BYTES, NAMESPACE_PARTS, PARTS, partOf } from './size-parts.ts';

const root = new URL('..', import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), 'sdk-size-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Metafile {
  outputs: Record<
    string,
    {
      entryPoint?: string;
      imports: { path: string; kind: string }[];
      inputs: Record<string, { bytesInOutput: number }>;
    }
  >;
}

async function measure() {
  await build({
    config: false,
    entry: { index: join(root, 'src/index.ts') },
    format: ['esm'],
    outDir: out,
    minify: true,
    metafile: true,
    splitting: true,
    platform: 'neutral',
    target: 'es2022',
    external: ['openapi-fetch'],
    noExternal: ['@travel/contract'],
    silent: true,
    dts: false,
    sourcemap: false,
  });
  const meta = JSON.parse(readFileSync(join(out, 'metafile-esm.json'), 'utf8')) as Metafile;
  const cwd = process.cwd();
  const outputs = Object.entries(meta.outputs).filter(([file]) => file.endsWith('.js'));
  const entry = outputs.find(([, o]) => o.entryPoint !== undefined);
  if (!entry) throw new Error('no entry output');
  // The entry and what it imports statically are loaded at import; dynamic imports on first use.
  const core = new Set<string>([entry[0]]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const file of [...core])
      for (const i of meta.outputs[file]?.imports ?? [])
        if (i.kind === 'import-statement' && meta.outputs[i.path] && !core.has(i.path)) {
          core.add(i.path);
          grew = true;
        }
  }
  const gz = (file: string) => gzipSync(readFileSync(join(cwd, file)), { level: 9 }).length;
  const min = (file: string) => readFileSync(join(cwd, file)).length;
  const coreFiles = [...core];
  const lazyFiles = outputs.map(([file]) => file).filter((file) => !core.has(file));
  const coreGzip = coreFiles.reduce((n, f) => n + gz(f), 0);
  const coreMin = coreFiles.reduce((n, f) => n + min(f), 0);
  // Minified bytes per part; gzip does not split by module, so each part's gzip figure is its share.
  const byPart = new Map<string, number>();
  for (const file of coreFiles)
    for (const [input, { bytesInOutput }] of Object.entries(meta.outputs[file]?.inputs ?? {})) {
      const part = partOf(relative(root, join(cwd, input)));
      byPart.set(part, (byPart.get(part) ?? 0) + bytesInOutput);
    }
  const lazy = lazyFiles.map((file) => ({
    file,
    inputs: Object.keys(meta.outputs[file]?.inputs ?? {}).map((i) => relative(root, join(cwd, i))),
    min: min(file),
    gzip: gz(file),
  }));
  return { coreGzip, coreMin, byPart, lazy };
}

describe('SDK core size', () => {
  it(`is within its budget (${CORE_BUDGET_BYTES} B min+gzip), and says what each part costs`, async () => {
    const { coreGzip, coreMin, byPart, lazy } = await measure();
    const rows = PARTS.map((p) => {
      const bytes = byPart.get(p.name) ?? 0;
      return { ...p, bytes, gzip: Math.round((bytes / coreMin) * coreGzip) };
    }).filter((r) => r.bytes > 0);
    const operations = Object.keys(SURFACE).length;
    const namespaces = rows.filter((r) => NAMESPACE_PARTS.includes(r.name)).reduce((n, r) => n + r.gzip, 0);
    const unassigned = [...byPart.keys()].filter((name) => !PARTS.some((p) => p.name === name));
    const width = Math.max(...rows.map((r) => r.name.length));
    const lines = [
      `SDK core: ${coreGzip} B min+gzip (${coreMin} B minified); target ${CORE_TARGET_BYTES} B${
        coreGzip > CORE_TARGET_BYTES
          ? `, over it by ${coreGzip - CORE_TARGET_BYTES} B (what that buys: README, Size)`
          : ', met'
      }; gate ${CORE_BUDGET_BYTES} B`,
      `  ${'part'.padEnd(width)}  minified  ≈gzip  what it buys`,
      ...rows.map(
        (r) =>
          `  ${r.name.padEnd(width)}  ${String(r.bytes).padStart(8)}  ${String(r.gzip).padStart(5)}  ${r.buys}`,
      ),
      `  the ${operations} operations' namespaces together: ${namespaces} B gzip, ≈${Math.round(
        namespaces / operations,
      )} B each`,
      ...lazy.map(
        (l) =>
          `  on first use: ${l.inputs.join(', ')}: ${l.min} B minified, ${l.gzip} B gzip (not in the core)`,
      ),
    ];
    console.log(lines.join('\n'));
    expect(unassigned, 'every source file belongs to a part of test/size-parts.ts').toEqual([]);
    expect(coreGzip).toBeLessThanOrEqual(CORE_BUDGET_BYTES);
  });
});
