/** The commander program: global flags, every command, and errors thrown (not exited) for bin.ts. */
import { Command, Option } from 'commander';
import { ancillariesCommand } from './commands/ancillaries.ts';
import { apiKeysCommand } from './commands/api-keys.ts';
import { authCommand } from './commands/auth.ts';
import { bookCommand } from './commands/book.ts';
import { bookingCommand } from './commands/booking.ts';
import { bookingsCommand } from './commands/bookings.ts';
import { completionCommand } from './commands/completion.ts';
import { configCommand } from './commands/config.ts';
import { hotelCommand } from './commands/hotel.ts';
import { loginCommand } from './commands/login.ts';
import { logoutCommand } from './commands/logout.ts';
import { payCommand } from './commands/pay.ts';
import { airlinesCommand, airportsCommand } from './commands/reference.ts';
import { searchCommand } from './commands/search.ts';
import { seatsCommand } from './commands/seats.ts';
import { smokeCommand } from './commands/smoke.ts';
import { ticketCommand } from './commands/ticket.ts';
import { transferCommand } from './commands/transfer.ts';
import { whoamiCommand } from './commands/whoami.ts';
import type { Deps } from './context.ts';

export const VERSION = '0.1.0';

export function createProgram(deps: Deps): Command {
  const program = new Command('travel')
    .description('the travel service from a terminal or a CI pipeline')
    .version(VERSION)
    .addOption(
      new Option('--profile <name>', 'named profile (its own base URL and login)').env('TRAVEL_PROFILE'),
    )
    .option('--base-url <url>', 'server URL (else TRAVEL_BASE_URL, the profile, http://localhost:8080)')
    .option('--json', 'print one JSON document on stdout')
    .option('-v, --verbose', 'print each HTTP exchange on stderr (tokens redacted)')
    .showHelpAfterError('(run with --help for usage)');
  // Help is data (stdout); commander's own errors are hints (stderr). Both through io, so tests see them.
  const outputConfig = {
    writeOut: (text: string) => deps.io.out(text.replace(/\n$/, '')),
    writeErr: (text: string) => deps.io.err(text.replace(/\n$/, '')),
  };
  const commands = [
    loginCommand(deps),
    logoutCommand(deps),
    whoamiCommand(deps),
    authCommand(deps),
    apiKeysCommand(deps),
    configCommand(deps),
    searchCommand(deps),
    airportsCommand(deps),
    airlinesCommand(deps),
    bookCommand(deps),
    bookingCommand(deps),
    bookingsCommand(deps),
    payCommand(deps),
    ticketCommand(deps),
    seatsCommand(deps),
    ancillariesCommand(deps),
    hotelCommand(deps),
    transferCommand(deps),
    smokeCommand(deps),
    ...completionCommand(deps, () => program),
  ];
  for (const command of commands)
    program.addCommand(command, command.name() === '__complete' ? { hidden: true } : {});
  // Throw instead of exiting, everywhere in the tree: bin.ts is the one exit point.
  const walk = (command: Command) => {
    command.exitOverride().configureOutput(outputConfig);
    command.commands.forEach(walk);
  };
  walk(program);
  return program;
}
