/**
 * The import parser of the architecture test: every import statement of a source text (static, re-export,
 * `import type`, side-effect, dynamic `import('…')`, `require('…')`), read after blanking comment lines so
 * an example in a JSDoc block is not an import. The probes of the test feed synthetic texts through the
 * same functions as the real tree.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

export interface SourceFile {
  /** Path relative to the package's source root (`search/engine.ts`). */
  path: string;
  text: string;
}

export interface Edge {
  /** Importing file, relative to packages/server/src (e.g. `search/engine.ts`). */
  from: string;
  /** Imported file, relative to packages/server/src (may start with `..` outside it). */
  to: string;
}

/** A dynamic `import()` or `require()` whose specifier is not a plain string literal. */
export interface ComputedImport {
  from: string;
  /** The call as written, up to its first line's end (`import(`../domains/${name}/routes.ts`)`). */
  call: string;
}

export function sourceFiles(dir: string, root = dir): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(p, root);
    if (!e.name.endsWith('.ts') || e.name.endsWith('.test.ts') || e.name.endsWith('.d.ts')) return [];
    return [{ path: relative(root, p).replaceAll('\\', '/'), text: readFileSync(p, 'utf8') }];
  });
}

/** The text with every comment line blanked (line numbers kept). */
const code = (text: string): string =>
  text
    .split('\n')
    .map((l) => (/^\s*(\/\/|\/\*|\*)/.test(l) ? '' : l))
    .join('\n');

const STATIC = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]/gm;
/** `import(` or `require(`, then a plain literal when there is one. */
const CALL = /\b(import|require)\(\s*(?:'([^'\n]+)'\s*[,)]|"([^"\n]+)"\s*[,)])?/g;

/** Every specifier a file imports, literal ones only (see `computedImports` for the others). */
export function specifiers(text: string): string[] {
  const c = code(text);
  const out: string[] = [];
  for (const m of c.matchAll(STATIC)) out.push(m[1] ?? m[2] ?? '');
  for (const m of c.matchAll(CALL)) {
    const spec = m[2] ?? m[3];
    if (spec !== undefined) out.push(spec);
  }
  return out;
}

export function computedImports(files: SourceFile[]): ComputedImport[] {
  return files.flatMap((f) =>
    [...code(f.text).matchAll(CALL)]
      .filter((m) => m[2] === undefined && m[3] === undefined)
      .map((m) => ({ from: f.path, call: (code(f.text).slice(m.index).split('\n')[0] ?? '').trim() })),
  );
}

/** Relative imports of every source file, resolved against the source root. */
export function importEdges(files: SourceFile[]): Edge[] {
  return files.flatMap((f) =>
    specifiers(f.text)
      .filter((s) => s.startsWith('.'))
      .map((s) => ({ from: f.path, to: normalize(join(dirname(f.path), s)).replaceAll('\\', '/') })),
  );
}

/** A workspace package of the repository and where its production code lives (relative to the repo). */
export interface Package {
  name: string;
  /** The package's folder (`packages/server`, `contract`). */
  dir: string;
  /** Its production source root (`packages/server/src`, `contract`). */
  src: string;
}

/** The workspace package a repository path lies in, if any. */
export function packageOf(packages: Package[], repoPath: string): string | undefined {
  return packages.find((p) => repoPath === p.dir || repoPath.startsWith(`${p.dir}/`))?.name;
}

/** `file -> package` for every import of another workspace package: `@travel/<name>` or a relative path out of the package. */
export function packageImports(packages: Package[], pkg: Package, files: SourceFile[]): string[] {
  const out = new Set<string>();
  for (const f of files) {
    for (const s of specifiers(f.text)) {
      let target: string | undefined;
      if (s.startsWith('@travel/')) target = s.split('/')[1];
      else if (s.startsWith('.'))
        target = packageOf(packages, normalize(join(pkg.src, dirname(f.path), s)).replaceAll('\\', '/'));
      if (target !== undefined && target !== pkg.name) out.add(`${pkg.name}:${f.path} -> ${target}`);
    }
  }
  return [...out].sort();
}
