/**
 * An earlier release's source, installed and ready to run, in a cache folder outside the clone:
 * `${TRAVEL_CACHE_DIR:-~/.cache/travel-platform}/releases/<sha>`. The source comes from this clone's own
 * git history (`git archive <sha>`), the dependencies from `pnpm install --frozen-lockfile` (its lockfile;
 * the pnpm store makes a second install quick). The folder is built under a temporary name and renamed
 * when complete, so an interrupted run never leaves a half-installed release behind.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './releases.ts';

/** Where releases and the databases they wrote are cached between runs. */
export const CACHE_DIR = process.env.TRAVEL_CACHE_DIR || join(homedir(), '.cache', 'travel-platform');

function run(cmd: string, args: string[], cwd: string): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0)
    throw new Error(
      `${cmd} ${args.join(' ')} (in ${cwd}) failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`,
    );
}

/** Fails with words when the commit is not in this clone (a shallow CI checkout, for instance). */
function ensureCommit(sha: string): void {
  try {
    execFileSync('git', ['cat-file', '-e', `${sha}^{commit}`], { cwd: REPO_ROOT, stdio: 'ignore' });
  } catch {
    throw new Error(
      `the upgrade test needs release commit ${sha} from this clone's git history, and it is not there ` +
        '(a shallow clone?): run `git fetch --unshallow` (or clone with full history) and run again',
    );
  }
}

/** The installed source tree of release `sha`, built on first use. */
export function releaseSource(sha: string): string {
  const dir = join(CACHE_DIR, 'releases', sha);
  if (existsSync(join(dir, '.installed'))) return dir;
  ensureCommit(sha);
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const tar = spawnSync('sh', ['-c', `git archive --format=tar ${sha} | tar -x -C "${tmp}"`], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (tar.status !== 0) throw new Error(`git archive ${sha} failed:\n${tar.stderr}`);
  // CI=true: pnpm installs without asking (no TTY), and never rewrites the old lockfile.
  run(
    'pnpm',
    ['install', '--frozen-lockfile', '--prefer-offline', '--config.confirmModulesPurge=false'],
    tmp,
  );
  execFileSync('touch', [join(tmp, '.installed')]);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return dir;
}
