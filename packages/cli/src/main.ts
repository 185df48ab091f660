/** Runs the program and maps whatever was thrown to one line on stderr and an exit code (no exiting here). */
import { CommanderError } from 'commander';
import type { Deps } from './context.ts';
import { ExitCode } from './exit-codes.ts';
import { createProgram } from './program.ts';

export async function main(argv: string[], deps: Deps): Promise<number> {
  try {
    const program = await createProgram(deps, argv);
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with 0; commander already printed its own message for the rest.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof Error && error.name === 'ExitPromptError') {
      deps.io.err('cancelled');
      return ExitCode.failed;
    }
    // Loaded only on failure: it pulls in the SDK's error classes.
    const { exitCodeFor, formatError, verboseDetail } = await import('./errors.ts');
    deps.io.err(formatError(error));
    const verbose = argv.includes('--verbose') || argv.includes('-v') || deps.env.TRAVEL_DEBUG === '1';
    const detail = verbose ? verboseDetail(error) : undefined;
    if (detail) deps.io.err(detail);
    return exitCodeFor(error);
  }
}
