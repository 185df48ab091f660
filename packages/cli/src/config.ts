/**
 * Stored settings: named profiles (each with its base URL and credentials) and the booking journal. The
 * interface is what commands see; `createConfStore` backs it with conf in a user-only (0600) file.
 */
import Conf from 'conf';

/** One named environment (default, staging, ...). */
export interface Profile {
  base_url?: string;
  token?: string;
  refresh_token?: string;
  email?: string;
  company_code?: string;
  user_code?: string;
  currency?: string;
  payment_mode?: string;
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
  clearCredentials(name: string): void;
  listProfiles(): Record<string, Profile>;
  getJournal(key: string): JournalEntry | undefined;
  setJournal(key: string, entry: JournalEntry): void;
}

interface Stored {
  profiles: Record<string, Profile>;
}

/**
 * conf-backed store. `TRAVEL_CONFIG_DIR` moves it (tests, CI caches); otherwise conf picks the platform's
 * config directory. Mode 0600: the file holds bearer tokens.
 */
export function createConfStore(env: NodeJS.ProcessEnv): ConfigStore {
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
      const { token: _t, refresh_token: _r, ...rest } = all[name] ?? {};
      settings.set('profiles', { ...all, [name]: rest });
    },
    listProfiles: profiles,
    // Journal keys are hashes: conf treats dots as paths, hex has none.
    getJournal: (key) => journal.get(key),
    setJournal: (key, entry) => journal.set(key, entry),
  };
}

/** An in-memory store (tests). */
export function createMemoryStore(initial: Record<string, Profile> = {}): ConfigStore {
  const profiles: Record<string, Profile> = structuredClone(initial);
  const journal = new Map<string, JournalEntry>();
  return {
    path: '(memory)',
    getProfile: (name) => ({ ...profiles[name] }),
    updateProfile(name, patch) {
      profiles[name] = { ...profiles[name], ...patch };
    },
    clearCredentials(name) {
      const { token: _t, refresh_token: _r, ...rest } = profiles[name] ?? {};
      profiles[name] = rest;
    },
    listProfiles: () => structuredClone(profiles),
    getJournal: (key) => journal.get(key),
    setJournal: (key, entry) => void journal.set(key, entry),
  };
}
