/**
 * Sandbox mode: the supplier emulators of @travel/mock-server on loopback ports, started by the server
 * itself so `pnpm start` needs nothing else. The credentials below are the emulators' defaults, not
 * secrets.
 */
import { type EmulatorOptions, type MockSupplier, startMockServers } from '@travel/mock-server';
import { ConfigError } from '../internal/config.ts';

export interface SandboxSuppliers {
  urls: Partial<Record<MockSupplier, string>>;
  close(): Promise<void>;
}

export const SANDBOX_CREDENTIALS = {
  amadeus: { clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' },
  duffel: { token: 'duffel_test_sandbox' },
  mystifly: { userName: 'mystifly_user', password: 'mystifly_pass', accountNumber: 'MCN004085' },
  hotelbeds: { apiKey: 'hb_test_api_key', secret: 'hb_test_secret' },
  stripe: { secretKey: 'sk_test_sandbox' },
} as const;

/**
 * Starts every emulator on `host` (default 127.0.0.1). `basePort` 0 (default) picks free ports;
 * `options.latencyMs` defaults to a realistic 50-250 ms outside tests.
 */
export async function startSandboxSuppliers(
  opts: {
    host?: string;
    basePort?: number;
    options?: EmulatorOptions;
    suppliers?: readonly MockSupplier[];
    /** Keep the emulators' records here across restarts (one process at a time); default in memory. */
    stateDir?: string;
  } = {},
): Promise<SandboxSuppliers> {
  const servers = await startMockServers({
    host: opts.host ?? '127.0.0.1',
    basePort: opts.basePort ?? 0,
    options: { latencyMs: { min: 50, max: 250 }, ...opts.options },
    ...(opts.suppliers ? { suppliers: opts.suppliers } : {}),
    ...(opts.stateDir ? { stateDir: opts.stateDir } : {}),
  });
  return { urls: servers.urls, close: servers.close };
}

/**
 * SANDBOX_LATENCY_MS: the in-process emulators' added latency per call, `200` (fixed) or `100-400` (a
 * range; each request path gets its own value in it, the same on every run). Unset: the realistic
 * default (50-250). A long fixed latency holds
 * every supplier call open, so anyone can place a crash or a SIGTERM inside one, not only a test.
 */
export function parseSandboxLatency(raw: string | undefined): EmulatorOptions['latencyMs'] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = raw.trim();
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(value);
  if (range) {
    const min = Number(range[1]);
    const max = Number(range[2]);
    if (min > max) throw new ConfigError(`SANDBOX_LATENCY_MS range must be low-high, got "${raw}"`);
    return { min, max };
  }
  if (/^\d+$/.test(value)) return Number(value);
  throw new ConfigError(
    `SANDBOX_LATENCY_MS must be milliseconds ("200") or a range ("100-400"), got "${raw}"`,
  );
}
