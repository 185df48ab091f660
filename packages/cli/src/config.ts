/**
 * Stored settings: named profiles (each with its base URL and credentials) and the booking journal. The
 * interface is what commands see; `createConfStore` backs it with conf in a user-only (0600) file.
 */
import { createRequire } from 'node:module';
import type ConfClass from 'conf';
import { withFileLock } from './file-lock.ts';

/** One named environment (default, staging, ...). */
export interface Profile {
  base_url?: string;
  token?: string;
  refresh_token?: string;
  /** When the refresh token expires (ISO instant, from the server's `refresh_expires_in`). */
  refresh_expires_at?: string;
  /** An API key (`travel login --api-key`); used instead of a session when present. */
  api_key?: string;
  /** When the CLI last found the session ended (refresh refused): `config list` says so. */
  session_ended_at?: string;
  email?: string;
  company_code?: string;
  user_code?: string;
  currency?: string;
  payment_mode?: string;
  /** `travel listen --forward-to` signs with it (made on first use; `listen --print-secret` prints it). */
  listen_secret?: string;
}

/** Keys `travel config set` accepts; credentials are only written by `travel login`. */
export const SETTABLE_KEYS = [
  'base_url',
  'company_code',
  'user_code',
  'currency',
  'payment_mode',
] as const satisfies (keyof Profile)[];
export type SettableKey = (typeof SETTABLE_KEYS)[number];

/** What `travel book` remembers about an idempotency key it used. */
export interface JournalEntry {
  idempotencyKey: string;
  offerId: string;
  createdAt: string;
  bookingId?: number;
  pnr?: string | null;
  status?: string;
}

export interface ConfigStore {
  /** The file the settings live in (shown by `config list`). */
  readonly path: string;
  getProfile(name: string): Profile;
  updateProfile(name: string, patch: Partial<Profile>): void;
  /** Forgets the token, refresh token and API key of a profile (the rest stays). */
  clearCredentials(name: string): void;
  listProfiles(): Record<string, Profile>;
  /**
   * Runs `fn` holding the profile file's lock, so that one process at a time rotates the refresh token
   * (a second rotation with the spent token would look like reuse and end the session).
   */
  lock<T>(fn: () => Promise<T>): Promise<T>;
  getJournal(key: string): JournalEntry | undefined;
  setJournal(key: string, entry: JournalEntry): void;
  /** Forgets a key whose request the server refused (nothing was booked with it). */
  deleteJournal(key: string): void;
  /** The profile `travel config use` chose (used when neither --profile nor TRAVEL_PROFILE is given). */
  getCurrentProfile(): string | undefined;
  setCurrentProfile(name: string): void;
}

interface Stored {
  profiles: Record<string, Profile>;
  current_profile?: string;
}

/**
 * conf-backed store. `TRAVEL_CONFIG_DIR` moves it (tests, CI caches); otherwise conf picks the platform's
 * config directory. Mode 0600: the file holds bearer tokens.
 */
export function createConfStore(env: NodeJS.ProcessEnv): ConfigStore {
  // Loaded on first use (conf brings ajv and semver): `travel --help` never pays for it. conf is an ES
  // module; Node ≥ 22.12 requires those synchronously (the same instance `import` would give).
  const Conf = (createRequire(import.meta.url)('conf') as { default: typeof ConfClass }).default;
  const cwd = env.TRAVEL_CONFIG_DIR || undefined;
  const common = { projectName: 'travel', projectSuffix: '', configFileMode: 0o600, ...(cwd ? { cwd } : {}) };
  const settings = new Conf<Stored>({ ...common, configName: 'config', defaults: { profiles: {} } });
  const journal = new Conf<Record<string, JournalEntry>>({ ...common, configName: 'journal' });
  const profiles = () => settings.get('profiles') ?? {};
  return {
    path: settings.path,
    getProfile: (name) => ({ ...profiles()[name] }),
    updateProfile(name, patch) {
      const all = profiles();
      const next: Profile = { ...all[name], ...patch };
      for (const key of Object.keys(next) as (keyof Profile)[]) if (next[key] === undefined) delete next[key];
      settings.set('profiles', { ...all, [name]: next });
    },
    clearCredentials(name) {
      const all = profiles();
      const { token: _t, refresh_token: _r, refresh_expires_at: _e, api_key: _k, ...rest } = all[name] ?? {};
      settings.set('profiles', { ...all, [name]: rest });
    },
    listProfiles: profiles,
    lock: (fn) => withFileLock(`${settings.path}.lock`, fn),
    // Journal keys are hashes: conf treats dots as paths, hex has none.
    getJournal: (key) => journal.get(key),
    setJournal: (key, entry) => journal.set(key, entry),
    deleteJournal: (key) => journal.delete(key),
    getCurrentProfile: () => settings.get('current_profile'),
    setCurrentProfile: (name) => settings.set('current_profile', name),
  };
}

/** An in-memory store (tests). */
export function createMemoryStore(initial: Record<string, Profile> = {}): ConfigStore {
  const profiles: Record<string, Profile> = structuredClone(initial);
  const journal = new Map<string, JournalEntry>();
  let current: string | undefined;
  return {
    path: '(memory)',
    getProfile: (name) => ({ ...profiles[name] }),
    updateProfile(name, patch) {
      const next: Profile = { ...profiles[name], ...patch };
      for (const key of Object.keys(next) as (keyof Profile)[]) if (next[key] === undefined) delete next[key];
      profiles[name] = next;
    },
    clearCredentials(name) {
      const {
        token: _t,
        refresh_token: _r,
        refresh_expires_at: _e,
        api_key: _k,
        ...rest
      } = profiles[name] ?? {};
      profiles[name] = rest;
    },
    listProfiles: () => structuredClone(profiles),
    // One process: the in-process single flight is enough; still serialise, like the file lock.
    lock: (() => {
      let tail: Promise<unknown> = Promise.resolve();
      return <T>(fn: () => Promise<T>): Promise<T> => {
        const run = tail.then(fn, fn);
        tail = run.catch(() => undefined);
        return run;
      };
    })(),
    getJournal: (key) => journal.get(key),
    setJournal: (key, entry) => void journal.set(key, entry),
    deleteJournal: (key) => void journal.delete(key),
    getCurrentProfile: () => current,
    setCurrentProfile: (name) => {
      current = name;
    },
  };
}
