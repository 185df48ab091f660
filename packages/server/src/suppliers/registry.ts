/**
 * Builds the enabled supplier adapters and hands them out by name. Sandbox mode points every adapter at
 * the emulators by URL (`sandboxUrls`, suppliers/sandbox.ts); live mode takes each supplier's base URL and credentials from
 * env and enables only suppliers whose credentials are all present (SUPPLIERS=live), or exactly the ones
 * listed (SUPPLIERS=amadeus,duffel,...: then missing credentials are a start-up error).
 * Search settings per supplier (enabled, timeout, max_results, priority) live in `GdsConfigStore`.
 */

import { FLIGHT_SUPPLIERS, HOTEL_SUPPLIERS, TRANSFER_SUPPLIERS } from '@travel/contract';
import { environment } from '../internal/config.ts';
import { type FxSource, fxFromEnv } from '../internal/fx.ts';
import { createRefSigner, type RefSigner, refSecretFromEnv } from '../internal/signed-ref.ts';
import { observeSupplier, type SupplierObserverDeps } from '../observability/supplier-observer.ts';
import type { Db } from '../storage/schema.ts';
import { AmadeusFlightAdapter } from './amadeus/index.ts';
import { DuffelFlightAdapter } from './duffel/adapter.ts';
import { DuffelStaysAdapter } from './duffel-stays/adapter.ts';
import { GdsConfigStore, type GdsSettings } from './gds-config.ts';
import { HotelbedsAdapter } from './hotelbeds/index.ts';
import { HotelbedsTransfersAdapter } from './hotelbeds-transfers/adapter.ts';
import { MystiflyAdapter } from './mystifly/index.ts';
import type { PaymentProviderName } from './ports/errors.ts';
import type { FlightSupplier } from './ports/flight.ts';
import type { HotelSupplier } from './ports/hotel.ts';
import type { PaymentProvider } from './ports/payment.ts';
import type { TransferSupplier } from './ports/transfer.ts';
import { SANDBOX_CREDENTIALS, type SandboxSupplier, type SandboxUrls } from './sandbox.ts';
import type { SearchableSupplier, Vertical } from './searchable.ts';
import { signedHotelSupplier, signedTransferSupplier } from './signed-refs.ts';
import { StripeAdapter } from './stripe/index.ts';

export interface SupplierRegistry {
  flight(name: string): FlightSupplier | undefined;
  hotel(name: string): HotelSupplier | undefined;
  transfer(name: string): TransferSupplier | undefined;
  payment(name?: PaymentProviderName): PaymentProvider | undefined;
  flightSuppliers(): FlightSupplier[];
  hotelSuppliers(): HotelSupplier[];
  transferSuppliers(): TransferSupplier[];
  /** For the search engine (`SupplierSource`). */
  searchSuppliers(vertical: Vertical): SearchableSupplier<unknown, unknown>[];
  /** Every built supplier name, by kind. */
  names(): { flight: string[]; hotel: string[]; transfer: string[]; payment: string[] };
  readonly gdsConfig: GdsConfigStore;
  /** The platform's exchange rates (internal/fx.ts): the emulators' table in sandbox, FX_RATES_* in live. */
  readonly fx: FxSource;
}

export interface SupplierRegistryOptions {
  config: { sandbox: boolean; suppliers: string };
  db: Db;
  /** Sandbox: the emulators' URLs (started by a composition root, or SANDBOX_SUPPLIER_URLS). */
  sandboxUrls?: SandboxUrls;
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  /** Per-supplier search defaults below the admin's table rows (tests pin timeouts here). */
  gdsDefaults?: Record<string, Partial<GdsSettings>>;
  /** GDS_CONFIG_CACHE_MS: how long the `gds_config` table is held in memory (default 5 s). */
  gdsConfigCacheMs?: number;
  /** Clock for adapters that check offer/quote expiry (tests align it with the emulators'). */
  now?: () => number;
  /** Signs the rate keys and quote ids clients hand back; default from SUPPLIER_REF_SECRET. */
  refSigner?: RefSigner;
  /** Sandbox without SUPPLIER_REF_SECRET: the secret to sign with (the runtime derives it from the JWT
   * key); default a random per-process one. */
  sandboxRefSecret?: string;
  /** Exchange rates; default from the environment (`fxFromEnv`). */
  fx?: FxSource;
  /** Every call of every adapter logged, measured, traced and recorded for its booking (observability/). */
  observe?: SupplierObserverDeps;
}

class ConfigMissing extends Error {}

/** Credentials of one supplier: sandbox defaults, or env (every listed variable required). */
function creds(
  o: SupplierRegistryOptions,
  supplier: SandboxSupplier,
  liveUrlVar: string,
  liveDefaultUrl: string | undefined,
  vars: Record<string, string>,
  sandbox: Record<string, string>,
): { baseUrl: string } & Record<string, string> {
  if (o.config.sandbox) {
    const baseUrl = o.sandboxUrls?.[supplier];
    if (!baseUrl) throw new ConfigMissing(`no emulator URL for ${supplier}`);
    return { baseUrl, ...sandbox };
  }
  const env = o.env ?? environment();
  const baseUrl = env[liveUrlVar] || liveDefaultUrl;
  if (!baseUrl) throw new ConfigMissing(`${liveUrlVar} is not set`);
  const out: Record<string, string> = { baseUrl };
  for (const [field, name] of Object.entries(vars)) {
    const v = env[name];
    if (!v) throw new ConfigMissing(`${name} is not set`);
    out[field] = v;
  }
  return out as { baseUrl: string } & Record<string, string>;
}

type Builder = (o: SupplierRegistryOptions) => unknown;

const S = SANDBOX_CREDENTIALS;
const clock = (o: SupplierRegistryOptions) => (o.now ? { now: o.now } : {});
const fetchOpt = (o: SupplierRegistryOptions) => (o.fetch ? { fetch: o.fetch } : {});

const BUILDERS: Record<string, Builder> = {
  amadeus: (o) =>
    new AmadeusFlightAdapter({
      ...(creds(
        o,
        'amadeus',
        'AMADEUS_BASE_URL',
        'https://test.api.amadeus.com',
        { clientId: 'AMADEUS_CLIENT_ID', clientSecret: 'AMADEUS_CLIENT_SECRET' },
        S.amadeus,
      ) as { baseUrl: string; clientId: string; clientSecret: string }),
      ...clock(o),
    }),
  duffel: (o) =>
    new DuffelFlightAdapter(
      creds(
        o,
        'duffel',
        'DUFFEL_BASE_URL',
        'https://api.duffel.com',
        { token: 'DUFFEL_TOKEN' },
        S.duffel,
      ) as {
        baseUrl: string;
        token: string;
      },
    ),
  mystifly: (o) =>
    new MystiflyAdapter({
      ...(creds(
        o,
        'mystifly',
        'MYSTIFLY_BASE_URL',
        undefined,
        {
          userName: 'MYSTIFLY_USERNAME',
          password: 'MYSTIFLY_PASSWORD',
          accountNumber: 'MYSTIFLY_ACCOUNT_NUMBER',
        },
        S.mystifly,
      ) as { baseUrl: string; userName: string; password: string; accountNumber: string }),
      target: o.config.sandbox ? 'Test' : 'Production',
      ...fetchOpt(o),
      ...clock(o),
    }),
  hotelbeds: (o) =>
    new HotelbedsAdapter({
      ...(creds(
        o,
        'hotelbeds',
        'HOTELBEDS_BASE_URL',
        'https://api.test.hotelbeds.com',
        { apiKey: 'HOTELBEDS_API_KEY', secret: 'HOTELBEDS_SECRET' },
        S.hotelbeds,
      ) as { baseUrl: string; apiKey: string; secret: string }),
      ...fetchOpt(o),
      ...clock(o),
    }),
  duffel_stays: (o) =>
    new DuffelStaysAdapter({
      ...(creds(
        o,
        'duffel',
        'DUFFEL_BASE_URL',
        'https://api.duffel.com',
        { token: 'DUFFEL_TOKEN' },
        S.duffel,
      ) as {
        baseUrl: string;
        token: string;
      }),
      ...clock(o),
    }),
  hotelbeds_transfers: (o) =>
    new HotelbedsTransfersAdapter({
      ...(creds(
        o,
        'hotelbeds-transfers',
        'HOTELBEDS_TRANSFERS_BASE_URL',
        'https://api.test.hotelbeds.com',
        { apiKey: 'HOTELBEDS_TRANSFERS_API_KEY', secret: 'HOTELBEDS_TRANSFERS_SECRET' },
        S.hotelbeds,
      ) as { baseUrl: string; apiKey: string; secret: string }),
      ...fetchOpt(o),
      ...clock(o),
    }),
  stripe: (o) =>
    new StripeAdapter({
      ...(creds(
        o,
        'stripe',
        'STRIPE_BASE_URL',
        'https://api.stripe.com',
        { secretKey: 'STRIPE_SECRET_KEY' },
        S.stripe,
      ) as {
        baseUrl: string;
        secretKey: string;
      }),
      ...fetchOpt(o),
    }),
};

/**
 * Amadeus transfers share the flight adapter's credentials. Loaded on demand (only when asked for); a
 * failing import is a broken build and propagates, it does not quietly drop the supplier.
 */
async function amadeusTransfersAdapter(o: SupplierRegistryOptions): Promise<unknown> {
  const { AmadeusTransfersAdapter } = await import('./amadeus-transfers/index.ts');
  const c = creds(
    o,
    'amadeus',
    'AMADEUS_BASE_URL',
    'https://test.api.amadeus.com',
    { clientId: 'AMADEUS_CLIENT_ID', clientSecret: 'AMADEUS_CLIENT_SECRET' },
    S.amadeus,
  ) as { baseUrl: string; clientId: string; clientSecret: string };
  return new AmadeusTransfersAdapter({ ...c, ...fetchOpt(o), ...clock(o) });
}

/** Hotel and transfer adapters hand out and take back only references this service signed. */
function signRefs(name: string, adapter: unknown, signer: RefSigner): unknown {
  if ((HOTEL_SUPPLIERS as readonly string[]).includes(name))
    return signedHotelSupplier(adapter as HotelSupplier, signer);
  if ((TRANSFER_SUPPLIERS as readonly string[]).includes(name))
    return signedTransferSupplier(adapter as TransferSupplier, signer);
  return adapter;
}

/** Which suppliers to build: all (sandbox, SUPPLIERS=live) or the listed ones (strict). */
function wanted(o: SupplierRegistryOptions): { names: Set<string> | null; strict: boolean } {
  const v = o.config.suppliers.trim();
  if (o.config.sandbox || v === 'live' || v === '') return { names: null, strict: false };
  return {
    names: new Set(
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    strict: true,
  };
}

export async function createSupplierRegistry(o: SupplierRegistryOptions): Promise<SupplierRegistry> {
  const { names, strict } = wanted(o);
  const signer =
    o.refSigner ??
    createRefSigner(refSecretFromEnv(o.env ?? environment(), o.config.sandbox, o.sandboxRefSecret));
  const built = new Map<string, unknown>();
  const all = [...FLIGHT_SUPPLIERS, ...HOTEL_SUPPLIERS, ...TRANSFER_SUPPLIERS, 'stripe'];
  for (const name of all) {
    if (names && !names.has(name)) continue;
    try {
      const adapter = name === 'amadeus_transfers' ? await amadeusTransfersAdapter(o) : BUILDERS[name]?.(o);
      if (adapter) {
        const seen = o.observe ? observeSupplier(name, adapter as object, o.observe) : adapter;
        built.set(name, signRefs(name, seen, signer));
      }
    } catch (err) {
      // Live mode without a supplier's credentials just leaves it out, unless it was asked for by name.
      if (!(err instanceof ConfigMissing) || strict) throw err;
    }
  }
  const pick = <T>(list: readonly string[]) => list.filter((n) => built.has(n)).map((n) => built.get(n) as T);
  const of = <T>(list: readonly string[], name: string) =>
    list.includes(name) ? (built.get(name) as T | undefined) : undefined;
  const gdsConfig = new GdsConfigStore({
    db: o.db,
    ...(o.gdsDefaults ? { defaults: o.gdsDefaults } : {}),
    ...(o.gdsConfigCacheMs !== undefined ? { cacheMs: o.gdsConfigCacheMs } : {}),
    ...(o.now ? { now: o.now } : {}),
  });
  return {
    flight: (n) => of<FlightSupplier>(FLIGHT_SUPPLIERS, n),
    hotel: (n) => of<HotelSupplier>(HOTEL_SUPPLIERS, n),
    transfer: (n) => of<TransferSupplier>(TRANSFER_SUPPLIERS, n),
    payment: (n = 'stripe') => built.get(n) as PaymentProvider | undefined,
    flightSuppliers: () => pick<FlightSupplier>(FLIGHT_SUPPLIERS),
    hotelSuppliers: () => pick<HotelSupplier>(HOTEL_SUPPLIERS),
    transferSuppliers: () => pick<TransferSupplier>(TRANSFER_SUPPLIERS),
    searchSuppliers: (v) =>
      pick<SearchableSupplier<unknown, unknown>>(
        v === 'flight' ? FLIGHT_SUPPLIERS : v === 'hotel' ? HOTEL_SUPPLIERS : TRANSFER_SUPPLIERS,
      ),
    names: () => ({
      flight: FLIGHT_SUPPLIERS.filter((n) => built.has(n)),
      hotel: HOTEL_SUPPLIERS.filter((n) => built.has(n)),
      transfer: TRANSFER_SUPPLIERS.filter((n) => built.has(n)),
      payment: built.has('stripe') ? ['stripe'] : [],
    }),
    gdsConfig,
    fx: o.fx ?? fxFromEnv(o.env ?? environment(), o.config.sandbox, o.fetch),
  };
}
