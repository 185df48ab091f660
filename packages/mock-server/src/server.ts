/**
 * Standalone entry: `pnpm --filter @travel/mock-server start`. Starts every supplier emulator on its own
 * port and prints the URLs.
 *   MOCK_HOST       listen address (default 127.0.0.1)
 *   MOCK_PORT_BASE  first port; suppliers take consecutive ports in MOCK_SUPPLIERS order (default 0 = free ports)
 *   MOCK_LATENCY_MS added latency: "0", "120" or a range "50-250" (default "50-250": realistic, not instant)
 *   MOCK_SEED       seed for the deterministic data (default 0)
 *   MOCK_STATE_DIR  keep every emulator's records here across restarts (default: in memory)
 */
import { MOCK_SUPPLIERS, startMockServers } from './index.ts';
import type { EmulatorOptions } from './shared/options.ts';

export function parseLatency(raw: string | undefined): EmulatorOptions['latencyMs'] {
  const value = (raw ?? '50-250').trim();
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(value);
  if (range) return { min: Number(range[1]), max: Number(range[2]) };
  if (/^\d+$/.test(value)) return Number(value);
  throw new Error(`MOCK_LATENCY_MS must be a number of ms or a range like 50-250, got ${value}`);
}

async function main(): Promise<void> {
  const basePort = Number(process.env.MOCK_PORT_BASE ?? 0);
  if (!Number.isInteger(basePort) || basePort < 0 || basePort > 65535 - MOCK_SUPPLIERS.length) {
    throw new Error(`MOCK_PORT_BASE must be a port number, got ${process.env.MOCK_PORT_BASE}`);
  }
  const servers = await startMockServers({
    host: process.env.MOCK_HOST ?? '127.0.0.1',
    basePort,
    options: {
      latencyMs: parseLatency(process.env.MOCK_LATENCY_MS),
      seed: Number(process.env.MOCK_SEED ?? 0),
    },
    ...(process.env.MOCK_STATE_DIR ? { stateDir: process.env.MOCK_STATE_DIR } : {}),
  });
  for (const [supplier, url] of Object.entries(servers.urls)) {
    console.log(`${supplier.padEnd(20)} ${url}`);
  }
  console.log('mock-server ready');
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping mock-server`);
    servers.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

// Only when run as the entry point, so tests can import parseLatency.
if (import.meta.filename === process.argv[1]) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
