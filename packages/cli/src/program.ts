/**
 * The commander program: global flags, every command, and errors thrown (not exited) for bin.ts.
 *
 * Start-up stays fast by loading only what a run needs: every top-level command is listed here by name
 * and description, and its module is imported on dispatch (`travel --help` loads no command at all;
 * `travel whoami` loads whoami.ts). `help <command>` and the completion helper load them all.
 */
import { Command, Option } from 'commander';
import pkg from '../package.json' with { type: 'json' };
import type { Deps } from './context.ts';

export const VERSION: string = pkg.version;

type Loaded = Command | Command[];
type Loader = (deps: Deps, root: () => Command) => Promise<Loaded>;

/**
 * [name, description shown in `travel --help`, loader]. The description is the command's own (a test
 * compares them). To add a command: one row here.
 */
export const COMMANDS: readonly (readonly [string, string, Loader])[] = [
  [
    'login',
    'log in and store the session in the profile (user-only file); the session refreshes itself until it ends',
    async (d) => (await import('./commands/login.ts')).loginCommand(d),
  ],
  [
    'logout',
    'end the session on the server and forget the stored credentials of the profile',
    async (d) => (await import('./commands/logout.ts')).logoutCommand(d),
  ],
  [
    'whoami',
    'show the logged-in user (or the API key in use)',
    async (d) => (await import('./commands/whoami.ts')).whoamiCommand(d),
  ],
  [
    'auth',
    'the credentials this profile uses',
    async (d) => (await import('./commands/auth.ts')).authCommand(d),
  ],
  [
    'api-keys',
    'API keys for servers and CI (company admins; super admins with --company-id)',
    async (d) => (await import('./commands/api-keys.ts')).apiKeysCommand(d),
  ],
  [
    'config',
    'read and change per-profile settings',
    async (d) => (await import('./commands/config.ts')).configCommand(d),
  ],
  [
    'api',
    'call any operation of the contract (JSON out); like `gh api`',
    async (d) => (await import('./commands/api.ts')).apiCommand(d),
  ],
  [
    'search',
    'live searches: flight, hotel, transport',
    async (d) => (await import('./commands/search.ts')).searchCommand(d),
  ],
  ['airports', 'find airports', async (d) => (await import('./commands/reference.ts')).airportsCommand(d)],
  ['airlines', 'find airlines', async (d) => (await import('./commands/reference.ts')).airlinesCommand(d)],
  [
    'book',
    'book a flight offer (interactive on a terminal, flag-driven without one)',
    async (d) => (await import('./commands/book.ts')).bookCommand(d),
  ],
  [
    'booking',
    'flight bookings: show, list, timeline, cancel, accept-change',
    async (d) => (await import('./commands/booking.ts')).bookingCommand(d),
  ],
  [
    'bookings',
    'every kind of booking in one list',
    async (d) => (await import('./commands/bookings.ts')).bookingsCommand(d),
  ],
  ['pay', 'payments of a flight booking', async (d) => (await import('./commands/pay.ts')).payCommand(d)],
  [
    'ticket',
    'tickets of a flight booking',
    async (d) => (await import('./commands/ticket.ts')).ticketCommand(d),
  ],
  [
    'seats',
    'seat maps, selection and paid-seat issuance',
    async (d) => (await import('./commands/seats.ts')).seatsCommand(d),
  ],
  [
    'ancillaries',
    'bags, meals and other extras of a flight booking',
    async (d) => (await import('./commands/ancillaries.ts')).ancillariesCommand(d),
  ],
  [
    'hotel',
    'hotel bookings: book, show, voucher, list, cancel',
    async (d) => (await import('./commands/hotel.ts')).hotelCommand(d),
  ],
  [
    'transfer',
    'transfer bookings: book, show, voucher, list, cancel',
    async (d) => (await import('./commands/transfer.ts')).transferCommand(d),
  ],
  [
    'admin',
    'platform administration (super admins): companies, users, markup rules, reconciliation, payments',
    async (d) => (await import('./commands/admin.ts')).adminCommand(d),
  ],
  [
    'company',
    'your agency (company admins and staff): profile, staff, wallet, markup rules, bookings, clients',
    async (d) => (await import('./commands/company.ts')).companyCommand(d),
  ],
  [
    'listen',
    "stream your company's events live, one line each; --forward-to POSTs each one to a local URL, signed like a webhook",
    async (d) => (await import('./commands/listen.ts')).listenCommand(d),
  ],
  [
    'events',
    "your company's event feed: list, show, resend, types",
    async (d) => (await import('./commands/events.ts')).eventsCommand(d),
  ],
  [
    'webhooks',
    "your company's webhook endpoints (company admins): create, list, roll-secret, disable",
    async (d) => (await import('./commands/webhooks.ts')).webhooksCommand(d),
  ],
  [
    'smoke',
    'CI smoke booking: login, search, revalidate, book, authorize, capture, ticket, void (cleans up after itself)',
    async (d) => (await import('./commands/smoke.ts')).smokeCommand(d),
  ],
  [
    'completion',
    'print a shell completion script',
    async (d, root) => (await import('./commands/completion.ts')).completionCommand(d, root),
  ],
];

/** Global options that take a value (their value is not the command name). */
const VALUE_OPTIONS = new Set(['--profile', '--base-url', '--jq']);

/** The command an argv dispatches to: its first word that is neither an option nor an option's value. */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === '--') return argv[i + 1];
    if (word.startsWith('-')) {
      if (VALUE_OPTIONS.has(word)) i++;
      continue;
    }
    return word;
  }
  return undefined;
}

/**
 * The program for `argv`: the named command loaded for real, every other one a placeholder with its
 * description (all loaded for `help`, `completion` and the completion helper, or with `all`).
 */
export async function createProgram(deps: Deps, argv: readonly string[] = [], all = false): Promise<Command> {
  const program = new Command('travel')
    .description('the travel service from a terminal or a CI pipeline')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(
      new Option('--profile <name>', 'named profile (its own base URL and login)').env('TRAVEL_PROFILE'),
    )
    .option('--base-url <url>', 'server URL (else TRAVEL_BASE_URL, the profile, http://localhost:8080)')
    .option('--json', 'print one JSON document on stdout')
    .option(
      '--jq <expression>',
      'filter the JSON output with a jq expression (implies --json; strings print raw)',
    )
    .option('-v, --verbose', 'print each HTTP exchange on stderr (tokens redacted)')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', '\nHelp topics:\n  travel help exit-codes\n  travel help environment\n');
  // Help is data (stdout); commander's own errors are hints (stderr). Both through io, so tests see them.
  const outputConfig = {
    writeOut: (text: string) => deps.io.out(text.replace(/\n$/, '')),
    writeErr: (text: string) => deps.io.err(text.replace(/\n$/, '')),
  };
  const word = commandWord(argv);
  const loadAll = all || word === 'help' || word === 'completion' || word === '__complete';
  const root = () => program;
  const loaded = await Promise.all(
    COMMANDS.map(([name, description, load]) =>
      loadAll || name === word
        ? load(deps, root)
        : Promise.resolve(new Command(name).description(description)),
    ),
  );
  for (const entry of loaded)
    for (const command of Array.isArray(entry) ? entry : [entry])
      program.addCommand(command, command.name() === '__complete' ? { hidden: true } : {});
  // Throw instead of exiting, everywhere in the tree: bin.ts is the one exit point.
  const walk = (command: Command) => {
    command.exitOverride().configureOutput(outputConfig);
    command.commands.forEach(walk);
  };
  walk(program);
  return program;
}
