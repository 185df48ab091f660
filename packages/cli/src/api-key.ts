/** API keys as the CLI shows them: never whole, only the public prefix the server also shows. */

/** The part of a key that is safe to show (`tk_test_` or `tk_live_` and the next characters). */
export function keyPrefix(key: string): string {
  const match = /^(tk_(?:test|live)_[A-Za-z0-9]{0,6})/.exec(key);
  return match?.[1] ?? key.slice(0, 6);
}
