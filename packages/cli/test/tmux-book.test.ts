/**
 * In a real terminal (tmux) against the REAL server: `travel book` for a Duffel offer whose airline requires
 * identity documents asks for the passport (and books), and `travel hotel cancel --confirm` quotes the fee
 * and wants the provider's booking reference typed. Skips cleanly without tmux.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { inDays, loginDir, runJson } from './helpers/flow.ts';
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

async function answer(s: TmuxSession, prompt: string | RegExp, text: string) {
  await s.waitFor(prompt);
  s.type(text);
  s.send('Enter');
}

describe.skipIf(!hasTmux || !url || !agent)('booking and cancelling in a terminal (tmux)', () => {
  it('book --offer for a Duffel offer that requires documents asks for the passport and books it in the offer currency', async () => {
    if (!agent) return;
    const configDir = await loginDir(env, agent);
    const search = await runJson<{
      offers: {
        offer_id: string;
        supplier: string;
        price: { currency: string };
        booking_requirements: { passengers: { identity_document: boolean }[] };
      }[];
    }>(
      [
        'search',
        'flight',
        '--from',
        'LHR',
        '--to',
        'DXB',
        '--date',
        inDays(48),
        '--supplier',
        'duffel',
        '--currency',
        'EUR',
      ],
      { env, configDir },
    );
    expect(search.code, search.stderr).toBe(0);
    const offer = search.doc.offers.find((o) =>
      o.booking_requirements.passengers.some((p) => p.identity_document),
    );
    if (!offer) throw new Error('the Duffel emulator gave no offer that requires documents');

    // No --currency: the CLI reads the offer (EUR) instead of defaulting to the profile's or USD.
    session = startTmux(['book', '--offer', offer.offer_id], terminal(configDir));
    let screen = await session.waitFor(/Saved travellers|Traveller 1: first name/, 30_000);
    expect(screen).toContain('This offer requires an identity document for each traveller (passport)');
    if (screen.includes('Saved travellers')) session.send('Enter');
    await answer(session, 'Traveller 1: first name', 'Ada');
    await answer(session, 'Traveller 1: last name', 'Lovelace');
    await session.waitFor('Traveller 1: gender');
    session.send('Enter'); // female
    await answer(session, 'Traveller 1: date of birth', '1985-12-10');
    // A passport number that is too short is refused in place, then a good one.
    await answer(session, 'Traveller 1: passport number', '12');
    await session.waitFor('5 to 20 letters or digits');
    session.send('C-u');
    session.type('502135326');
    session.send('Enter');
    await answer(session, 'Traveller 1: passport expiry date (YYYY-MM-DD)', '2034-01-01');
    await answer(session, 'Traveller 1: passport issuing country', 'gb');
    await session.waitFor('Contact email');
    session.send('C-u');
    session.type('ada@example.org');
    session.send('Enter');
    await answer(session, 'Contact phone', '+447700900123');
    await session.waitFor('Payment mode');
    session.send('Enter');
    screen = await session.waitFor(/Book for EUR \d+\.\d\d\?/, 30_000);
    // Nothing the offer does not require was asked.
    expect(screen).not.toContain('nationality');
    session.send('Enter');
    screen = await session.waitFor(/\[exit \d\]/, 60_000);
    expect(screen).toContain('[exit 0]');
    const pnr = /PNR ([A-Z0-9]{6})/.exec(screen)?.[1];
    expect(pnr, screen).toBeDefined();

    const show = await runJson<{
      pricing: { currency: string };
      passengers: { document?: { type: string; number: string; expiry: string; issuing_country: string } }[];
    }>(['booking', 'show', pnr ?? ''], { env, configDir });
    expect(show.code, show.stderr).toBe(0);
    expect(show.doc.pricing.currency).toBe('EUR');
    expect(show.doc.passengers[0]?.document).toMatchObject({
      type: 'passport',
      number: '502135326',
      expiry: '2034-01-01',
      issuing_country: 'GB',
    });
  });

  it('hotel cancel --confirm quotes the fee, then wants the provider reference typed (the id is not enough)', async () => {
    if (!agent) return;
    const configDir = await loginDir(env, agent);
    const search = await runJson<{
      offers: { supplier: string; rate_type: string; rate_key: string; rooms: number; adults: number }[];
    }>(
      [
        'search',
        'hotel',
        '--destination',
        'DXB',
        '--check-in',
        inDays(75),
        '--check-out',
        inDays(76),
        '--adults',
        '1',
      ],
      { env, configDir },
    );
    const rate = search.doc.offers.find(
      (o) => o.supplier === 'hotelbeds' && o.rate_type === 'BOOKABLE' && o.rooms === 1,
    );
    if (!rate) throw new Error(`no bookable Hotelbeds rate: ${search.stderr}`);
    const guests = join(configDir, 'guests.json');
    writeFileSync(guests, JSON.stringify([{ first_name: 'Ada', last_name: 'Lovelace' }]));
    const booked = await runJson<{ booking_id: number; booking: { supplier_booking_ref: string } }>(
      [
        'hotel',
        'book',
        '--rate-key',
        rate.rate_key,
        '--provider',
        'hotelbeds',
        '--guests',
        guests,
        '--contact-email',
        'ada@example.org',
        '--contact-phone',
        '+447700900123',
      ],
      { env, configDir },
    );
    expect(booked.code, booked.stderr).toBe(0);
    const id = String(booked.doc.booking_id);
    const reference = booked.doc.booking.supplier_booking_ref;

    session = startTmux(['hotel', 'cancel', id, '--confirm'], terminal(configDir));
    let screen = await session.waitFor(`type ${reference} to go ahead`);
    expect(screen).toMatch(new RegExp(`Cancelling hotel ${id} now: fee [A-Z]{3} \\d+\\.\\d\\d`));
    session.type(id); // the bare id does not confirm
    session.send('Enter');
    screen = await session.waitFor(/\[exit \d\]/);
    expect(screen).toContain('nothing changed');
    expect(screen).toContain('[exit 1]');
    session.kill();
    const still = await runJson<{ status: string }>(['hotel', 'show', id], { env, configDir });
    expect(still.doc.status).toBe('confirmed');

    session = startTmux(['hotel', 'cancel', id, '--confirm'], terminal(configDir));
    await session.waitFor(`type ${reference} to go ahead`);
    session.type(reference);
    session.send('Enter');
    screen = await session.waitFor(/\[exit \d\]/, 30_000);
    expect(screen).toContain(`hotel ${id} cancelled`);
    expect(screen).toContain('[exit 0]');
    const after = await runCli(['hotel', 'show', id], { env, configDir });
    expect(after.stdout).toMatch(new RegExp(`^hotel ${id} {2}cancelled`));
  });
});
