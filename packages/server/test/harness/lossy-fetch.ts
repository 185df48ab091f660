/**
 * A fetch for a provider client whose next answer can be lost after the provider acted on it: the call
 * reaches the emulator, then the caller sees a reset (`loseNextAnswer()` arms it once).
 */
export function lossyFetch(): { fetch: typeof fetch; loseNextAnswer(): void } {
  let armed = false;
  return {
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (armed) {
        armed = false;
        await res.arrayBuffer();
        throw new TypeError('fetch failed: socket hang up');
      }
      return res;
    },
    loseNextAnswer: () => {
      armed = true;
    },
  };
}
