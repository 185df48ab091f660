/**
 * `travel help exit-codes` and `travel help environment`: the README's two reference tables, on the
 * terminal (as `gh help environment` does). A test keeps them and ExitCode in step.
 */
import { ExitCode } from './exit-codes.ts';

const EXIT_CODES: [number, string][] = [
  [ExitCode.ok, 'ok'],
  [ExitCode.failed, 'failed: the server said no (declined, rejected, validation), a smoke step failed'],
  [ExitCode.usage, 'usage: unknown command or option, a missing or malformed flag (the message names it)'],
  [
    ExitCode.authentication,
    'authentication: not logged in, session ended, bad token or API key (401), not allowed (403)',
  ],
  [ExitCode.notFound, 'not found (404, an expired search 410, *_not_found codes)'],
  [ExitCode.conflict, 'conflict or refused transition (409; already_captured, not_cancellable, …)'],
  [
    ExitCode.supplierPending,
    'supplier pending: a booking the supplier has neither confirmed nor rejected (502)',
  ],
  [ExitCode.interrupted, 'interrupted: Ctrl-C at a prompt, a picker or during a stream (128 + SIGINT)'],
];

const ENVIRONMENT: [string, string][] = [
  [
    'TRAVEL_BASE_URL',
    'server URL (wins over the profile; --base-url wins over it); default http://localhost:8080',
  ],
  [
    'TRAVEL_API_KEY',
    'API key (tk_test_… / tk_live_…) sent as X-API-Key; wins over TRAVEL_TOKEN and the login',
  ],
  ['TRAVEL_TOKEN', 'bearer access token (wins over the stored login; never refreshed)'],
  ['TRAVEL_PROFILE', 'profile name (same as --profile; wins over `travel config use`)'],
  ['TRAVEL_CONFIG_DIR', 'where the config and journal files live (default: the platform config directory)'],
  ['TRAVEL_COMPANY_CODE, TRAVEL_USER_CODE', 'codes for searches, overriding the login or the API key'],
  ['TRAVEL_IDEMPOTENCY_KEY', 'travel book: use this Idempotency-Key'],
  ['TRAVEL_EMAIL, TRAVEL_PASSWORD', 'travel smoke: log in with these (nothing is stored)'],
  ['TRAVEL_SMOKE_TAG', 'travel smoke: run tag (else the CI run id, or a timestamp)'],
  ['TRAVEL_DEBUG=1', 'same as --verbose'],
  ['NO_COLOR, TERM=dumb, FORCE_COLOR', 'colour off (any NO_COLOR value, TERM=dumb) or forced on'],
  [
    'CI, TRAVEL_FORCE_TTY=1',
    'CI turns prompts and spinners off even on a terminal; TRAVEL_FORCE_TTY=1 turns them back on',
  ],
  ['COLUMNS', 'table width when stdout is not a terminal (default 100); a terminal uses its own width'],
];

function twoColumns(rows: [string | number, string][]): string[] {
  const width = Math.max(...rows.map(([k]) => String(k).length));
  return rows.map(([k, v]) => `  ${String(k).padEnd(width)}  ${v}`);
}

export const HELP_TOPICS: Record<string, () => string[]> = {
  'exit-codes': () => ['Exit codes of every travel command:', '', ...twoColumns(EXIT_CODES)],
  environment: () => ['Environment variables travel reads:', '', ...twoColumns(ENVIRONMENT)],
};

/** The topic `travel help <name>` asks for, when `argv` is such a call. */
export function helpTopicOf(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('help');
  const name = at === -1 ? undefined : argv[at + 1];
  return name !== undefined && Object.hasOwn(HELP_TOPICS, name) ? name : undefined;
}
