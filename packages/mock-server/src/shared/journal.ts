/**
 * Durable emulator state: each supplier's records survive a restart of the process (README, "State on
 * disk"). Per supplier, in `dir`: `<name>.snapshot.json` (written to a temporary file, then renamed) and
 * `<name>.journal.ndjson`, an append-only log of the records each request changed, written before the
 * answer leaves the emulator. Start-up reads the snapshot, applies the journal (a torn last line, from a
 * kill in the middle of a write, is skipped), writes a new snapshot and empties the journal.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { TrackedMap } from './tracked-map.ts';

type AnyMap = TrackedMap<unknown, unknown>;

/** What of a supplier's state is durable: named maps, and scalars such as id counters. */
export interface DurableSpec {
  maps: Record<string, AnyMap>;
  scalars?: Record<string, { get(): unknown; set(value: unknown): void }>;
  /** Runs once after loading (drop what cannot outlive a process, advance generators). */
  afterLoad?: () => void;
  /**
   * Drops what nobody can come back for any more (expired offers, quotes, sessions): before every snapshot,
   * so the state on disk follows the live records, not the number of searches ever made.
   */
  prune?: () => void;
}

/** A journal longer than this is folded into a new snapshot while the emulator runs. */
const MAX_JOURNAL_BYTES = 64 * 1024 * 1024;

interface Touches {
  keys: Map<AnyMap, Set<unknown>>;
}

const SNAPSHOT_VERSION = 1;

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Set) return { $set: [...value] };
  if (value instanceof Map) return { $map: [...value] };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as { $set?: unknown[]; $map?: [unknown, unknown][] };
    if (Array.isArray(v.$set) && Object.keys(v).length === 1) return new Set(v.$set);
    if (Array.isArray(v.$map) && Object.keys(v).length === 1) return new Map(v.$map);
  }
  return value;
}

const encode = (value: unknown): string => JSON.stringify(value, replacer) ?? 'null';

export class SupplierJournal {
  readonly #spec: DurableSpec;
  readonly #snapshot: string;
  readonly #journal: string;
  readonly #names = new Map<AnyMap, string>();
  /** The JSON last written per map and key: a record is appended only when it changed. */
  readonly #written = new Map<AnyMap, Map<unknown, string>>();
  readonly #scalarsWritten = new Map<string, string>();
  readonly #scope = new AsyncLocalStorage<Touches>();
  /** Touches of requests still running (the periodic flush writes them too) and of no request. */
  readonly #live = new Set<Touches>();
  readonly #background: Touches = { keys: new Map() };
  #fd: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #journalBytes = 0;

  constructor(dir: string, name: string, spec: DurableSpec) {
    this.#spec = spec;
    mkdirSync(dir, { recursive: true });
    this.#snapshot = join(dir, `${name}.snapshot.json`);
    this.#journal = join(dir, `${name}.journal.ndjson`);
    for (const [n, map] of Object.entries(spec.maps)) {
      this.#names.set(map, n);
      this.#written.set(map, new Map());
    }
  }

  /** Loads the snapshot and journal into the maps, compacts them, and starts observing. */
  open(flushEveryMs = 500): void {
    this.#load();
    this.#spec.afterLoad?.();
    this.#compact();
    this.#fd = openSync(this.#journal, 'a');
    this.#journalBytes = 0;
    const touches = this.#scope;
    const background = this.#background;
    const observer = {
      touch: (map: AnyMap, key: unknown) => {
        const t = touches.getStore() ?? background;
        const keys = t.keys.get(map) ?? new Set();
        t.keys.set(map, keys);
        keys.add(key);
      },
      cleared: (map: AnyMap) => {
        this.#written.get(map)?.clear();
        this.#append([`{"m":${JSON.stringify(this.#names.get(map))},"c":1}`]);
      },
    };
    for (const map of this.#names.keys()) map.observer = observer;
    this.#timer = setInterval(() => this.flush(), flushEveryMs);
    this.#timer.unref();
  }

  /**
   * Runs one request: every record it reads or writes is journalled when it ends, before its answer is
   * written (a request that hangs is journalled by the periodic flush meanwhile).
   */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#fd === undefined) return fn();
    const touches: Touches = { keys: new Map() };
    this.#live.add(touches);
    try {
      return await this.#scope.run(touches, fn);
    } finally {
      this.#live.delete(touches);
      this.#write(touches);
      this.#writeScalars();
    }
  }

  /** Writes what changed so far: requests in flight, work outside requests, counters. */
  flush(): void {
    if (this.#fd === undefined) return;
    for (const t of this.#live) this.#write(t, false);
    this.#write(this.#background);
    this.#writeScalars();
  }

  close(): void {
    if (this.#fd === undefined) return;
    clearInterval(this.#timer);
    this.flush();
    closeSync(this.#fd);
    this.#fd = undefined;
    for (const map of this.#names.keys()) map.observer = undefined;
  }

  #write(t: Touches, done = true): void {
    const lines: string[] = [];
    for (const [map, keys] of t.keys) {
      const name = JSON.stringify(this.#names.get(map));
      const written = this.#written.get(map) as Map<unknown, string>;
      for (const key of keys) {
        if (map.has(key)) {
          const json = encode(map.peek(key));
          if (written.get(key) === json) continue;
          written.set(key, json);
          lines.push(`{"m":${name},"k":${encode(key)},"v":${json}}`);
        } else if (written.has(key)) {
          written.delete(key);
          lines.push(`{"m":${name},"k":${encode(key)},"d":1}`);
        }
      }
    }
    if (done) t.keys.clear();
    this.#append(lines);
  }

  #writeScalars(): void {
    const lines: string[] = [];
    for (const [name, s] of Object.entries(this.#spec.scalars ?? {})) {
      const json = encode(s.get());
      if (this.#scalarsWritten.get(name) === json) continue;
      this.#scalarsWritten.set(name, json);
      lines.push(`{"s":${JSON.stringify(name)},"v":${json}}`);
    }
    this.#append(lines);
  }

  #append(lines: string[]): void {
    if (lines.length === 0 || this.#fd === undefined) return;
    // One write per batch; no fsync: a killed process loses nothing the kernel already has (README).
    this.#journalBytes += writeSync(this.#fd, `${lines.join('\n')}\n`);
    if (this.#journalBytes > MAX_JOURNAL_BYTES) {
      closeSync(this.#fd);
      this.#compact();
      this.#fd = openSync(this.#journal, 'a');
      this.#journalBytes = 0;
    }
  }

  #load(): void {
    const apply = (rec: { m?: string; k?: unknown; v?: unknown; d?: 1; c?: 1; s?: string }): void => {
      if (rec.s !== undefined) {
        this.#spec.scalars?.[rec.s]?.set(rec.v);
        return;
      }
      const map = rec.m === undefined ? undefined : this.#spec.maps[rec.m];
      if (!map) return;
      if (rec.c) map.clear();
      else if (rec.d) map.delete(rec.k);
      else map.set(rec.k, rec.v);
    };
    if (existsSync(this.#snapshot)) {
      const snap = JSON.parse(readFileSync(this.#snapshot, 'utf8'), reviver) as {
        version: number;
        maps: Record<string, [unknown, unknown][]>;
        scalars: Record<string, unknown>;
      };
      if (snap.version !== SNAPSHOT_VERSION)
        throw new Error(`${this.#snapshot}: unknown version ${snap.version}`);
      for (const [m, entries] of Object.entries(snap.maps)) for (const [k, v] of entries) apply({ m, k, v });
      for (const [s, v] of Object.entries(snap.scalars)) apply({ s, v });
    }
    if (!existsSync(this.#journal)) return;
    for (const line of readFileSync(this.#journal, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        apply(JSON.parse(line, reviver));
      } catch {
        // A line torn by a kill mid-write: what it held was never answered to anyone.
      }
    }
  }

  /** New snapshot (temporary file, fsync, rename), then an empty journal. */
  #compact(): void {
    this.#spec.prune?.();
    const maps: Record<string, [unknown, unknown][]> = {};
    for (const [name, map] of Object.entries(this.#spec.maps)) {
      maps[name] = [...map.entries()];
      const written = this.#written.get(map) as Map<unknown, string>;
      written.clear();
      for (const [k, v] of map.entries()) written.set(k, encode(v));
    }
    const scalars: Record<string, unknown> = {};
    for (const [name, s] of Object.entries(this.#spec.scalars ?? {})) {
      scalars[name] = s.get();
      this.#scalarsWritten.set(name, encode(scalars[name]));
    }
    const tmp = `${this.#snapshot}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, encode({ version: SNAPSHOT_VERSION, maps, scalars }));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.#snapshot);
    // Truncated only after the rename: a crash in between replays the journal over a snapshot that already
    // holds it, which changes nothing (each line is a whole record).
    closeSync(openSync(this.#journal, 'w'));
  }
}
