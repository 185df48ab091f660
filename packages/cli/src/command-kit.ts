/**
 * Glue between commander and the run functions: builds the context from the global flags, and prints a
 * result either as JSON (--json) or through the command's human view.
 */
import type { Command } from 'commander';
import { type Ctx, createContext, type Deps, type GlobalOptions } from './context.ts';
import { CliError, noteServer } from './errors.ts';
import { ExitCode } from './exit-codes.ts';
import { SESSION_ENDED } from './session.ts';
import { renderRecord } from './ui/table.ts';

/** Commander action: `(…args, options, command)`; hands the run function a context and its raw inputs. */
export function action<TOptions>(
  deps: Deps,
  handler: (ctx: Ctx, options: TOptions, args: string[]) => Promise<void>,
) {
  return async (...params: unknown[]) => {
    const command = params.at(-1) as Command;
    const globals = command.optsWithGlobals() as GlobalOptions & TOptions;
    const args = params.slice(0, -2).map((a) => a as string);
    if (globals.jq) globals.json = true;
    await deps.prepare?.();
    const ctx = createContext(globals.jq ? await withJq(deps, globals.jq) : deps, globals);
    try {
      await handler(ctx, globals, args);
    } catch (error) {
      // A connection failure names the server it could not reach (a typo in --base-url, a stopped server).
      noteServer(error, ctx.baseUrl);
      throw error;
    }
  };
}

/**
 * --jq: the run is a --json run whose one JSON document goes through the expression (loaded and compiled
 * first: a bad expression fails before any request).
 */
async function withJq(deps: Deps, expression: string): Promise<Deps> {
  const { loadJq } = await import('./jq.ts');
  const filter = await loadJq(expression);
  const io = deps.io;
  const filtered = Object.assign(Object.create(io) as typeof io, {
    json: (value: unknown) => {
      for (const line of filter(value)) io.out(line);
    },
  });
  return { ...deps, io: filtered };
}

/** Prints `data` as JSON with --json, else the human view (a generic record view by default). */
export function output(ctx: Ctx, data: unknown, human?: () => void): void {
  if (ctx.json) ctx.io.json(data);
  else if (human) human();
  else for (const line of renderRecord(data)) ctx.io.out(line);
}

/** Adds the "Example:" block every command shows in --help. */
export function examples(command: Command, ...lines: string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}

/** Commands that need credentials fail early and clearly (exit 3) instead of with a server 401. */
export function requireToken(ctx: Ctx): void {
  if (ctx.credential().kind !== 'none') return;
  if (ctx.profile().session_ended_at) throw new CliError(SESSION_ENDED, ExitCode.authentication);
  throw new CliError(
    `not logged in on profile "${ctx.profileName}": run \`travel login\`, or set TRAVEL_API_KEY or TRAVEL_TOKEN`,
    ExitCode.authentication,
  );
}
