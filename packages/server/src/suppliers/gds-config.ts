/**
 * Per-supplier search settings (enabled, deadline, max_results, priority). Defaults live here; an admin
 * PATCH writes a row to `gds_config`, and every search reads the table when it starts, so a change takes
 * effect for the next search on every process sharing the database.
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

  /** `defaults`: per-supplier overrides of DEFAULT_GDS_SETTINGS (from env or tests), below table rows. */
  constructor(opts: { db: Db; defaults?: Record<string, Partial<GdsSettings>> }) {
    this.#db = opts.db;
    this.#defaults = opts.defaults ?? {};
  }

  base(provider: string): GdsSettings {
    return { ...DEFAULT_GDS_SETTINGS, ...this.#defaults[provider] };
  }

  /** Settings of every named supplier: table row if any, else the defaults. */
  async all(providers: readonly string[]): Promise<Record<string, GdsSettings>> {
    const out: Record<string, GdsSettings> = {};
    for (const p of providers) out[p] = this.base(p);
    if (providers.length === 0) return out;
    const rows = await gdsDb(this.#db)
      .selectFrom('gds_config')
      .selectAll()
      .where('provider', 'in', [...providers])
      .execute();
    for (const r of rows) {
      out[r.provider] = {
        enabled: r.enabled,
        timeout_ms: r.timeout_ms,
        max_results: r.max_results,
        priority: r.priority,
      };
    }
    return out;
  }

  async get(provider: string): Promise<GdsSettings> {
    return (await this.all([provider]))[provider] as GdsSettings;
  }

  /** Merges `patch` into the current settings and stores the result (upsert). */
  async update(provider: string, patch: Partial<GdsSettings>): Promise<GdsSettings> {
    const next = { ...(await this.get(provider)), ...patch };
    await gdsDb(this.#db)
      .insertInto('gds_config')
      .values({ provider, ...next, updated_at: new Date() })
      .onConflict((oc) => oc.column('provider').doUpdateSet({ ...next, updated_at: new Date() }))
      .execute();
    return next;
  }
}
