/**
 * The password-hash queue (issue 28): at most `slots` hashes run at once in this process
 * (PASSWORD_HASH_CONCURRENCY), and the ones waiting are served fairly across clients: one FIFO lane per
 * client address, and a free slot goes to the next lane in turn (round robin), not to the oldest waiter.
 * A flood from one address therefore costs another address at most one hash per other busy lane (plus
 * the hashes already running) of waiting, however long the flooding lane is. Each lane is bounded
 * (PASSWORD_HASH_QUEUE_PER_CLIENT): past it the hash is refused at once (`HashQueueFull`), so one client
 * cannot queue unbounded work or memory.
 */
export class HashQueueFull extends Error {
  constructor() {
    super('too many password checks waiting from this client');
    this.name = 'HashQueueFull';
  }
}

export class FairGate {
  #free: number;
  readonly #perClient: number;
  /** Waiting lanes in turn order; a lane is removed when it empties. */
  readonly #lanes = new Map<string, (() => void)[]>();

  constructor(slots: number, perClient: number) {
    this.#free = Math.max(1, slots);
    this.#perClient = Math.max(1, perClient);
  }

  async run<T>(client: string, fn: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else {
      let lane = this.#lanes.get(client);
      if (lane && lane.length >= this.#perClient) throw new HashQueueFull();
      if (!lane) {
        lane = [];
        this.#lanes.set(client, lane);
      }
      const queued = lane;
      await new Promise<void>((resolve) => queued.push(resolve));
    }
    try {
      return await fn();
    } finally {
      this.#handOver();
    }
  }

  /** Gives the freed slot to the first waiter of the next lane, which then goes to the back of the turn. */
  #handOver(): void {
    for (const [client, lane] of this.#lanes) {
      const next = lane.shift();
      this.#lanes.delete(client);
      if (lane.length > 0) this.#lanes.set(client, lane);
      if (next) {
        next();
        return;
      }
    }
    this.#free++;
  }

  get waiting(): number {
    let n = 0;
    for (const lane of this.#lanes.values()) n += lane.length;
    return n;
  }
}
