/**
 * `node src/main.ts`: the service as a process (server.ts), reaching every supplier by URL. Sandbox mode
 * needs SANDBOX_SUPPLIER_URLS here (emulators that already run: `packages/mock-server`, compose's `mock`);
 * `pnpm start` runs `packages/server/sandbox/main.ts` instead, which starts the emulators in this process.
 */
import { runServer } from './server.ts';

void runServer();
