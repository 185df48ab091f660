/**
 * In a real terminal (tmux) against the REAL server, the messages of issue #33: `ticket void --confirm`
 * shows the refund before asking for the PNR; a refused then corrected `travel book` books (no
 * `idempotency_key_reused`, no false "replays that booking"); an asynchronous (Mystifly) ticket issue is
 * explained with the next step; Ctrl-C at a picker exits 130 with a message. Skips cleanly without tmux.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { documentedAdult, inDays, loginDir, runJson, ticketedFlight } from './helpers/flow.ts';
import { hasTmux, startTmux, type TmuxSession } from './helpers/tmux.ts';

const url = inject('serverUrl');
const agent = inject('agent');
const env = { TRAVEL_BASE_URL: url };

let session: TmuxSession | undefined;
afterEach(() => session?.kill());

const terminal = (configDir: string) => ({
  TRAVEL_BASE_URL: url,
  TRAVEL_CONFIG_DIR: configDir,
  HOME: configDir,
  CI: '',
  TERM: 'xterm-256color',
});

type Offer = {
  offer_id: string;
  supplier: string;
  price: { currency: string };
  booking_requirements: { passengers: { identity_document: boolean }[] };
};

async function offers(configDir: string, supplier: string, days: number): Promise<Offer[]> {
  const search = await runJson<{ offers: Offer[] }>(
    ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', inDays(days), '--supplier', supplier],
    { env, configDir },
  );
  expect(search.code, search.stderr).toBe(0);
  return search.doc.offers.filter((o) => o.supplier === supplier);
}

describe.skipIf(!hasTmux || !url || !agent)('what users read in a terminal (tmux)', () => {
  it('ticket void --confirm shows the refund before asking for the PNR', async () => {
    if (!agent) return;
    const configDir = await loginDir(env, agent);
    const flight = await ticketedFlight(env, configDir, 'amadeus', {
      days: 52,
      reference: `void-${Date.now()}`,
    });
    session = startTmux(['ticket', 'void', String(flight.bookingId), '--confirm'], terminal(configDir), 100);
    const asking = await session.waitFor(`type ${flight.pnr} to go ahead`, 30_000);
    const before = asking.slice(0, asking.indexOf(`type ${flight.pnr}`));
    expect(before).toMatch(/void quote for booking \d+: permitted/);
    expect(before).toMatch(/refund [A-Z]{3} [\d,.]+/);
    session.type(flight.pnr);
    session.send('Enter');
    const done = await session.waitFor(/\[exit \d+\]/, 60_000);
    expect(done).toContain('void done');
    expect(done).toContain('[exit 0]');
  });

  it('a refused travel book, corrected and run again, books (a fresh key, no false replay notice)', async () => {
    if (!agent) return;
    const configDir = await loginDir(env, agent);
    const offer = (await offers(configDir, 'duffel', 53)).find((o) =>
      o.booking_requirements.passengers.some((p) => p.identity_document),
    );
    if (!offer) throw new Error('the Duffel emulator gave no offer that requires documents');
    const pax = join(configDir, 'pax.json');
    // As the CLI README writes it (no "type"), with a passport that expires before the flight.
    const { type: _type, ...untyped } = documentedAdult;
    const write = (expiry: string) =>
      writeFileSync(pax, JSON.stringify([{ ...untyped, document: { ...untyped.document, expiry } }]));
    const args = [
      'book',
      '--offer',
      offer.offer_id,
      '--passengers',
      pax,
      '--contact',
      'ada@example.org,+447700900123',
      '--payment-mode',
      'PNR_FIRST',
      '--yes',
    ];
    write(inDays(20));
    session = startTmux(args, terminal(configDir), 100);
    let screen = await session.waitFor(/\[exit \d+\]/, 60_000);
    expect(screen).toMatch(/expires before the journey ends|document/);
    expect(screen).toContain('[exit 1]');
    session.kill();

    write('2034-01-01');
    session = startTmux(args, terminal(configDir), 100);
    screen = await session.waitFor(/\[exit \d+\]/, 60_000);
    expect(screen).not.toContain('idempotency_key_reused');
    expect(screen).not.toContain('replays that booking');
    expect(screen).not.toContain('Re-sending');
    expect(screen).toMatch(/PNR [A-Z0-9]{6}/);
    expect(screen).toContain('[exit 0]');
  });

  it('an asynchronous ticket issue says what is happening and what to run next', async () => {
    if (!agent) return;
    const configDir = await loginDir(env, agent);
    const offer = (await offers(configDir, 'mystifly', 54))[0];
    if (!offer) throw new Error('no Mystifly offer');
    const pax = join(configDir, 'pax-m.json');
    writeFileSync(pax, JSON.stringify([documentedAdult]));
    const book = await runJson<{ booking_id: number }>(
      ['book', '--offer', offer.offer_id, '--passengers', pax, '--contact', 'ada@example.org,+447700900123'],
      { env, configDir },
    );
    expect(book.code, book.stderr).toBe(0);
    const id = String(book.doc.booking_id);
    const auth = await runJson(['pay', 'authorize', id, '--token', 'tok_sandbox_ok'], { env, configDir });
    expect(auth.code, auth.stderr).toBe(0);
    session = startTmux(['ticket', 'issue', id], terminal(configDir), 100);
    const screen = await session.waitFor(/\[exit \d+\]/, 60_000);
    expect(screen).toContain('the supplier issues these tickets asynchronously');
    expect(screen).toContain(`next: travel ticket status ${id}`);
    expect(screen).not.toMatch(/not issued yet \(\d\)/);
    expect(screen).toContain('[exit 0]');
  });

  it('Ctrl-C at the offer picker exits 130 with a message', async () => {
    if (!agent) return;
    const configDir = await loginDir(env, agent);
    session = startTmux(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', inDays(55)],
      terminal(configDir),
      100,
    );
    await session.waitFor('Pick', 60_000);
    session.send('C-c');
    const screen = await session.waitFor(/\[exit \d+\]/, 20_000);
    expect(screen).toContain('cancelled (Ctrl-C)');
    expect(screen).toContain('[exit 130]');
  });
});
