/**
 * The search-and-book flow of the built binary against the contract-shaped stub (see stub-server.ts): in a
 * tmux terminal with keystrokes, and without a terminal (journal replay, the 502 spinner path, exit 6).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, runCli } from './helpers/cli.ts';
import { type StubServer, startStubServer } from './helpers/stub-server.ts';
import { hasTmux, startTmux, type TmuxSession } from './helpers/tmux.ts';

let stub: StubServer;
let session: TmuxSession | undefined;
beforeAll(async () => {
  stub = await startStubServer();
});
afterAll(() => stub.close());
afterEach(() => session?.kill());

const env = (configDir: string) => ({
  TRAVEL_BASE_URL: stub.url,
  TRAVEL_CONFIG_DIR: configDir,
  HOME: configDir,
  TRAVEL_TOKEN: 'stub-token',
  CI: '',
  TERM: 'xterm-256color',
});

describe.skipIf(!hasTmux)('search and book in a terminal (stub server)', () => {
  it('supplier lines tick and settle, a ranked table, the picker, a traveller, the price, the PNR', async () => {
    const configDir = freshConfigDir();
    session = startTmux(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', '2026-12-20'],
      env(configDir),
    );
    const picker = await session.waitFor('Pick an offer to book');
    expect(picker).toMatch(/✔ amadeus\s+done · 2 offers/);
    expect(picker).toMatch(/✔ duffel\s+done · 1 offers/);
    expect(picker).toMatch(/⚠ mystifly\s+timed out · 0 offers/);
    // Ranked: cheapest first.
    expect(picker).toMatch(/1\s+GBP 410\.00\s+EK\s+1\s+8h 25m\s+duffel\s+no\s+off_a/);
    expect(picker).toMatch(/2\s+GBP 475\.00/);
    session.send('Enter');
    for (const [prompt, value] of [
      ['first name', 'Ada'],
      ['last name', 'Lovelace'],
    ] as const) {
      await session.waitFor(`Traveller 1: ${prompt}`);
      session.type(value);
      session.send('Enter');
    }
    await session.waitFor('Traveller 1: gender');
    session.send('Enter');
    await session.waitFor('date of birth');
    session.type('1985-12-10');
    session.send('Enter');
    await session.waitFor('Contact email');
    session.type('ada@example.org');
    session.send('Enter');
    await session.waitFor('Contact phone');
    session.type('+447700900123');
    session.send('Enter');
    await session.waitFor('Payment mode');
    session.send('Enter');
    await session.waitFor('Book for GBP 410.00?');
    session.send('Enter');
    const screen = await session.waitFor(/\[exit \d\]/);
    expect(screen).toMatch(/✔ booking\s+confirmed · PNR X7KQ2M/);
    expect(screen).toContain('PNR X7KQ2M  booking 100  confirmed');
    expect(screen).toContain('[exit 0]');
  });
});

describe('book without a terminal (stub server)', () => {
  it('a re-run replays the journalled key: one booking, not two; --new books again', async () => {
    const configDir = freshConfigDir();
    const pax = join(configDir, 'pax.json');
    writeFileSync(
      pax,
      JSON.stringify([
        { type: 'ADT', first_name: 'Ada', last_name: 'Lovelace', gender: 'F', date_of_birth: '1985-12-10' },
      ]),
    );
    const args = [
      'book',
      '--offer',
      'off_a',
      '--passengers',
      pax,
      '--contact',
      'ada@example.org,+447700900123',
      '--json',
    ];
    const before = stub.bookings;
    const first = await runCli(args, { env: env(configDir), configDir });
    const second = await runCli(args, { env: env(configDir), configDir });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      booking_id: JSON.parse(first.stdout).booking_id,
      key_source: 'journal',
    });
    expect(stub.bookings - before).toBe(1);
    const third = await runCli([...args, '--new'], { env: env(configDir), configDir });
    expect(JSON.parse(third.stdout).key_source).toBe('new');
    expect(stub.bookings - before).toBe(2);
  });

  it('a 502 pending booking is polled to its outcome; with no time to wait it exits 6', async () => {
    const configDir = freshConfigDir();
    const pax = join(configDir, 'pax.json');
    writeFileSync(
      pax,
      JSON.stringify([
        { type: 'ADT', first_name: 'Pat', last_name: 'PENDING', gender: 'M', date_of_birth: '1980-01-01' },
      ]),
    );
    const args = [
      'book',
      '--offer',
      'off_a',
      '--passengers',
      pax,
      '--contact',
      'pat@example.org,+447700900123',
    ];
    const waited = await runCli([...args, '--json'], { env: env(configDir), configDir });
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stderr).toContain('pending with the supplier; polling');
    expect(JSON.parse(waited.stdout)).toMatchObject({ outcome: 'confirmed', pnr: 'X7KQ2M' });
    const quick = await runCli([...args, '--new', '--wait', '0'], { env: env(configDir), configDir });
    expect(quick.code).toBe(6);
    expect(quick.stderr).toContain('still pending with the supplier');
  });

  it('search --json and --ndjson against the stream', async () => {
    const configDir = freshConfigDir();
    const json = await runCli(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', '2026-12-20', '--json'],
      { env: env(configDir), configDir },
    );
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.offers.map((o: { offer_id: string }) => o.offer_id)).toEqual(['off_a', 'off_c', 'off_b']);
    expect(json.stderr).toBe('');
    const nd = await runCli(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', '2026-12-20', '--ndjson'],
      { env: env(configDir), configDir },
    );
    expect(nd.stdout.trim().split('\n')).toHaveLength(7);
  });

  it('smoke --json: every step ok, the booking tagged with the run, exit 0', async () => {
    const configDir = freshConfigDir();
    const r = await runCli(['smoke', '--json'], {
      env: { ...env(configDir), GITHUB_RUN_ID: '4242', GITHUB_RUN_ATTEMPT: '1' },
      configDir,
    });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ ok: true, tag: 'gh-4242-1', client_ref: 'smoke:gh-4242-1', pnr: 'X7KQ2M' });
    expect(doc.steps.filter((s: { result: string }) => s.result !== 'ok')).toEqual([]);
    expect(doc.steps.map((s: { step: string }) => s.step).slice(0, 9)).toEqual([
      'login',
      'search',
      'revalidate',
      'book',
      'authorize',
      'capture',
      'ticket',
      'void quote',
      'void',
    ]);
  });

  it('smoke: a failed capture fails the run (exit 1) and still cleans up what it created', async () => {
    const configDir = freshConfigDir();
    stub.failCapture = true;
    stub.calls.length = 0;
    try {
      const r = await runCli(['smoke', '--tag', 'ci-fail'], {
        env: { ...env(configDir), NO_COLOR: '1' },
        configDir,
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/capture\s+FAILED\s+\d+\s+.*code=capture_failed\s+request_id=req_cap/);
      expect(r.stdout).toMatch(/ticket\s+skipped/);
      expect(r.stdout).toMatch(/cleanup: void payment\s+ok/);
      expect(r.stdout).toMatch(/cleanup: cancel booking\s+ok/);
      expect(r.stderr).toContain('smoke failed at "capture"');
      expect(stub.calls.some((c) => c.endsWith('/payment/void'))).toBe(true);
      expect(stub.calls.some((c) => c.endsWith('/cancel'))).toBe(true);
    } finally {
      stub.failCapture = false;
    }
  });
});
