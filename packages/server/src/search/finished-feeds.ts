/**
 * A finished search's feed outlives its last reader (event-log.ts): its log can no longer change, so the
 * readers that come after (a popular search's, or the thousands still attaching when it finished, each
 * of whom takes the whole log and `done` and leaves at once) are served from memory, not by one read of
 * the table each. At most KEPT per notifier, the most recently left, each for KEPT_MS at most (checked
 * whenever a feed is left or made; a feed that readers keep coming back to stays, however old). A kept
 * feed holds its events (as every reader of a live search does) and no timer or notifier subscription.
 */
const KEPT = 16;
const KEPT_MS = 30_000;

export class FinishedFeeds<F extends { readonly subscribers: { readonly size: number } }> {
  readonly #kept = new Map<string, { feed: F; since: number }>();
  /** The notifier's feeds by search id: a kept feed stays in it, a forgotten one leaves it. */
  readonly #byId: Map<string, F>;

  constructor(byId: Map<string, F>) {
    this.#byId = byId;
  }

  /** `feed` (finished) has just lost its last reader: keep it, then forget what is too old or too many. */
  keep(searchId: string, feed: F): void {
    this.#kept.delete(searchId);
    this.#kept.set(searchId, { feed, since: performance.now() });
    this.sweep();
  }

  /** A reader came back to the kept feed: it is in use again, not kept. */
  taken(searchId: string): void {
    this.#kept.delete(searchId);
  }

  /** Forgets the oldest kept feeds past KEPT, and any kept longer than KEPT_MS. */
  sweep(): void {
    const now = performance.now();
    for (const [id, k] of this.#kept) {
      if (this.#kept.size <= KEPT && now - k.since < KEPT_MS) break;
      this.#kept.delete(id);
      if (this.#byId.get(id) === k.feed && k.feed.subscribers.size === 0) this.#byId.delete(id);
    }
  }
}
