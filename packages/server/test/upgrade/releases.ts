/**
 * The releases the project has shipped, from `releases.json` at the repository root: one machine-readable
 * list that each release appends itself to (with CHANGELOG.md). The migration guard and the upgrade test
 * read it from here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Release {
  /** The build and package version (`package.json`, GET /). */
  version: string;
  /** The API version (openapi.json `info.version`). */
  api: string;
  /** The full commit the release was cut from. */
  commit: string;
  date: string;
  /** The migration files this release added: name → sha256 of the file. */
  migrations: Record<string, string>;
}

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const file = JSON.parse(readFileSync(new URL('releases.json', `file://${REPO_ROOT}`), 'utf8')) as {
  unordered: Record<string, string>;
  releases: Release[];
};

export const RELEASES: readonly Release[] = file.releases;
/** Shipped migrations allowed to sort before one an earlier release shipped (each with its reason). */
export const UNORDERED: Readonly<Record<string, string>> = file.unordered;

/** Every migration some release shipped: name → pinned sha256. */
export function shippedMigrations(): Map<string, string> {
  return new Map(RELEASES.flatMap((r) => Object.entries(r.migrations)));
}
