/**
 * `pnpm start` (and the image's default command): the service with the sandbox's supplier emulators in
 * the same process. A composition root outside src/: it runs the server (`src/server.ts`) and hands it the
 * port that starts the emulators of `@travel/mock-server` (emulators.ts). The server calls it only in
 * sandbox mode without SANDBOX_SUPPLIER_URLS, after it holds DATA_DIR, keeps their records in
 * DATA_DIR/sandbox-suppliers, applies SANDBOX_LATENCY_MS and closes them on SIGTERM after the runtime.
 * With SANDBOX_SUPPLIER_URLS, or in live mode, this is `src/main.ts` exactly.
 */
import { runServer } from '../src/server.ts';
import { startEmulators } from './emulators.ts';

void runServer({ startEmulators });
