/** Reads a V8 `.cpuprofile` (`node --cpu-prof`, or the inspector's Profiler) and ranks its functions. */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const short = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/^.*\/packages\/server\//, '');

const label = (f: ProfileNode['callFrame']) =>
  `${f.functionName || '(anonymous)'}  ${short(f.url) || '(native)'}${f.url ? `:${f.lineNumber + 1}` : ''}`;

/** Inclusive time is shown for our code and the HTTP plumbing it calls, where a fix would land. */
const interesting = (url: string) =>
  /packages\/server\/src\//.test(url) ||
  /^node:(_http|http|internal\/(deps\/undici|webstreams|url|crypto))/.test(url);

const rank = (m: Map<string, number>, total: number, n: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, t]) => `${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}`);

/** Top `n` functions by self time, and by inclusive time (each function counted once per sample). */
export function hotSpots(file: string, n: number): { self: string[]; inclusive: string[] } {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of p.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    total += dt;
    self.set(label(node.callFrame), (self.get(label(node.callFrame)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)?.callFrame;
      if (!f || !interesting(f.url)) continue;
      const k = label(f);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  });
  return { self: rank(self, total, n), inclusive: rank(inclusive, total, n * 2) };
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: node bench/profile.ts <file.cpuprofile> [n]');
  const { self, inclusive } = hotSpots(file, Number(process.argv[3] ?? 25));
  console.log(['self time:', ...self, 'inclusive time:', ...inclusive].join('\n'));
}
