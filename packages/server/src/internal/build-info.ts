/**
 * Which build of the server this is, named apart from the API version (the contract's `info.version`):
 * the server package's version, and the commit it was built from. The commit comes from
 * TRAVEL_BUILD_COMMIT (the image sets it from its `COMMIT` build argument), else from `git rev-parse HEAD`
 * when running from a checkout, else "unknown". Read once per process.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { environment } from './config.ts';

export interface BuildInfo {
  version: string;
  commit: string;
}

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

function gitCommit(): string | undefined {
  try {
    const r = spawnSync('git', ['rev-parse', 'HEAD'], {
      cwd: serverDir,
      encoding: 'utf8',
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const sha = r.status === 0 ? r.stdout.trim() : '';
    return /^[0-9a-f]{7,64}$/.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}

/** The build as this process sees it; `env` and `git` are for tests. */
export function readBuildInfo(
  env: Record<string, string | undefined> = environment(),
  git: () => string | undefined = gitCommit,
): BuildInfo {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const commit = env.TRAVEL_BUILD_COMMIT?.trim() || git() || 'unknown';
  return { version: pkg.version, commit };
}

let cached: BuildInfo | undefined;
export function buildInfo(): BuildInfo {
  cached ??= readBuildInfo();
  return cached;
}

/** The build as one token, version and short commit: `0.1.0+4925fbf1a2b3`. */
export function buildTag(b: BuildInfo = buildInfo()): string {
  return `${b.version}+${b.commit.slice(0, 12)}`;
}

/** The User-Agent product we send to suppliers: `travel-server/0.1.0+4925fbf1a2b3`. */
export function userAgent(b: BuildInfo = buildInfo()): string {
  return `travel-server/${buildTag(b)}`;
}
