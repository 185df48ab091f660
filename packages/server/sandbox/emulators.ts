/**
 * The supplier emulators of `@travel/mock-server` on loopback ports, as sandbox mode runs them in the
 * server's own process. Only the composition roots in this folder import the emulator package: src/ knows
 * suppliers by URL (`SandboxUrls`) and is handed this function as its `StartEmulators` port.
 */
import { SANDBOX_SUPPLIERS, type SandboxEmulators, type SandboxLatency } from '../src/suppliers/sandbox.ts';

/**
 * Starts an emulator for every supplier the server knows (`SANDBOX_SUPPLIERS`, a subset of the package's
 * `MOCK_SUPPLIERS`, which the type of `suppliers` checks) on 127.0.0.1, each on a free port. `latencyMs`
 * defaults to a realistic 50-250 ms; `stateDir` keeps their records across restarts (one process at a
 * time), default in memory. It is the server's `StartEmulators` port (main.ts) and the test server's.
 * The package is loaded on the first call: a live server started by main.ts never loads it.
 */
export const startEmulators = async (
  o: { stateDir?: string; latencyMs?: SandboxLatency } = {},
): Promise<SandboxEmulators> => {
  const { startMockServers } = await import('@travel/mock-server');
  const servers = await startMockServers({
    host: '127.0.0.1',
    basePort: 0,
    options: { latencyMs: o.latencyMs ?? { min: 50, max: 250 } },
    suppliers: SANDBOX_SUPPLIERS,
    ...(o.stateDir ? { stateDir: o.stateDir } : {}),
  });
  return { urls: servers.urls, close: servers.close };
};
