/**
 * The sandbox's foreign-exchange table: fixed reference rates, units of each currency per 1 EUR, in the
 * shape of the ECB's daily reference rates (base EUR). Deterministic, so a search in KWD converts a
 * Hotelbeds EUR price to the same fils every time. One source for both sides of the sandbox: the server
 * converts with it in sandbox mode (`internal/fx.ts`) and the emulators price with it
 * (`@travel/mock-server`, which also renders it as the ECB's XML).
 *
 * Pure data, no imports. Not exported from the package index (the SDK does not need it): import
 * `@travel/contract/sandbox-fx`.
 */
export interface FxTable {
  /** The currency every rate is quoted against (1 base = rate units of the currency). */
  base: string;
  /** The reference date of the rates (YYYY-MM-DD). */
  date: string;
  rates: Record<string, number>;
}

export const SANDBOX_FX_RATES: FxTable = Object.freeze({
  base: 'EUR',
  date: '2026-11-24',
  rates: Object.freeze({
    EUR: 1,
    USD: 1.0812,
    GBP: 0.8531,
    BDT: 129.17,
    SAR: 4.0545,
    AED: 3.9707,
    BHD: 0.40653,
    QAR: 3.9356,
    KWD: 0.33202,
    OMR: 0.41571,
    PKR: 301.12,
    INR: 90.21,
    MYR: 4.8612,
    SGD: 1.4503,
    LKR: 316.4,
  }),
}) as FxTable;
