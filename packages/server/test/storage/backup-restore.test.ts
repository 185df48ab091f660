/**
 * `pnpm backup` while bookings are being written, then `pnpm restore` into a fresh DATA_DIR (PGlite) or
 * a fresh database (PostgreSQL, when TEST_DATABASE_URL is set), and the service started on it: every
 * booking acknowledged before the backup began is there and reads as it was answered, a token issued
 * before the backup still works (on PGlite the sandbox JWT key travels in the backup), and the restored
 * service books. The production entry and the real commands run as child processes; the supplier
 * emulators run in this process, so their orders outlive both servers.
 *
 * Writes during the backup, without timing: writers keep booking through the whole backup, and one more
 * booking is held inside its supplier call by the emulator's gate when the backup starts, so its
 * write-ahead row is in the database and its answer is not yet given: the backup must hold every
 * acknowledged booking whatever else is in flight.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  type Child,
  FAULT_CONTACT as contact,
  type FaultEmulators,
  type FaultStore,
  faultEnv,
  faultStore,
  login,
  FAULT_PASSENGER as passenger,
  startChild,
  startFaultEmulators,
  until,
} from '../faults/harness.ts';
import { futureDate, oneWaySearch } from '../harness/flight-search.ts';
import { freshDatabase } from '../search/processes.ts';

const SCRIPTS = fileURLToPath(new URL('../../scripts/', import.meta.url));

/** Runs `node scripts/<name>.ts args` with `env`; resolves with its exit code and output. */
function command(name: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(SCRIPTS, `${name}.ts`), ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out }));
  });
}

interface Acked {
  booking_id: number;
  pnr: string;
  status: string;
}

describe('backup during writes, restore, serve', () => {
  let emulators: FaultEmulators;
  let store: FaultStore;
  const cleanup: Array<() => Promise<void>> = [];
  let servers: Child[] = [];

  beforeAll(async () => {
    emulators = await startFaultEmulators();
    store = await faultStore();
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) await s.kill9();
    for (const c of cleanup) await c();
    await emulators?.close();
    await store?.drop();
  });

  async function offer(s: Child, token: string, [from, to]: [string, string], supplier: string) {
    const started = await api(s.url, 'POST', '/api/v1/flight/getFare', {
      token,
      body: oneWaySearch(from, to, futureDate(60)),
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const batch = await api(
      s.url,
      'GET',
      `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`,
      {
        token,
      },
    );
    const list = (batch.body.results_by_gds?.[supplier] ?? []) as Array<Record<string, any>>;
    const hit = list.find((o) => !o.lcc && !(supplier === 'duffel' && o.validating_carrier === 'W6'));
    if (!hit) throw new Error(`no bookable ${supplier} offer`);
    return { offer_id: hit.offer_id as string, currency: hit.price.currency as string };
  }

  it('holds every booking acknowledged before it began, and the restored service serves', async () => {
    const pglite = store.kind === 'pglite';
    // On PGlite the JWT key is the sandbox's own, kept in DATA_DIR: it must come back with the backup.
    const env = faultEnv(store, emulators);
    if (pglite) delete env.JWT_SECRET;
    const a = await startChild(env);
    servers.push(a);
    const agent = await login(a);
    const amadeus = await offer(a, agent, ['LHR', 'DXB'], 'amadeus');
    const duffel = await offer(a, agent, ['LHR', 'BCN'], 'duffel');
    let n = 0;
    const book = (o: { offer_id: string; currency: string }) => {
      const key = `backup-${++n}`;
      return api(a.url, 'POST', '/api/v1/bookings/createPnr', {
        token: agent,
        key,
        body: { ...o, passengers: [passenger], contact, client_ref: key },
      });
    };
    const acked: Acked[] = [];
    const ack = (r: Awaited<ReturnType<typeof book>>) => {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      acked.push({ booking_id: r.body.booking_id, pnr: r.body.pnr, status: r.body.status });
    };
    for (let i = 0; i < 3; i++) ack(await book(amadeus));

    // One booking held inside its supplier call: written ahead, not answered.
    emulators.gates.duffel.close();
    const held = book(duffel);
    await emulators.gates.duffel.arrived(1);
    // Writers that book until told to stop, through the whole backup.
    let writing = true;
    const writer = async () => {
      while (writing) ack(await book(amadeus));
    };
    const writers = [writer(), writer(), writer()];
    await until('the writers book', 30_000, async () =>
      acked.length >= 6 ? { done: true, value: true } : { done: false, seen: acked.length },
    );

    const before = [...acked];
    const file = join(await mkdtemp(join(tmpdir(), 'travel-backup-file-')), 'backup.tar.gz');
    cleanup.push(() => rm(join(file, '..'), { recursive: true, force: true }));
    const backup = await command('backup', [file], store.env);
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toMatch(pglite ? /taken by the running server/ : /pg_dump of DATABASE_URL/);
    if (pglite) expect(backup.out).toMatch(/DATA_DIR files: .*jwt-secret/);

    writing = false;
    await Promise.all(writers);
    emulators.gates.duffel.open();
    const heldAnswer = await held;
    ack(heldAnswer);
    await a.stop();
    servers = [];

    // Restore into a fresh place.
    let target: Record<string, string>;
    if (pglite) {
      const parent = await mkdtemp(join(tmpdir(), 'travel-restored-'));
      cleanup.push(() => rm(parent, { recursive: true, force: true }));
      target = { DATA_DIR: join(parent, 'data') };
    } else {
      const db = await freshDatabase(process.env.TEST_DATABASE_URL as string);
      cleanup.push(() => db.drop());
      const dir = await mkdtemp(join(tmpdir(), 'travel-restored-'));
      cleanup.push(() => rm(dir, { recursive: true, force: true }));
      target = { DATABASE_URL: db.url, DATA_DIR: dir };
    }
    const restore = await command('restore', [file], target);
    expect(restore.code, restore.out).toBe(0);
    // Into a database that now holds data it refuses, changing nothing.
    if (!pglite) {
      const again = await command('restore', [file], target);
      expect(again.code).toBe(1);
      expect(again.out).toMatch(/not empty/);
    }

    const b = await startChild({ ...env, ...target });
    servers.push(b);
    // A second server on the restored DATA_DIR is refused while the first runs (PGlite is in-process).
    if (pglite) {
      await expect(startChild({ ...env, ...target })).rejects.toThrow(
        /another travel server .* is running on DATA_DIR/,
      );
      const refused = await command('restore', [file], target);
      expect(refused.code).toBe(1);
      expect(refused.out).toMatch(/is running on DATA_DIR .*stop it first; nothing was changed/);
    }
    // The token issued before the backup verifies on the restored service.
    const read = async (x: Acked) => api(b.url, 'GET', `/api/v1/bookings/${x.booking_id}`, { token: agent });
    for (const x of before) {
      const r = await read(x);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect({ booking_id: r.body.booking_id, pnr: r.body.pnr, status: r.body.status }).toEqual(x);
    }
    const fresh = await api(b.url, 'POST', '/api/v1/bookings/createPnr', {
      token: agent,
      key: 'backup-after-restore',
      body: { ...amadeus, passengers: [passenger], contact, client_ref: 'backup-after-restore' },
    });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.status).toBe('confirmed');
    expect(before.map((x) => x.booking_id)).not.toContain(fresh.body.booking_id);
    expect((await read({ ...fresh.body } as Acked)).status).toBe(200);
    // The booking in flight when the backup began was written ahead: its row came back too.
    expect((await read({ ...heldAnswer.body } as Acked)).status).toBe(200);
  }, 180_000);
});
