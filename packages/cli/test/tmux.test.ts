/**
 * Interactive flows in a real terminal (tmux) against the REAL server of the global setup: keystrokes in,
 * screen out. Skips cleanly without tmux.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { freshConfigDir, runCli } from './helpers/cli.ts';
import { hasTmux, startTmux, type TmuxSession } from './helpers/tmux.ts';

const url = inject('serverUrl');
const admin = inject('admin');
const agent = inject('agent');

let session: TmuxSession | undefined;
afterEach(() => session?.kill());

const baseEnv = (configDir: string) => ({
  TRAVEL_BASE_URL: url,
  TRAVEL_CONFIG_DIR: configDir,
  HOME: configDir,
  CI: '',
  TERM: 'xterm-256color',
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A stored agent login (through pipes: the login prompt itself is the first test's subject). */
async function agentConfigDir(): Promise<string> {
  const configDir = freshConfigDir();
  const who = agent ?? admin;
  const login = await runCli(['login', '--email', who.email, '--password-stdin'], {
    env: { TRAVEL_BASE_URL: url },
    input: who.password,
    configDir,
  });
  expect(login.code, login.stderr).toBe(0);
  return configDir;
}

/** Answers the contact questions, the price question, and returns the booking's id from its view. */
async function contactPriceAndBook(s: TmuxSession): Promise<number> {
  await s.waitFor('Contact email');
  s.send('C-u');
  s.type('ada@example.org');
  s.send('Enter');
  await s.waitFor('Contact phone');
  s.type('+447700900123');
  s.send('Enter');
  await s.waitFor(/Book for [A-Z]{3} \d+\.\d\d\?/, 30_000);
  s.send('Enter');
  const screen = await s.waitFor(/\[exit \d\]/, 60_000);
  // The booking's human view, not a record dump: `hotel 12  confirmed ...` / `transfer 3  confirmed ...`.
  const booked = /^(?:hotel|transfer) (\d+) {2}confirmed/m.exec(screen);
  expect(booked, screen).not.toBeNull();
  expect(screen).not.toContain('amount_minor');
  expect(screen).toContain('[exit 0]');
  return Number(booked?.[1]);
}

describe.skipIf(!hasTmux || !url)('in a terminal (tmux)', () => {
  it('login prompts for email and password, masks the password, stores the login', async () => {
    const configDir = freshConfigDir();
    session = startTmux(['login'], baseEnv(configDir));
    await session.waitFor('Email');
    session.type(admin.email);
    session.send('Enter');
    await session.waitFor('Password');
    session.type(admin.password);
    session.send('Enter');
    const screen = await session.waitFor('[exit 0]');
    expect(screen).toContain('Logged in');
    expect(screen).not.toContain(admin.password);
    session.kill();

    session = startTmux(['whoami'], baseEnv(configDir));
    expect(await session.waitFor('[exit 0]')).toContain(`${admin.email} (super_admin)`);
  });

  it('--confirm quotes before it asks: a refused quote (bad token) ends before any PNR prompt', async () => {
    // (The PNR typed after the quote, right and wrong: tmux-messages.test.ts and run-guarded.test.ts.)
    const configDir = freshConfigDir();
    session = startTmux(['ticket', 'void', 'X7KQ2M', '--confirm'], {
      ...baseEnv(configDir),
      TRAVEL_TOKEN: 'x',
    });
    const screen = await session.waitFor(/\[exit \d\]/);
    expect(screen).toMatch(/status=401/);
    expect(screen).not.toContain('to go ahead');
    expect(screen).toContain('[exit 3]');
  });

  it('at 22 columns the per-supplier board redraws in place: one line per supplier, none wrapped or garbled', async () => {
    const configDir = freshConfigDir();
    const who = agent ?? admin;
    session = startTmux(['login'], baseEnv(configDir), 22);
    await session.waitFor('Email');
    session.type(who.email);
    session.send('Enter');
    await session.waitFor('Password');
    session.type(who.password);
    session.send('Enter');
    await session.waitFor('[exit 0]');
    session.kill();
    const date = new Date(Date.now() + 41 * 86_400_000).toISOString().slice(0, 10);
    session = startTmux(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', date],
      baseEnv(configDir),
      22,
    );
    const screen = await session.waitFor('Pick an offer', 60_000);
    const board = screen
      .slice(0, screen.indexOf('price') >= 0 ? screen.indexOf('price') : undefined)
      .split('\n');
    for (const supplier of ['amadeus', 'duffel', 'mystifly']) {
      // Exactly one line per supplier, starting with its final symbol (no leftovers of earlier frames).
      const lines = board.filter((l) => l.includes(supplier));
      expect(lines, screen).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^[✔⚠✖] ${supplier}`));
    }
    for (const line of board) expect([...line].length, line).toBeLessThanOrEqual(22);
    expect(screen).not.toContain('\x1b');
    session.send('C-c');
  });

  it('search, pick an offer, enter a traveller, confirm, see the PNR', async () => {
    const configDir = freshConfigDir();
    const who = agent ?? admin;
    session = startTmux(['login'], baseEnv(configDir));
    await session.waitFor('Email');
    session.type(who.email);
    session.send('Enter');
    await session.waitFor('Password');
    session.type(who.password);
    session.send('Enter');
    await session.waitFor('[exit 0]');
    session.kill();

    const date = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    session = startTmux(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', date],
      baseEnv(configDir),
    );
    const picker = await session.waitFor('Pick an offer to book', 60_000);
    expect(picker).toMatch(/✔ amadeus|✔ duffel|✔ mystifly|⚠/); // supplier lines turned done / timed out
    expect(picker).toMatch(/price\s+carriers\s+stops\s+duration\s+supplier\s+refundable/);
    session.send('Enter'); // the cheapest offer
    let screen = await session.waitFor(/Saved travellers|Traveller 1: first name/);
    if (screen.includes('Saved travellers')) {
      session.send('Enter');
      await session.waitFor('Traveller 1: first name');
    }
    for (const [prompt, value] of [
      ['Traveller 1: first name', 'Ada'],
      ['Traveller 1: last name', 'Lovelace'],
    ] as const) {
      await session.waitFor(prompt);
      session.type(value);
      session.send('Enter');
    }
    await session.waitFor('gender');
    session.send('Enter'); // female
    await session.waitFor('date of birth');
    session.type('1985-12-10');
    session.send('Enter');
    await session.waitFor('Contact email');
    session.send('C-u');
    session.type('ada@example.org');
    session.send('Enter');
    await session.waitFor('Contact phone');
    session.type('+447700900123');
    session.send('Enter');
    // Each payment mode with its one-line explanation.
    const modes = await session.waitFor('PNR_ONLY');
    expect(modes).toContain('PNR_FIRST     book now (seats held where the airline allows), then pay');
    expect(modes).toContain('the agency settles with the supplier later');
    session.send('Enter');
    await session.waitFor(/Book for [A-Z]{3} \d+\.\d\d\?/, 30_000);
    session.send('Enter');
    screen = await session.waitFor(/\[exit \d\]/, 60_000);
    expect(screen).toMatch(/PNR [A-Z0-9]{6}/);
    expect(screen).toContain('[exit 0]');
  });

  // Hotel and transfer run the one set of reservation commands: one flow, each vertical's flags and answers.
  const pickers = [
    {
      name: 'search hotel, pick a rate, name the guest, confirm the price, booked',
      noun: 'hotel',
      search: [
        'hotel',
        '--destination',
        'DXB',
        '--check-in',
        inDays(50),
        '--check-out',
        inDays(52),
        '--adults',
        '1',
      ],
      prompt: 'Pick a rate to book',
      screen: [
        /[✔⚠] hotelbeds\s+(done|timed out) · \d+ offers/,
        /price\s+hotel\s+stars\s+room\s+board\s+refundable\s+supplier/,
      ],
      guest: 'Guest 1 (room 1)',
      booked: {
        guests: [{ room: 1, type: 'AD', first_name: 'Ada', last_name: 'Lovelace' }],
        contact_email: 'ada@example.org',
      },
    },
    {
      name: 'search transport, pick a transfer, the lead passenger, confirm, booked',
      noun: 'transfer',
      search: [
        'transport',
        '--pickup',
        'DXB',
        '--dropoff',
        'Dubai Marina',
        '--at',
        `${inDays(50)}T14:30`,
        '--passengers',
        '2',
      ],
      prompt: 'Pick a transfer to book',
      screen: [/price\s+type\s+vehicle\s+provider\s+duration\s+supplier\s+quote/],
      guest: 'Lead passenger',
      flight: 'EK2',
      booked: {
        passengers: [{ first_name: 'Ada', last_name: 'Lovelace' }],
        contact: { email: 'ada@example.org', phone: '+447700900123' },
        flight_number: 'EK2',
      },
    },
  ];

  it.each(pickers)('$name', async (t) => {
    const configDir = await agentConfigDir();
    session = startTmux(['search', ...t.search], baseEnv(configDir));
    const picker = await session.waitFor(t.prompt, 60_000);
    for (const line of t.screen) expect(picker).toMatch(line);
    expect(picker).toMatch(/❯ 1\. [A-Z]{3} \d+\.\d\d {2}/);
    session.send('Enter'); // the cheapest offer
    await session.waitFor(`${t.guest}: first name`);
    session.type('Ada');
    session.send('Enter');
    await session.waitFor(`${t.guest}: last name`);
    session.type('Lovelace');
    session.send('Enter');
    if ('flight' in t && t.flight) {
      // The arriving flight, asked with what it is for.
      await session.waitFor('the driver tracks it and waits if it lands late');
      session.type(t.flight);
      session.send('Enter');
    }
    const id = await contactPriceAndBook(session);
    session.kill();

    const show = await runCli([t.noun, 'show', String(id), '--json'], {
      env: { TRAVEL_BASE_URL: url },
      configDir,
    });
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ booking_id: id, status: 'confirmed', ...t.booked });
  });

  it('a search picker answered "Done" books nothing and exits 0', async () => {
    const configDir = await agentConfigDir();
    session = startTmux(
      ['search', 'hotel', '--destination', 'DXB', '--check-in', inDays(50), '--check-out', inDays(51)],
      baseEnv(configDir),
    );
    await session.waitFor('Pick a rate to book', 60_000);
    session.send('Up'); // wraps round to the last choice: Done
    session.send('Enter');
    const screen = await session.waitFor(/\[exit \d\]/);
    expect(screen).toContain('[exit 0]');
    expect(screen).not.toContain('Guest 1');
  });
});
