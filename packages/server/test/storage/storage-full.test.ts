/**
 * A full disk, for real: the database's files on a small tmpfs (mounted here; the tests and CI run as
 * root), filled to the last byte while the service runs. Bookings then answer 503 `storage_full` with
 * `Retry-After`, nothing of the refused booking is written and no supplier order is placed for it,
 * `/health/` reports the database degraded, and once space is freed the same request goes through.
 * A DATA_DIR too small to start says so in words. On PGlite (the default) the DATA_DIR is on the tmpfs; on
 * PostgreSQL (TEST_DATABASE_URL, a server on this machine) the database lives in a tablespace on it.
 * Without root or a local server these tests fail, saying why: they are never skipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  type Child,
  FAULT_CONTACT as contact,
  type FaultEmulators,
  faultEnv,
  login,
  FAULT_PASSENGER as passenger,
  SANDBOX_ADMIN,
  startChild,
  startFaultEmulators,
} from '../faults/harness.ts';
import { futureDate, oneWaySearch } from '../harness/flight-search.ts';

const mounts: string[] = [];

/** A tmpfs of `mb` MiB mounted on a new directory (owned by `owner`, a user name, when given). */
async function tmpfs(mb: number, owner?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'travel-tmpfs-'));
  const opts = [`size=${mb}m`, 'mode=0755'];
  try {
    if (owner) {
      const uid = execFileSync('id', ['-u', owner]).toString().trim();
      const gid = execFileSync('id', ['-g', owner]).toString().trim();
      opts.push(`uid=${uid}`, `gid=${gid}`, 'mode=0700');
    }
    execFileSync('mount', ['-t', 'tmpfs', '-o', opts.join(','), 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    throw new Error(
      `this test needs to mount a ${mb} MiB tmpfs (it runs as root in development and CI): ${(err as Error).message}`,
    );
  }
  mounts.push(dir);
  return dir;
}

/** Writes zeros into `path` until the file system refuses with ENOSPC; returns the bytes written. */
async function fill(path: string): Promise<number> {
  const f = await open(path, 'w');
  let written = 0;
  try {
    for (const size of [1 << 20, 1 << 12, 512]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          const { bytesWritten } = await f.write(chunk);
          written += bytesWritten;
          if (bytesWritten < size) break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    await f.close().catch(() => undefined);
  }
  return written;
}

describe('storage full', () => {
  let emulators: FaultEmulators;
  const children: Child[] = [];
  const cleanup: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    emulators = await startFaultEmulators();
  }, 60_000);

  afterAll(async () => {
    for (const c of children) await c.kill9();
    for (const c of cleanup.reverse()) await c().catch(() => undefined);
    await emulators?.close();
    for (const dir of mounts) {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      }
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a DATA_DIR without room to start says so: the path, the space needed and available', async () => {
    const small = await tmpfs(8);
    const env = faultEnv(
      { kind: 'pglite', env: { DATA_DIR: join(small, 'data') }, drop: async () => {} },
      emulators,
    );
    const err = await startChild(env).then(
      (c) => {
        children.push(c);
        return new Error('the server started on an 8 MiB DATA_DIR');
      },
      (e: Error) => e,
    );
    expect(err.message).toMatch(
      new RegExp(
        `not enough free space to create the embedded database in ${join(small, 'data', 'pglite')}: it needs about \\d+\\.\\d MiB, the file system has \\d\\.\\d MiB available`,
      ),
    );
    expect(err.message).not.toMatch(/ErrnoError/);
  });

  it('a full disk answers 503 storage_full with Retry-After, writes nothing, health degraded; freed, it books', async () => {
    const url = process.env.TEST_DATABASE_URL;
    let store: Record<string, string>;
    let disk: string;
    if (url) {
      // The database in a tablespace on the tmpfs: its tables fill it, WAL stays on the server's own disk.
      disk = await tmpfs(24, 'postgres');
      const name = `tp_full_${process.pid}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.query(`drop tablespace if exists ${name}`);
        await admin.query(`create tablespace ${name} location '${disk}'`);
        await admin.query(`create database ${name} tablespace ${name}`);
      } finally {
        await admin.end();
      }
      cleanup.push(async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        try {
          await c.query(`drop database if exists ${name} with (force)`);
          await c.query(`drop tablespace if exists ${name}`);
        } finally {
          await c.end();
        }
      });
      const own = new URL(url);
      own.pathname = `/${name}`;
      store = { DATABASE_URL: own.toString() };
    } else {
      disk = await tmpfs(64);
      store = { DATA_DIR: join(disk, 'data') };
    }
    const s = await startChild(faultEnv({ kind: 'pglite', env: store, drop: async () => {} }, emulators));
    children.push(s);
    const agent = await login(s);
    const admin = await login(s, SANDBOX_ADMIN);
    const started = await api(s.url, 'POST', '/api/v1/flight/getFare', {
      token: agent,
      body: oneWaySearch('LHR', 'DXB', futureDate(60)),
    });
    expect(started.status).toBe(202);
    const batch = await api(
      s.url,
      'GET',
      `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`,
      {
        token: agent,
      },
    );
    const offers = (batch.body.results_by_gds?.amadeus ?? []) as Array<Record<string, any>>;
    const hit = offers.find((o) => !o.lcc);
    const body = (ref: string) => ({
      offer_id: hit?.offer_id,
      currency: hit?.price.currency,
      passengers: [passenger],
      contact,
      client_ref: ref,
    });
    const book = (ref: string) =>
      api(s.url, 'POST', '/api/v1/bookings/createPnr', { token: agent, key: ref, body: body(ref) });
    expect((await book('full-warm')).status).toBe(200);

    const filler = join(disk, 'filler');
    expect(await fill(filler)).toBeGreaterThan(0);
    // Pages and files already allocated take a few more rows; the first that needs room is refused.
    let refused: Awaited<ReturnType<typeof book>> | undefined;
    let ref = '';
    let ordersBefore = 0;
    for (let i = 0; i < 200 && !refused; i++) {
      ref = `full-${i}`;
      ordersBefore = emulators.orders('amadeus').length;
      const r = await book(ref);
      if (r.status === 503) refused = r;
      else expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    expect(refused, 'no booking was refused on a full disk').toBeDefined();
    expect(refused?.body.code, JSON.stringify(refused?.body)).toBe('storage_full');
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    // Nothing half done: no supplier order for it, and no row.
    expect(emulators.orders('amadeus').length).toBe(ordersBefore);
    const rows = await api(s.url, 'GET', `/api/v1/admin/bookings?search=${ref}`, { token: admin });
    expect(rows.status).toBe(200);
    expect((rows.body.items as Array<{ client_ref: string }>).filter((b) => b.client_ref === ref)).toEqual(
      [],
    );
    const health = await api(s.url, 'GET', '/health/');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('degraded');
    expect(health.body.components.database.status).toBe('degraded');
    const system = await api(s.url, 'GET', '/api/v1/admin/system/health', { token: admin });
    expect(system.status, JSON.stringify(system.body)).toBe(200);
    expect(system.body.status).toBe('degraded');

    await rm(filler);
    const again = await book(ref);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.status).toBe('confirmed');
    expect(emulators.orders('amadeus').length).toBe(ordersBefore + 1);
    const row = await api(s.url, 'GET', `/api/v1/admin/bookings?search=${ref}`, { token: admin });
    expect(
      (row.body.items as Array<{ client_ref: string }>).filter((b) => b.client_ref === ref),
    ).toHaveLength(1);
    const healed = await api(s.url, 'GET', '/health/');
    expect(healed.body.status, s.output().slice(-3000)).toBe('ok');
  }, 180_000);
});
