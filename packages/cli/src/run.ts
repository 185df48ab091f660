/**
 * The one exit point: runs the program with the real world and exits with the mapped code.
 * No other file calls process.exit.
 */
import { createRealDeps } from './deps.ts';
import { main } from './main.ts';

const code = await main(process.argv.slice(2), createRealDeps());
// Flush stdout before leaving: piped output must not be cut off.
process.stdout.write('', () => process.exit(code));
