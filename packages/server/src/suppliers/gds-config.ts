/**
 * Per-supplier search settings (enabled, deadline, max_results, priority). Defaults live here; an admin
 * PATCH writes a row to `gds_config`. The table (a row per supplier an admin changed) is held in memory
 * for `cacheMs` (GDS_CONFIG_CACHE_MS, default 5 s) so a search does not read it when it starts: a change
 * takes effect for the next search on the process that made it at once, on every other process sharing
 * the database within `cacheMs`.
 */
import type { ColumnType, Kysely } from 'kysely';
import type { Db } from '../storage/schema.ts';

/** Table `gds_config` (migration 0010): one row per supplier an admin has changed. */
export interface GdsConfigTable {
  provider: string;
  enabled: boolean;
  timeout_ms: number;
  max_results: number;
  priority: number;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

const gdsDb = (db: Db | Kysely<unknown>): Kysely<{ gds_config: GdsConfigTable }> =>
  (db as Db).withTables<{ gds_config: GdsConfigTable }>() as never;

export interface GdsSettings {
  enabled: boolean;
  timeout_ms: number;
  max_results: number;
  /** 0..100, larger first: orders suppliers in results and events; all still run concurrently. */
  priority: number;
}

export const DEFAULT_GDS_SETTINGS: GdsSettings = {
  enabled: true,
  timeout_ms: 20_000,
  max_results: 100,
  priority: 50,
};

export class GdsConfigStore {
  readonly #db: Db;
  readonly #defaults: Record<string, Partial<GdsSettings>>;
  readonly #cacheMs: number;
  readonly #now: () => number;
  /** Every row of the table, as read at `#readAt`; undefined when not held. */
  #rows: Map<string, GdsSettings> | undefined;
  #readAt = 0;
  #reading: Promise<Map<string, GdsSettings>> | undefined;
  /** Bumped by every write: a read that started before it does not fill the cache. */
  #generation = 0;

  /** `defaults`: per-supplier overrides of DEFAULT_GDS_SETTINGS (from env or tests), below table rows. */
  constructor(opts: {
    db: Db;
    defaults?: Record<string, Partial<GdsSettings>>;
    /** How long the table is held in memory (0: read on every call). */
    cacheMs?: number;
    now?: () => number;
  }) {
    this.#db = opts.db;
    this.#defaults = opts.defaults ?? {};
    this.#cacheMs = opts.cacheMs ?? 5000;
    this.#now = opts.now ?? Date.now;
  }

  base(provider: string): GdsSettings {
    return { ...DEFAULT_GDS_SETTINGS, ...this.#defaults[provider] };
  }

  /** Settings of every named supplier: table row if any, else the defaults. */
  async all(providers: readonly string[]): Promise<Record<string, GdsSettings>> {
    const out: Record<string, GdsSettings> = {};
    if (providers.length === 0) return out;
    const rows = await this.#table();
    for (const p of providers) out[p] = { ...(rows.get(p) ?? this.base(p)) };
    return out;
  }

  async get(provider: string): Promise<GdsSettings> {
    return (await this.all([provider]))[provider] as GdsSettings;
  }

  /** Merges `patch` into the current settings and stores the result (upsert). */
  async update(provider: string, patch: Partial<GdsSettings>): Promise<GdsSettings> {
    // The current row from the table itself, not from the cache: another process may have changed it.
    this.#forget();
    const next = { ...(await this.get(provider)), ...patch };
    try {
      await gdsDb(this.#db)
        .insertInto('gds_config')
        .values({ provider, ...next, updated_at: new Date() })
        .onConflict((oc) => oc.column('provider').doUpdateSet({ ...next, updated_at: new Date() }))
        .execute();
    } finally {
      this.#forget();
    }
    return next;
  }

  #forget(): void {
    this.#generation += 1;
    this.#rows = undefined;
    this.#reading = undefined;
  }

  #table(): Promise<Map<string, GdsSettings>> {
    if (this.#rows && this.#now() - this.#readAt < this.#cacheMs) return Promise.resolve(this.#rows);
    if (this.#reading) return this.#reading;
    const generation = this.#generation;
    const readAt = this.#now();
    const reading = gdsDb(this.#db)
      .selectFrom('gds_config')
      .selectAll()
      .execute()
      .then((rows) => {
        const m = new Map<string, GdsSettings>();
        for (const r of rows) {
          m.set(r.provider, {
            enabled: r.enabled,
            timeout_ms: r.timeout_ms,
            max_results: r.max_results,
            priority: r.priority,
          });
        }
        if (generation === this.#generation && this.#cacheMs > 0) {
          this.#rows = m;
          this.#readAt = readAt;
        }
        return m;
      })
      .finally(() => {
        if (this.#reading === reading) this.#reading = undefined;
      });
    this.#reading = reading;
    return reading;
  }
}
