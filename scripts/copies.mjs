#!/usr/bin/env node
// Copy detection (jscpd, configured in .jscpd.json: TypeScript, 6+ lines, import lines and generated code
// left out) over every package's src/ and test/. Fails when a clone joins hotel code and transport code
// (issue #15: the two verticals were copies that drifted apart; what they share lives once in the
// reservation engine, the SDK's and CLI's reservation modules, or a shared helper). Every other clone is
// listed, with the totals, but does not fail: they are places to look, not a verdict.
// A file is hotel code when its path (from the repository root) names transport/transfer(s) -> transport,
// else hotel/stays -> hotel; `hotelbeds-transfers` is transport, `hotelbeds` and `duffel-stays` hotel.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const packages = join(root, 'packages');
const dirs = readdirSync(packages).flatMap((p) =>
  ['src', 'test'].map((d) => join(packages, p, d)).filter((d) => existsSync(d)),
);
const out = mkdtempSync(join(tmpdir(), 'jscpd-'));
const args = ['-c', join(root, '.jscpd.json'), '-o', out, ...dirs];
const res = spawnSync(join(root, 'node_modules', '.bin', 'jscpd'), args, { cwd: root, encoding: 'utf8' });
const reportFile = join(out, 'jscpd-report.json');
if (!existsSync(reportFile)) {
  process.stderr.write(`jscpd wrote no report (exit ${res.status}):\n${res.stdout}${res.stderr}\n`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
rmSync(out, { recursive: true, force: true });

/** 'hotel', 'transport' or null, from the path relative to the repository root. */
function vertical(path) {
  if (/transport|transfer/i.test(path)) return 'transport';
  if (/hotel|stays/i.test(path)) return 'hotel';
  return null;
}

const at = (f) => `${relative(root, f.name)}:${f.start}-${f.end}`;
const rows = report.duplicates.map((d) => ({
  lines: d.lines,
  text: `${at(d.firstFile)} ~ ${at(d.secondFile)} (${d.lines} lines)`,
  across: [vertical(relative(root, d.firstFile.name)), vertical(relative(root, d.secondFile.name))],
}));
const failing = rows.filter((r) => r.across[0] && r.across[1] && r.across[0] !== r.across[1]);
const others = rows.filter((r) => !failing.includes(r)).sort((a, b) => b.lines - a.lines);

const s = report.statistics.total;
process.stdout.write(
  `jscpd: ${s.sources} files, ${s.clones} clones, ${s.duplicatedLines} duplicated lines (${s.percentage.toFixed(2)}%)\n`,
);
if (others.length) {
  process.stdout.write(`other clones (reported, not failing), largest first:\n`);
  for (const r of others.slice(0, 15)) process.stdout.write(`  ${r.text}\n`);
  if (others.length > 15) process.stdout.write(`  (+${others.length - 15} more)\n`);
}
if (failing.length) {
  process.stdout.write(`\nFAIL: ${failing.length} clone(s) between hotel and transport code:\n`);
  for (const r of failing) process.stdout.write(`  ${r.text}\n`);
  process.stdout.write(
    'Write it once (the reservation engine, a shared module) and keep only what differs.\n',
  );
  process.exit(1);
}
process.stdout.write('no clones between hotel and transport code\n');
