/**
 * The one exit point: runs the program with the real world and exits with the mapped code.
 * No other file calls process.exit.
 */
import { createRealDeps } from './deps.ts';
import { ExitCode } from './exit-codes.ts';
import { INTERRUPTED, main } from './main.ts';

// Ctrl-C outside a prompt (during a search stream, a wait, a request): one line, the cursor shown again
// (a spinner hides it), and 130 as shells report an interrupt. At a prompt, inquirer reads the key itself
// and main() maps its ExitPromptError to the same line and code.
process.once('SIGINT', () => {
  if (process.stderr.isTTY) process.stderr.write('\u001b[?25h\n');
  process.stderr.write(`${INTERRUPTED}\n`);
  process.exit(ExitCode.interrupted);
});

const code = await main(process.argv.slice(2), createRealDeps());
// Flush stdout before leaving: piped output must not be cut off.
process.stdout.write('', () => process.exit(code));
