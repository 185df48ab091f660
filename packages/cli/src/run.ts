/**
 * The one exit point: runs the program with the real world and exits with the mapped code.
 * No other file calls process.exit.
 */
import { enableCompileCache } from 'node:module';
import { createRealDeps } from './deps.ts';
import { main } from './main.ts';

// Start-up: V8's compiled code of the CLI and its dependencies is cached on disk after the first run
// (NODE_DISABLE_COMPILE_CACHE=1 turns it off).
enableCompileCache?.();
const code = await main(process.argv.slice(2), createRealDeps());
// Flush stdout before leaving: piped output must not be cut off.
process.stdout.write('', () => process.exit(code));
