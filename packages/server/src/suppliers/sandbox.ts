/**
 * Sandbox mode: the supplier emulators of @travel/mock-server on loopback ports, started by the server
 * itself so `pnpm start` needs nothing else. The credentials below are the emulators' defaults, not
 * secrets.
 */
import { type EmulatorOptions, type MockSupplier, startMockServers } from '@travel/mock-server';

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
  } = {},
): Promise<SandboxSuppliers> {
  const servers = await startMockServers({
    host: opts.host ?? '127.0.0.1',
    basePort: opts.basePort ?? 0,
    options: { latencyMs: { min: 50, max: 250 }, ...opts.options },
    ...(opts.suppliers ? { suppliers: opts.suppliers } : {}),
  });
  return { urls: servers.urls, close: servers.close };
}
