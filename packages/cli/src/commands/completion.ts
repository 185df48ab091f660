/**
 * `travel completion bash|zsh|fish`: small shell scripts that ask the binary itself for candidates
 * (`travel __complete <words…>`), so completions never go stale when commands change.
 */
import { CURRENCIES } from '@travel/sdk';
import { Command, type Option } from 'commander';
import { action, examples } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { UsageError } from '../errors.ts';
import { CABINS } from './search-flight.ts';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

export function completionScript(shell: string): string {
  switch (shell) {
    case 'bash':
      return `# travel bash completion: eval "$(travel completion bash)"
_travel_complete() {
  local IFS=$'\\n'
  COMPREPLY=($(travel __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o default -F _travel_complete travel`;
    case 'zsh':
      return `#compdef travel
# travel zsh completion: eval "$(travel completion zsh)" or save as _travel on $fpath
_travel() {
  local -a candidates
  candidates=("\${(@f)$(travel __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _travel travel`;
    case 'fish':
      return `# travel fish completion: travel completion fish > ~/.config/fish/completions/travel.fish
complete -c travel -f -a '(travel __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'`;
    default:
      throw new UsageError(`unknown shell "${shell}"; one of ${SHELLS.join(', ')}`);
  }
}

/** Candidates for the last (partial) word after walking the earlier words down the command tree. */
export function completeWords(root: Command, words: string[]): string[] {
  const partial = words.at(-1) ?? '';
  let command = root;
  for (const word of words.slice(0, -1)) {
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (next) command = next;
  }
  const options = [...command.options, ...root.options]
    .map((o) => o.long)
    .filter((o): o is string => Boolean(o));
  const names = command.commands.filter((c) => !c.name().startsWith('__')).map((c) => c.name());
  const pool = partial.startsWith('-') ? options : names.length > 0 ? names : options;
  return [...new Set(pool)].filter((c) => c.startsWith(partial));
}

/** Options whose values are airports (completed from the reference search). */
const AIRPORT_OPTIONS = new Set(['--from', '--to', '--origin', '--destination']);

/** The option the word before the partial one is, when it takes a value. */
function pendingOption(root: Command, words: string[]): Option | undefined {
  const previous = words.at(-2);
  if (!previous?.startsWith('--')) return undefined;
  let command = root;
  for (const word of words.slice(0, -2)) {
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (next) command = next;
  }
  const option = [...command.options, ...root.options].find((o) => o.long === previous);
  return option && (option.required || option.optional) ? option : undefined;
}

/**
 * Candidates for an option's value: its declared choices, cabins, currencies, or airports whose code, name
 * or city matches what is typed (asked of the server; nothing when it cannot answer).
 */
export async function completeValues(
  root: Command,
  words: string[],
  ctx: Ctx,
): Promise<string[] | undefined> {
  const option = pendingOption(root, words);
  if (!option) return undefined;
  const partial = words.at(-1) ?? '';
  const starts = (values: readonly string[]) =>
    values.filter((v) => v.toLowerCase().startsWith(partial.toLowerCase()));
  if (option.argChoices) return starts(option.argChoices);
  if (option.long === '--cabin') return starts(CABINS);
  if (option.long === '--currency') return starts(CURRENCIES);
  if (option.long && AIRPORT_OPTIONS.has(option.long)) {
    if (partial.length < 2) return [];
    try {
      // What the user typed goes to the server as is (two letters are enough for the contract); codes that
      // start with it come first (`LH` → LHR before an airport whose name matches), the server's order after.
      const found = await ctx.client().reference.airports({ query: partial });
      const codes = found.items
        .map(
          (a) =>
            (a as { iata_code?: string; code?: string }).iata_code ?? (a as { code?: string }).code ?? '',
        )
        .filter(Boolean);
      const typed = partial.toUpperCase();
      return [...codes.filter((c) => c.startsWith(typed)), ...codes.filter((c) => !c.startsWith(typed))];
    } catch {
      return [];
    }
  }
  return [];
}

export function completionCommand(deps: Deps, root: () => Command): Command[] {
  const completion = examples(
    new Command('completion')
      .argument('<shell>', SHELLS.join(' | '))
      .description('print a shell completion script')
      .action(action(deps, async (ctx, _o, [shell]) => ctx.io.out(completionScript(shell ?? '')))),
    'eval "$(travel completion bash)"',
    'travel completion zsh > ~/.zfunc/_travel',
    'travel completion fish > ~/.config/fish/completions/travel.fish',
  );
  const complete = new Command('__complete')
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action(
      action(deps, async (ctx, _o, [words]) => {
        const list = (words as unknown as string[] | undefined) ?? [''];
        for (const c of (await completeValues(root(), list, ctx)) ?? completeWords(root(), list))
          ctx.io.out(c);
      }),
    );
  return [completion, complete];
}
