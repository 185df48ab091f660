/**
 * Sandbox mode as the server sees it: every supplier is an emulator reached by URL, with the emulators'
 * default credentials below (not secrets). The server never starts the emulators itself: a composition
 * root outside src/ does (`packages/server/sandbox/`: `pnpm start`, the image alone, the test server) and
 * hands their URLs in, or SANDBOX_SUPPLIER_URLS names emulators that already run (`packages/mock-server`).
 */
import { ConfigError } from '../internal/config.ts';

/** The suppliers sandbox mode reaches, by the names SANDBOX_SUPPLIER_URLS and the emulators use. */
export const SANDBOX_SUPPLIERS = [
  'amadeus',
  'duffel',
  'mystifly',
  'hotelbeds',
  'hotelbeds-transfers',
  'stripe',
] as const;
export type SandboxSupplier = (typeof SANDBOX_SUPPLIERS)[number];

/** Each emulator's base URL (`http://127.0.0.1:12100`, no trailing slash). */
export type SandboxUrls = Partial<Record<SandboxSupplier, string>>;

/** Added latency per emulated call: fixed milliseconds, or a range each request path gets a value in. */
export type SandboxLatency = number | { min: number; max: number };

/** Emulators running in this process, as a composition root started them. */
export interface SandboxEmulators {
  urls: SandboxUrls;
  close(): Promise<void>;
}

/**
 * The port a composition root hands the server so that sandbox mode runs its emulators in-process
 * (`packages/server/sandbox/main.ts`). The server calls it once, after it holds DATA_DIR, with where the
 * emulators keep their records and SANDBOX_LATENCY_MS; it closes them on shutdown, after the runtime.
 */
export type StartEmulators = (o: {
  stateDir: string;
  latencyMs?: SandboxLatency;
}) => Promise<SandboxEmulators>;

export const SANDBOX_CREDENTIALS = {
  amadeus: { clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' },
  duffel: { token: 'duffel_test_sandbox' },
  mystifly: { userName: 'mystifly_user', password: 'mystifly_pass', accountNumber: 'MCN004085' },
  hotelbeds: { apiKey: 'hb_test_api_key', secret: 'hb_test_secret' },
  stripe: { secretKey: 'sk_test_sandbox' },
} as const;

/**
 * SANDBOX_SUPPLIER_URLS=`amadeus=http://host:port,duffel=…`: use emulators that already run (the
 * standalone mock-server, or a test's) instead of in-process ones, so several server processes in sandbox
 * mode share one set of emulators and their state (orders, PNRs). Unset or blank: undefined.
 */
export function parseSandboxUrls(raw: string | undefined): SandboxUrls | undefined {
  if (!raw?.trim()) return undefined;
  const urls: SandboxUrls = {};
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const i = entry.indexOf('=');
    const name = entry.slice(0, i).trim() as SandboxSupplier;
    if (i <= 0 || !SANDBOX_SUPPLIERS.includes(name) || !URL.canParse(entry.slice(i + 1).trim())) {
      throw new ConfigError(
        `SANDBOX_SUPPLIER_URLS entries must look like "amadeus=http://host:port", got "${entry}"`,
      );
    }
    urls[name] = entry
      .slice(i + 1)
      .trim()
      .replace(/\/$/, '');
  }
  return urls;
}

/**
 * SANDBOX_LATENCY_MS: the in-process emulators' added latency per call, `200` (fixed) or `100-400` (a
 * range; each request path gets its own value in it, the same on every run). Unset: the realistic
 * default (50-250). A long fixed latency holds
 * every supplier call open, so anyone can place a crash or a SIGTERM inside one, not only a test.
 */
export function parseSandboxLatency(raw: string | undefined): SandboxLatency | undefined {
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
