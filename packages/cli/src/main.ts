/** Runs the program and maps whatever was thrown to one line on stderr and an exit code (no exiting here). */
import { CommanderError } from 'commander';
import type { Deps } from './context.ts';
import { ExitCode } from './exit-codes.ts';
import { commandWord, createProgram } from './program.ts';

/** What Ctrl-C prints before the process exits 130 (at a prompt here, during a stream in run.ts). */
export const INTERRUPTED = 'cancelled (Ctrl-C); nothing more was sent';

/**
 * `travel __complete search flight --`: the words to complete must reach the helper as typed, a bare `--`
 * included (commander reads `--` as the end of options and drops it, once in the root and once in the
 * subcommand, so two are put in front of the words).
 */
function completionArgv(argv: string[]): string[] {
  if (commandWord(argv) !== '__complete') return argv;
  const at = argv.indexOf('__complete');
  return [...argv.slice(0, at + 1), '--', '--', ...argv.slice(at + 1)];
}

export async function main(argv: string[], deps: Deps): Promise<number> {
  try {
    if (commandWord(argv) === 'help') {
      const { HELP_TOPICS, helpTopicOf } = await import('./help-topics.ts');
      const topic = helpTopicOf(argv);
      if (topic) {
        for (const line of HELP_TOPICS[topic]?.() ?? []) deps.io.out(line);
        return ExitCode.ok;
      }
    }
    const program = await createProgram(deps, argv);
    await program.parseAsync(completionArgv(argv), { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with 0; commander already printed its own message for the rest.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof Error && error.name === 'ExitPromptError') {
      deps.io.err(INTERRUPTED);
      return ExitCode.interrupted;
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
