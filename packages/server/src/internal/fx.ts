/**
 * Foreign exchange: the platform's rates table, and the one conversion every price goes through when a
 * supplier prices in another currency than the caller asked for (contracts.md §6).
 *
 * Rates are quoted against a base (1 base = `rates[c]` units of c), like the ECB's reference rates. The
 * rate between two currencies is the cross rate, rounded to 6 significant digits: that rounded number is
 * the `fx_rate` shown beside a converted price and stored with the offer, and the conversion uses exactly
 * it, so `supplier_price × fx_rate` reproduces `price` to the minor unit.
 *
 * Sources: sandbox mode uses the fixed table the emulators price with too (@travel/contract/sandbox-fx
 * SANDBOX_FX_RATES). Live mode reads `FX_RATES_FILE` or fetches `FX_RATES_URL` (refreshed every
 * `FX_RATES_TTL_SECONDS`, keeping the last good table when a refresh fails), in either format:
 * - JSON `{ "base": "EUR", "date": "2026-11-24", "rates": { "USD": 1.0812, "GBP": 0.8531, … } }`
 * - the ECB's eurofxref XML (`<Cube currency='USD' rate='1.0812'/>`, base EUR).
 * Live mode without a source converts nothing: an offer priced in another currency is not shown.
 */
import { readFile } from 'node:fs/promises';
import { SANDBOX_FX_RATES } from '@travel/contract/sandbox-fx';
import { exponent, roundHalfAway } from './money.ts';

export interface FxTable {
  base: string;
  date?: string;
  rates: Record<string, number>;
}

/** No rate between two currencies (no table, or a currency missing from it). */
export class FxUnavailable extends Error {}

/** Significant digits of a published `fx_rate`. */
export const FX_RATE_DIGITS = 6;

/**
 * `minor` of `from` in `to` at `rate` (units of `to` per 1 `from`), rounded half away from zero to the
 * minor unit of `to`: 10000 EUR cents at 0.33202 → 33202 fils (EUR 100.00 = KWD 33.202).
 */
export function convertMinor(minor: number, from: string, to: string, rate: number): number {
  return roundHalfAway(exactConversion(minor, from, to, rate));
}

/** The unrounded amount of `to` minor units that `minor` of `from` is worth at `rate`. */
export function exactConversion(minor: number, from: string, to: string, rate: number): number {
  return minor * rate * 10 ** (exponent(to) - exponent(from));
}

export class FxRates {
  readonly #rates = new Map<string, number>();
  readonly table: FxTable;
  /** Where the table came from (for logs): "sandbox", a file path or a URL. */
  readonly source: string;
  constructor(table: FxTable, source: string) {
    this.table = table;
    this.source = source;
    this.#rates.set(table.base.toUpperCase(), 1);
    for (const [c, r] of Object.entries(table.rates)) {
      if (Number.isFinite(r) && r > 0) this.#rates.set(c.toUpperCase(), r);
    }
  }

  has(currency: string): boolean {
    return this.#rates.has(currency.toUpperCase());
  }

  /** Units of `to` per 1 unit of `from`, rounded to FX_RATE_DIGITS significant digits. */
  rate(from: string, to: string): number {
    if (from.toUpperCase() === to.toUpperCase()) return 1;
    const f = this.#rates.get(from.toUpperCase());
    const t = this.#rates.get(to.toUpperCase());
    if (f === undefined || t === undefined)
      throw new FxUnavailable(`no exchange rate from ${from} to ${to} (${this.source})`);
    return Number((t / f).toPrecision(FX_RATE_DIGITS));
  }

  /** `minor` of `from` converted to `to`, with the rate used. */
  convert(minor: number, from: string, to: string): { amount_minor: number; fx_rate: number } {
    const fx_rate = this.rate(from, to);
    return { amount_minor: convertMinor(minor, from, to, fx_rate), fx_rate };
  }
}

/** A table that converts nothing (live mode without a configured source). */
export const NO_RATES = new FxRates({ base: 'EUR', rates: {} }, 'none');

/** JSON `{base, rates}` or ECB eurofxref XML to a table; throws on anything else. */
export function parseFxRates(text: string): FxTable {
  const t = text.trim();
  if (t.startsWith('{')) {
    const j = JSON.parse(t) as { base?: unknown; date?: unknown; rates?: unknown };
    if (typeof j.base !== 'string' || !j.rates || typeof j.rates !== 'object')
      throw new Error('FX rates JSON needs {"base": "EUR", "rates": {"USD": 1.08, …}}');
    const rates: Record<string, number> = {};
    for (const [c, r] of Object.entries(j.rates as Record<string, unknown>)) {
      const n = typeof r === 'string' ? Number(r) : r;
      if (typeof n === 'number' && Number.isFinite(n) && n > 0) rates[c.toUpperCase()] = n;
    }
    return { base: j.base.toUpperCase(), ...(typeof j.date === 'string' ? { date: j.date } : {}), rates };
  }
  if (t.startsWith('<')) {
    const rates: Record<string, number> = {};
    for (const m of t.matchAll(/currency=['"]([A-Za-z]{3})['"]\s+rate=['"]([0-9.]+)['"]/g)) {
      rates[(m[1] as string).toUpperCase()] = Number(m[2]);
    }
    if (Object.keys(rates).length === 0) throw new Error('no <Cube currency=… rate=…/> in the FX rates XML');
    const date = /time=['"](\d{4}-\d{2}-\d{2})['"]/.exec(t)?.[1];
    return { base: 'EUR', ...(date ? { date } : {}), rates };
  }
  throw new Error('FX rates must be JSON {base, rates} or ECB eurofxref XML');
}

/** Where the current rates come from. */
export interface FxSource {
  rates(): Promise<FxRates>;
}

export const staticFx = (rates: FxRates): FxSource => ({ rates: async () => rates });

export const sandboxFx = (): FxSource => staticFx(new FxRates(SANDBOX_FX_RATES, 'sandbox'));

/** A file or URL re-read every `ttlMs`; the last good table stays in use when a refresh fails. */
export function refreshingFx(o: {
  load: () => Promise<string>;
  source: string;
  ttlMs: number;
  now?: () => number;
  onError?: (err: unknown) => void;
}): FxSource {
  const now = o.now ?? Date.now;
  let current: FxRates | null = null;
  let loadedAt = 0;
  let inflight: Promise<FxRates> | null = null;
  const refresh = async (): Promise<FxRates> => {
    try {
      current = new FxRates(parseFxRates(await o.load()), o.source);
      loadedAt = now();
      return current;
    } catch (err) {
      o.onError?.(err);
      if (current) return current;
      throw new FxUnavailable(`FX rates unavailable from ${o.source}: ${(err as Error).message}`);
    } finally {
      inflight = null;
    }
  };
  return {
    rates() {
      if (current && now() - loadedAt < o.ttlMs) return Promise.resolve(current);
      inflight ??= refresh();
      return inflight;
    },
  };
}

/** Sandbox: the emulators' table. Live: FX_RATES_FILE, else FX_RATES_URL, else no conversion. */
export function fxFromEnv(
  env: NodeJS.ProcessEnv,
  sandbox: boolean,
  fetchImpl: typeof fetch = fetch,
  onError?: (err: unknown) => void,
): FxSource {
  // 0 re-reads the source on every search and revalidation (development and tests).
  const raw = env.FX_RATES_TTL_SECONDS;
  const ttl = raw === undefined || raw === '' ? 3600 : Number(raw);
  const ttlMs = Number.isFinite(ttl) && ttl >= 0 ? ttl * 1000 : 3_600_000;
  const file = env.FX_RATES_FILE;
  const url = env.FX_RATES_URL;
  if (file)
    return refreshingFx({
      load: () => readFile(file, 'utf8'),
      source: file,
      ttlMs,
      ...(onError ? { onError } : {}),
    });
  if (url) {
    return refreshingFx({
      load: async () => {
        const res = await fetchImpl(url, { signal: AbortSignal.timeout(10_000) });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return res.text();
      },
      source: url,
      ttlMs,
      ...(onError ? { onError } : {}),
    });
  }
  return sandbox ? sandboxFx() : staticFx(NO_RATES);
}
