/**
 * The servicing commands of the BUILT binary as processes (no terminal) against the REAL server started by
 * the global setup: `airlines`, `seats show|select|issue`, `ancillaries list|buy|emd|cancel`,
 * `hotel book|show|cancel` and `transfer book|show|cancel`, flag-driven, `--json` parsed, exit codes
 * asserted. Flight servicing runs on ticketed bookings made through the CLI itself (search → book → pay
 * authorize/capture → ticket issue).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { freshConfigDir, runCli } from './helpers/cli.ts';
import { inDays, loginDir, runJson, type TicketedFlight, ticketedFlight } from './helpers/flow.ts';

const url = inject('serverUrl');
const agent = inject('agent');

const env = { TRAVEL_BASE_URL: url, NO_COLOR: '1' };
const SLOW = 180_000;

/** One stored agent login for the whole file (each test still runs on its own: everything is lazy). */
let login: Promise<string> | undefined;
const agentDir = () => {
  if (!agent) throw new Error('the sandbox agent was not seeded');
  login ??= loginDir(env, agent);
  return login;
};

/** One ticketed booking per supplier, made on first use. */
const flights = new Map<string, Promise<TicketedFlight>>();
const ticketed = (supplier: 'amadeus' | 'duffel') => {
  let p = flights.get(supplier);
  if (!p) {
    p = agentDir().then((dir) =>
      ticketedFlight(env, dir, supplier, { days: 40, reference: `servicing-${supplier}-${Date.now()}` }),
    );
    flights.set(supplier, p);
  }
  return p;
};

interface Seat {
  seat_number: string;
  available: boolean;
  chargeable: boolean;
  price?: { currency: string; amount_minor: number };
}
interface SeatMapDoc {
  booking_id: number;
  seat_maps: { segment_id: string; cabin: string; rows: { row: number; seats: Seat[] }[] }[];
}
interface CatalogueItem {
  code: string;
  service_group: string;
  description: string;
  segment_ids: string[];
  price: { currency: string; amount_minor: number };
}
interface Ancillary {
  ancillary_id: number;
  code: string;
  tsm_reference: string;
  emd_number: string | null;
  status: string;
  passenger_ids: string[];
  price: { currency: string; amount_minor: number };
}
interface CancelDoc {
  booking_id: number;
  results: { ancillary_id: number; outcome: string; reason: string | null }[];
}

describe('no terminal: a missing or malformed input is a usage error naming the flag (exit 2)', () => {
  it.each([
    [
      'seats select without --seat',
      ['seats', 'select', '42', '--segment', 's1', '--passenger', '1'],
      '--seat',
    ],
    ['seats show with a bad reference', ['seats', 'show', 'not-a-ref'], '<booking>'],
    ['ancillaries buy without --code', ['ancillaries', 'buy', '42', '--passenger', '1'], '--code'],
    ['ancillaries list with an unknown --group', ['ancillaries', 'list', '42', '--group', 'XX'], '--group'],
    ['ancillaries cancel with a non-numeric --id', ['ancillaries', 'cancel', '42', '--id', 'abc'], '--id'],
    [
      'hotel book without --rate-key',
      ['hotel', 'book', '--provider', 'hotelbeds', '--guests', 'g.json', '--contact-email', 'a@b.c'],
      '--rate-key',
    ],
    ['hotel cancel --confirm without --yes', ['hotel', 'cancel', '7', '--confirm'], '--yes'],
    [
      'transfer book without --contact-phone',
      [
        'transfer',
        'book',
        '--quote',
        'q',
        '--provider',
        'hotelbeds_transfers',
        '--passengers',
        'p.json',
        '--contact-email',
        'a@b.c',
      ],
      '--contact-phone',
    ],
    ['transfer show with a non-numeric id', ['transfer', 'show', 'abc'], '<id>'],
  ])('%s', async (_name, args, flag) => {
    // A token is set so that nothing but the input can be what is missing; no request is made.
    const r = await runCli(args, {
      env: { ...env, TRAVEL_TOKEN: 'x', TRAVEL_BASE_URL: 'http://127.0.0.1:9' },
      configDir: freshConfigDir(),
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^usage: /);
    expect(r.stderr).toContain(flag);
    expect(r.stdout).toBe('');
  });

  it('not logged in: seats show exits 3 before any request', async () => {
    const r = await runCli(['seats', 'show', '42'], { env, configDir: freshConfigDir() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('travel login');
  });
});

describe.skipIf(!url)('travel airlines (process, no login needed)', () => {
  it('by IATA and ICAO code, by name, with a typo, and nothing found', async () => {
    const configDir = freshConfigDir();
    type Doc = { items: { iata_code: string; name: string; match_type: string }[]; total: number };
    const byCode = await runJson<Doc>(['airlines', 'EK'], { env, configDir });
    expect(byCode.code, byCode.stderr).toBe(0);
    expect(byCode.doc.items[0]).toMatchObject({ iata_code: 'EK', name: 'Emirates', match_type: 'iata' });

    const byIcao = await runJson<Doc>(['airlines', 'BAW'], { env, configDir });
    expect(byIcao.doc.items[0]).toMatchObject({ iata_code: 'BA', name: 'British Airways' });

    const byName = await runJson<Doc>(['airlines', 'british airways'], { env, configDir });
    expect(byName.code).toBe(0);
    expect(byName.doc.items[0]?.iata_code).toBe('BA');
    expect(byName.doc.total).toBe(byName.doc.items.length);

    const typo = await runJson<Doc>(['airlines', 'emirats'], { env, configDir });
    expect(typo.code).toBe(0);
    expect(typo.doc.items[0]).toMatchObject({ iata_code: 'EK', match_type: 'fuzzy' });

    const none = await runJson<Doc>(['airlines', 'xqzvw'], { env, configDir });
    expect(none.code).toBe(0);
    expect(none.doc).toMatchObject({ items: [], total: 0 });

    const table = await runCli(['airlines', 'EK'], { env, configDir });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^code\s+name\s+country/);
    expect(table.stdout).toMatch(/\nEK\s+Emirates\s+United Arab Emirates/);
  });
});

describe.skipIf(!url)('travel seats (process, ticketed Amadeus booking)', () => {
  it(
    'show the map, select a free seat, a refused one, a paid one and issue it',
    async () => {
      const dir = await agentDir();
      const flight = await ticketed('amadeus');
      const id = String(flight.bookingId);

      const show = await runJson<SeatMapDoc>(['seats', 'show', id], { env, configDir: dir });
      expect(show.code, show.stderr).toBe(0);
      expect(show.doc.booking_id).toBe(flight.bookingId);
      expect(show.doc.seat_maps.map((m) => m.segment_id).sort()).toEqual([...flight.segmentIds].sort());
      // By PNR as well.
      const byPnr = await runJson<SeatMapDoc>(['seats', 'show', flight.pnr.toLowerCase()], {
        env,
        configDir: dir,
      });
      expect(byPnr.code, byPnr.stderr).toBe(0);
      expect(byPnr.doc.booking_id).toBe(flight.bookingId);

      const map = show.doc.seat_maps[0];
      if (!map) throw new Error('no seat map');
      const seats = map.rows.flatMap((r) => r.seats);
      const free = seats.find((s) => s.available && !s.chargeable);
      const paid = seats.find((s) => s.available && s.chargeable && (s.price?.amount_minor ?? 0) > 0);
      const taken = seats.find((s) => !s.available);
      expect(free, 'a free seat on the map').toBeDefined();
      expect(paid, 'a chargeable seat with a price on the map').toBeDefined();
      expect(taken, 'an occupied seat on the map').toBeDefined();
      if (!free || !paid || !taken) return;
      const passenger = flight.passengerIds[0] ?? '1';
      const select = (seat: string, segment = map.segment_id) =>
        runJson<Record<string, unknown>>(
          ['seats', 'select', id, '--segment', segment, '--seat', seat, '--passenger', passenger],
          { env, configDir: dir },
        );

      const chosen = await select(free.seat_number.toLowerCase());
      expect(chosen.code, chosen.stderr).toBe(0);
      expect(chosen.doc).toMatchObject({
        booking_id: flight.bookingId,
        segment_id: map.segment_id,
        seat_number: free.seat_number,
        passenger_id: passenger,
        accepted: true,
        status: 'confirmed',
      });

      // Refused by the supplier: exit 1 (the server said no), one line with the code, nothing on stdout.
      const refused = await select(taken.seat_number);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toMatch(/code=seat_unavailable .*request_id=req_/);
      expect(refused.stdout).toBe('');
      // A segment that is not on the booking: exit 4.
      const nowhere = await select(free.seat_number, 's99');
      expect(nowhere.code).toBe(4);
      expect(nowhere.stderr).toContain('code=segment_not_found');

      // A chargeable seat stays pending until `seats issue` prices it and issues the EMD.
      const pending = await select(paid.seat_number);
      expect(pending.code, pending.stderr).toBe(0);
      expect(pending.doc).toMatchObject({
        seat_number: paid.seat_number,
        accepted: true,
        status: 'pending',
        price: paid.price,
      });
      const issued = await runJson<{
        booking_id: number;
        priced: { seat_number: string; status: string; price: unknown }[];
        emds: { tsm_reference: string; emd_number: string }[];
        documents_issued: boolean;
      }>(['seats', 'issue', id], { env, configDir: dir });
      expect(issued.code, issued.stderr).toBe(0);
      expect(issued.doc.booking_id).toBe(flight.bookingId);
      expect(issued.doc.priced).toContainEqual(
        expect.objectContaining({ seat_number: paid.seat_number, status: 'confirmed', price: paid.price }),
      );
      expect(issued.doc.documents_issued).toBe(true);
      expect(issued.doc.emds.length).toBeGreaterThan(0);
      for (const e of issued.doc.emds) expect(e.emd_number).toMatch(/^\d{10,13}$/);

      // Nothing pending any more: refused, exit 1 with the code.
      const again = await runJson(['seats', 'issue', id], { env, configDir: dir });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('code=no_pending_seats');
    },
    SLOW,
  );
});

describe.skipIf(!url)('travel ancillaries (process, ticketed bookings)', () => {
  it(
    'list (all, by group, table), buy, emd, cancel one (voided) and the rest',
    async () => {
      const dir = await agentDir();
      const flight = await ticketed('amadeus');
      const id = String(flight.bookingId);
      const passenger = flight.passengerIds[0] ?? '1';

      const all = await runJson<{ booking_id: number; items: CatalogueItem[] }>(['ancillaries', 'list', id], {
        env,
        configDir: dir,
      });
      expect(all.code, all.stderr).toBe(0);
      expect(all.doc.booking_id).toBe(flight.bookingId);
      expect(all.doc.items.length).toBeGreaterThan(0);
      for (const item of all.doc.items) {
        expect(item.price.amount_minor).toBeGreaterThan(0);
        expect(item.segment_ids.every((s) => flight.segmentIds.includes(s))).toBe(true);
      }
      const bag = all.doc.items.find((i) => i.service_group === 'BG');
      const meal = all.doc.items.find((i) => i.service_group === 'ML');
      expect(bag).toBeDefined();
      expect(meal).toBeDefined();
      if (!bag || !meal) return;

      const bags = await runJson<{ service_group: string; items: CatalogueItem[] }>(
        ['ancillaries', 'list', id, '--group', 'bg'],
        { env, configDir: dir },
      );
      expect(bags.code, bags.stderr).toBe(0);
      expect(bags.doc.service_group).toBe('BG');
      expect(bags.doc.items.map((i) => i.code)).toContain(bag.code);
      expect(bags.doc.items.every((i) => i.service_group === 'BG')).toBe(true);

      const table = await runCli(['ancillaries', 'list', id], { env, configDir: dir });
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/^code\s+group\s+description\s+price\s+segments/);
      expect(table.stdout).toMatch(new RegExp(`\\n${bag.code}\\s+BG\\s+`));

      const unknown = await runCli(['ancillaries', 'buy', id, '--code', 'NOPE1', '--passenger', passenger], {
        env,
        configDir: dir,
      });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('--code NOPE1');

      const buy = await runJson<{ tsm_references: string[]; ancillaries: Ancillary[] }>(
        ['ancillaries', 'buy', id, '--code', bag.code, meal.code, '--passenger', passenger],
        { env, configDir: dir },
      );
      expect(buy.code, buy.stderr).toBe(0);
      expect(buy.doc.ancillaries.map((a) => [a.code, a.status, a.price.amount_minor])).toEqual([
        [bag.code, 'held', bag.price.amount_minor],
        [meal.code, 'held', meal.price.amount_minor],
      ]);
      expect(buy.doc.tsm_references).toEqual(buy.doc.ancillaries.map((a) => a.tsm_reference));
      expect(buy.doc.ancillaries.every((a) => a.passenger_ids.includes(passenger))).toBe(true);

      const emd = await runJson<{
        emds: { tsm_reference: string; emd_number: string }[];
        ancillaries: Ancillary[];
      }>(['ancillaries', 'emd', id], { env, configDir: dir });
      expect(emd.code, emd.stderr).toBe(0);
      expect(emd.doc.emds.map((e) => e.tsm_reference).sort()).toEqual([...buy.doc.tsm_references].sort());
      const bought = emd.doc.ancillaries.filter((a) => buy.doc.tsm_references.includes(a.tsm_reference));
      expect(bought.map((a) => a.status)).toEqual(['issued', 'issued']);
      for (const a of bought) expect(a.emd_number).toMatch(/^\d+$/);
      const none = await runCli(['ancillaries', 'emd', id], { env, configDir: dir });
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('code=no_pending_ancillaries');

      // One more, left held (no EMD): cancelling it removes it rather than voiding.
      const held = await runJson<{ ancillaries: Ancillary[] }>(
        ['ancillaries', 'buy', id, '--code', bag.code, '--passenger', passenger],
        { env, configDir: dir },
      );
      expect(held.code, held.stderr).toBe(0);
      const heldId = held.doc.ancillaries[0]?.ancillary_id;
      const [issuedBag, issuedMeal] = buy.doc.ancillaries.map((a) => a.ancillary_id);

      const one = await runJson<CancelDoc>(['ancillaries', 'cancel', id, '--id', String(issuedBag)], {
        env,
        configDir: dir,
      });
      expect(one.code, one.stderr).toBe(0);
      expect(one.doc.results).toEqual([{ ancillary_id: issuedBag, outcome: 'voided', reason: null }]);

      const rest = await runJson<CancelDoc>(['ancillaries', 'cancel', id], { env, configDir: dir });
      expect(rest.code, rest.stderr).toBe(0);
      const outcome = new Map(rest.doc.results.map((r) => [r.ancillary_id, r.outcome]));
      expect(outcome.get(issuedBag as number)).toBe('skipped');
      expect(outcome.get(issuedMeal as number)).toBe('voided');
      expect(outcome.get(heldId as number)).toBe('removed');

      const missing = await runCli(['ancillaries', 'cancel', id, '--id', '999999'], { env, configDir: dir });
      expect(missing.code).toBe(4);
      expect(missing.stderr).toContain('code=ancillary_not_found');
    },
    SLOW,
  );

  it(
    'a bag bought and issued; cancel is refused (Duffel cannot remove a service)',
    async () => {
      const dir = await agentDir();
      const flight = await ticketed('duffel');
      const id = String(flight.bookingId);
      const passenger = flight.passengerIds[0] ?? '1';

      const list = await runJson<{ items: CatalogueItem[] }>(['ancillaries', 'list', id], {
        env,
        configDir: dir,
      });
      expect(list.code, list.stderr).toBe(0);
      const bag = list.doc.items.find((i) => i.service_group === 'BG');
      expect(bag, list.stdout).toBeDefined();
      if (!bag) return;
      // Duffel's long service ids are shown as a stable alias of at most 10 characters.
      expect(bag.code.length).toBeLessThanOrEqual(10);

      const buy = await runJson<{ ancillaries: Ancillary[] }>(
        ['ancillaries', 'buy', id, '--code', bag.code, '--passenger', passenger],
        { env, configDir: dir },
      );
      expect(buy.code, buy.stderr).toBe(0);
      expect(buy.doc.ancillaries).toEqual([
        expect.objectContaining({ code: bag.code, status: 'held', price: bag.price }),
      ]);
      const first = buy.doc.ancillaries[0]?.ancillary_id as number;
      const emd = await runJson<{ ancillaries: Ancillary[] }>(['ancillaries', 'emd', id], {
        env,
        configDir: dir,
      });
      expect(emd.code, emd.stderr).toBe(0);
      expect(emd.doc.ancillaries.find((a) => a.ancillary_id === first)).toMatchObject({ status: 'issued' });

      // One service: the server refuses the request as a whole (400 unsupported_provider). Not a listed
      // refused transition, so exit 1 ("the server said no"), one line naming the code.
      const single = await runJson(['ancillaries', 'cancel', id, '--id', String(first)], {
        env,
        configDir: dir,
      });
      expect(single.code).toBe(1);
      expect(single.stdout).toBe('');
      expect(single.stderr.trim().split('\n')).toHaveLength(1);
      expect(single.stderr).toMatch(/code=unsupported_provider .*status=400 .*request_id=req_/);

      // Several: the server answers 200 with a `failed` outcome per item; the CLI prints them and exits 1.
      const second = await runJson<{ ancillaries: Ancillary[] }>(
        ['ancillaries', 'buy', id, '--code', bag.code, '--passenger', passenger],
        { env, configDir: dir },
      );
      expect(second.code, second.stderr).toBe(0);
      const all = await runJson<CancelDoc>(['ancillaries', 'cancel', id], { env, configDir: dir });
      expect(all.code).toBe(1);
      expect(all.doc.results.length).toBe(2);
      expect(all.doc.results.every((r) => r.outcome === 'failed')).toBe(true);
      expect(all.stderr).toContain(`2 of 2 ancillaries of booking ${id} were not cancelled`);
    },
    SLOW,
  );
});

interface HotelOfferDoc {
  supplier: string;
  rate_key: string;
  rate_type: string;
  rooms: number;
  adults: number;
  children: number;
  price: { currency: string; total_minor: number };
}
interface HotelBookingDoc {
  booking_id: number;
  status: string;
  provider: string;
  rate_key: string;
  client_ref: string | null;
  guests: unknown[];
  contact_email: string;
  contact_phone: string;
  total: { currency: string; amount_minor: number };
  cancellation_fee: { currency: string; amount_minor: number } | null;
}

describe.skipIf(!url)('travel hotel book|show|cancel (process, flag-driven)', () => {
  it(
    'book a searched rate, show it, the guarded cancel',
    async () => {
      const dir = await agentDir();
      const search = await runJson<{ offers: HotelOfferDoc[] }>(
        [
          'search',
          'hotel',
          '--destination',
          'DXB',
          '--check-in',
          inDays(60),
          '--check-out',
          inDays(62),
          '--adults',
          '2',
        ],
        { env, configDir: dir },
      );
      expect(search.code, search.stderr).toBe(0);
      const rate = search.doc.offers.find((o) => o.supplier === 'hotelbeds' && o.rate_type === 'BOOKABLE');
      expect(rate, search.stderr).toBeDefined();
      if (!rate) return;
      expect(rate.adults).toBe(2);

      // One guest per person the rate was priced for, spread over its rooms.
      const guests = Array.from({ length: rate.adults + rate.children }, (_, i) => {
        const room = (i % rate.rooms) + 1;
        return i < rate.adults
          ? { room, type: 'AD', first_name: ['Ada', 'Charles', 'Mary'][i % 3], last_name: 'Lovelace' }
          : { room, type: 'CH', first_name: 'Byron', last_name: 'Lovelace', age: 8 };
      });
      const guestsFile = join(dir, 'guests.json');
      writeFileSync(guestsFile, JSON.stringify(guests));
      const reference = `hotel-${Date.now()}`;
      const book = (file: string, key: string) =>
        runJson<{ outcome: string; booking_id: number; idempotency_key: string; booking: HotelBookingDoc }>(
          [
            'hotel',
            'book',
            '--rate-key',
            rate.rate_key,
            '--provider',
            rate.supplier,
            '--guests',
            file,
            '--contact-email',
            'ada@example.org',
            '--contact-phone',
            '+447700900123',
            '--reference',
            reference,
            '--idempotency-key',
            key,
          ],
          { env, configDir: dir },
        );

      // Guests that do not match the rate's occupancy: refused, exit 1, nothing booked.
      const short = join(dir, 'one-guest.json');
      writeFileSync(short, JSON.stringify(guests.slice(0, 1)));
      const refused = await book(short, `${reference}-short`);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('code=invalid_guest');
      expect(refused.stdout).toBe('');

      const key = `${reference}-key`;
      const booked = await book(guestsFile, key);
      expect(booked.code, booked.stderr).toBe(0);
      expect(booked.doc.outcome).toBe('confirmed');
      expect(booked.doc.idempotency_key).toBe(key);
      expect(booked.doc.booking).toMatchObject({
        booking_id: booked.doc.booking_id,
        status: 'confirmed',
        provider: 'hotelbeds',
        rate_key: rate.rate_key,
        client_ref: reference,
        guests,
        total: { currency: rate.price.currency, amount_minor: rate.price.total_minor },
      });
      const id = String(booked.doc.booking_id);
      // The same Idempotency-Key replays the booking instead of booking again.
      const replay = await book(guestsFile, key);
      expect(replay.code, replay.stderr).toBe(0);
      expect(replay.doc.booking_id).toBe(booked.doc.booking_id);

      const status = async () => {
        const show = await runJson<HotelBookingDoc>(['hotel', 'show', id], { env, configDir: dir });
        expect(show.code, show.stderr).toBe(0);
        return show.doc;
      };
      expect(await status()).toMatchObject({
        booking_id: booked.doc.booking_id,
        status: 'confirmed',
        contact_email: 'ada@example.org',
        contact_phone: '+447700900123',
        guests,
        cancellation_fee: null,
      });

      // The guard: without --confirm it shows the booking as it is and changes nothing (exit 0).
      const look = await runJson<HotelBookingDoc>(['hotel', 'cancel', id], { env, configDir: dir });
      expect(look.code, look.stderr).toBe(0);
      expect(look.doc).toMatchObject({ booking_id: booked.doc.booking_id, status: 'confirmed' });
      expect(look.stderr).toContain('Nothing changed. Pass --confirm');
      expect((await status()).status).toBe('confirmed');
      // --confirm without a terminal needs --yes: usage error, nothing changed.
      const noYes = await runJson(['hotel', 'cancel', id, '--confirm'], { env, configDir: dir });
      expect(noYes.code).toBe(2);
      expect(noYes.stderr).toContain('--yes');
      expect(noYes.stdout).toBe('');
      expect((await status()).status).toBe('confirmed');

      const cancel = await runJson<{
        booking_id: number;
        status: string;
        cancelled: boolean;
        cancellation_fee: { amount_minor: number };
        refund: { currency: string; amount_minor: number };
      }>(['hotel', 'cancel', id, '--confirm', '--yes'], { env, configDir: dir });
      expect(cancel.code, cancel.stderr).toBe(0);
      expect(cancel.doc).toMatchObject({
        booking_id: booked.doc.booking_id,
        status: 'cancelled',
        cancelled: true,
      });
      expect(cancel.doc.refund.currency).toBe(rate.price.currency);
      expect(cancel.doc.refund.amount_minor + cancel.doc.cancellation_fee.amount_minor).toBe(
        rate.price.total_minor,
      );
      const after = await status();
      expect(after.status).toBe('cancelled');
      expect(after.cancellation_fee).not.toBeNull();

      // Cancelling again is a refused transition: exit 5 with the code.
      const twice = await runJson(['hotel', 'cancel', id, '--confirm', '--yes'], { env, configDir: dir });
      expect(twice.code).toBe(5);
      expect(twice.stderr).toContain('code=invalid_booking_state');

      const unknown = await runJson(['hotel', 'show', '99999999'], { env, configDir: dir });
      expect(unknown.code).toBe(4);
      expect(unknown.stderr).toContain('code=hotel_booking_not_found');
    },
    SLOW,
  );
});

interface TransferOfferDoc {
  supplier: string;
  quote_id: string;
  transfer_type: string;
  price: { currency: string; total_minor: number };
}
interface TransferBookingDoc {
  booking_id: number;
  status: string;
  provider: string;
  quote_id: string;
  confirmation_number: string | null;
  passengers: unknown[];
  contact: { email: string; phone: string };
  flight_number: string | null;
  total: { currency: string; amount_minor: number };
  cancellation_fee: { currency: string; amount_minor: number } | null;
}

describe.skipIf(!url)('travel transfer book|show|cancel (process, flag-driven)', () => {
  it(
    'book a searched quote, show it, the guarded cancel',
    async () => {
      const dir = await agentDir();
      const search = await runJson<{ offers: TransferOfferDoc[] }>(
        [
          'search',
          'transport',
          '--pickup',
          'DXB',
          '--dropoff',
          'Dubai Marina',
          '--at',
          `${inDays(60)}T14:30`,
          '--passengers',
          '2',
        ],
        { env, configDir: dir },
      );
      expect(search.code, search.stderr).toBe(0);
      const quote = search.doc.offers.find((o) => o.supplier === 'hotelbeds_transfers');
      expect(quote, search.stderr).toBeDefined();
      if (!quote) return;

      const passengers = [
        { first_name: 'Ada', last_name: 'Lovelace' },
        { first_name: 'Charles', last_name: 'Babbage' },
      ];
      const paxFile = join(dir, 'transfer-pax.json');
      writeFileSync(paxFile, JSON.stringify(passengers));
      const booked = await runJson<{ outcome: string; booking_id: number; booking: TransferBookingDoc }>(
        [
          'transfer',
          'book',
          '--quote',
          quote.quote_id,
          '--provider',
          quote.supplier,
          '--passengers',
          paxFile,
          '--contact-email',
          'ada@example.org',
          '--contact-phone',
          '+447700900123',
          '--flight',
          'ek2',
        ],
        { env, configDir: dir },
      );
      expect(booked.code, booked.stderr).toBe(0);
      expect(booked.doc.outcome).toBe('confirmed');
      expect(booked.doc.booking).toMatchObject({
        booking_id: booked.doc.booking_id,
        status: 'confirmed',
        provider: 'hotelbeds_transfers',
        quote_id: quote.quote_id,
        transfer_type: quote.transfer_type,
        passengers,
        flight_number: 'EK2',
        total: { currency: quote.price.currency, amount_minor: quote.price.total_minor },
      });
      expect(booked.doc.booking.confirmation_number).toBeTruthy();
      const id = String(booked.doc.booking_id);

      const status = async () => {
        const show = await runJson<TransferBookingDoc>(['transfer', 'show', id], { env, configDir: dir });
        expect(show.code, show.stderr).toBe(0);
        return show.doc;
      };
      expect(await status()).toMatchObject({
        booking_id: booked.doc.booking_id,
        status: 'confirmed',
        contact: { email: 'ada@example.org', phone: '+447700900123' },
        cancellation_fee: null,
      });

      const look = await runJson<TransferBookingDoc>(['transfer', 'cancel', id], { env, configDir: dir });
      expect(look.code, look.stderr).toBe(0);
      expect(look.doc).toMatchObject({ booking_id: booked.doc.booking_id, status: 'confirmed' });
      expect(look.stderr).toContain('Nothing changed. Pass --confirm');
      expect((await status()).status).toBe('confirmed');
      const noYes = await runJson(['transfer', 'cancel', id, '--confirm'], { env, configDir: dir });
      expect(noYes.code).toBe(2);
      expect(noYes.stderr).toContain('--yes');
      expect((await status()).status).toBe('confirmed');

      const cancel = await runJson<{
        booking_id: number;
        status: string;
        cancelled: boolean;
        cancellation_fee: { amount_minor: number };
        refund: { currency: string; amount_minor: number };
      }>(['transfer', 'cancel', id, '--confirm', '--yes'], { env, configDir: dir });
      expect(cancel.code, cancel.stderr).toBe(0);
      expect(cancel.doc).toMatchObject({
        booking_id: booked.doc.booking_id,
        status: 'cancelled',
        cancelled: true,
      });
      expect(cancel.doc.refund.amount_minor + cancel.doc.cancellation_fee.amount_minor).toBe(
        quote.price.total_minor,
      );
      expect((await status()).status).toBe('cancelled');

      const twice = await runJson(['transfer', 'cancel', id, '--confirm', '--yes'], { env, configDir: dir });
      expect(twice.code).toBe(5);
      expect(twice.stderr).toContain('code=invalid_booking_state');

      const unknown = await runJson(['transfer', 'show', '99999999'], { env, configDir: dir });
      expect(unknown.code).toBe(4);
      expect(unknown.stderr).toMatch(/code=\w+_not_found/);
    },
    SLOW,
  );
});
