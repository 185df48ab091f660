/**
 * Money in the emulators: the contract's one currency table (ISO 4217 exponents), so that an emulator
 * writes "55.000" for KWD 55 and "55.00" for GBP 55 exactly as the server reads them.
 */
export { minorPerMajor, minorUnits } from '@travel/contract/currencies';

import { minorPerMajor, toDecimalString, toMinorUnits } from '@travel/contract/currencies';

/** Fixed-point money text as suppliers send it ("123.45", "55.000"), from minor units. */
export function moneyText(minor: number, currency: string): string {
  return toDecimalString(Math.round(minor), currency);
}

/** A supplier's decimal text ("123.45") to minor units of `currency`. */
export function textToMinor(amount: string | number | null | undefined, currency: string): number {
  return toMinorUnits(amount ?? 0, currency);
}

/** `major` whole units of `currency` in minor units (25 GBP → 2500, 25 KWD → 25000). */
export function wholeUnits(major: number, currency: string): number {
  return Math.round(major) * minorPerMajor(currency);
}
