/**
 * search hotel / search transport on a terminal: the picker goes straight on to booking (guests or the
 * lead passenger, a contact, the price quoted now, a yes); without a terminal, a hint instead of a picker.
 */
import { describe, expect, it, vi } from 'vitest';
import { type HotelSearchOptions, runHotelSearch } from '../src/commands/search-hotel.ts';
import { runTransportSearch, type TransportSearchOptions } from '../src/commands/search-transport.ts';
import { CliError } from '../src/errors.ts';
import { ExitCode } from '../src/exit-codes.ts';
import { hotelBooking, hotelOffer, transferBooking, transferOffer } from './helpers/data.ts';
import { events, fakeWorld } from './helpers/fakes.ts';

const hotelOptions = (mode: HotelSearchOptions['mode']): HotelSearchOptions => ({
  destination: 'DXB',
  checkIn: '2026-12-20',
  checkOut: '2026-12-23',
  adults: 2,
  rooms: 1,
  currency: undefined,
  minStars: undefined,
  limit: 20,
  timeoutSeconds: 30,
  mode,
});

const transportOptions = (mode: TransportSearchOptions['mode']): TransportSearchOptions => ({
  pickup: 'DXB',
  dropoff: 'Dubai Marina',
  at: '2026-12-20T14:30',
  passengers: 2,
  luggage: 1,
  type: undefined,
  currency: undefined,
  limit: 20,
  timeoutSeconds: 30,
  mode,
});

const check = <T extends { price: { total_minor: number } }>(
  offer: T,
  previous = offer.price.total_minor,
) => ({
  available: true,
  price_changed: previous !== offer.price.total_minor,
  previous_total_minor: previous,
  offer,
});

const booked = (id: number, booking: unknown) => ({
  outcome: 'confirmed',
  booking_id: id,
  idempotencyKey: 'k1',
  booking,
});

const asked = (deps: { prompter: unknown }) => (deps.prompter as { asked: string[] }).asked;

const cheapHotel = hotelOffer('rk_cheap', 30_000);
const familyHotel = hotelOffer('rk_family', 45_000, { rooms: 2, adults: 3, children: 1 });

function hotelWorld(answers: unknown[], rate = check(cheapHotel)) {
  const stream = [
    { event: 'hotel_offer', data: { offer: familyHotel } },
    { event: 'hotel_offer', data: { offer: cheapHotel } },
    { event: 'done', data: { status: 'completed' } },
  ];
  const sdk = {
    hotels: {
      search: vi.fn(async () => ({ searchId: 'hs_1', stream: () => events(stream) })),
      checkRate: vi.fn(async () => rate),
      book: vi.fn(async (_body: unknown, _o: unknown) => booked(77, hotelBooking(77))),
    },
  };
  return { sdk, ...fakeWorld({ sdk: sdk as never, interactive: answers.length > 0, answers }) };
}

const twoGuests = ['Ada', 'Lovelace', 'Charles', 'Babbage', 'ada@example.org', '+447700900123'];

describe('search hotel: the picker books', () => {
  it('names one guest per adult the rate was priced for, checks the rate, books on a yes', async () => {
    const { sdk, ctx, deps, io } = hotelWorld([cheapHotel, ...twoGuests, true]);
    await runHotelSearch(hotelOptions('interactive'), ctx);
    expect(asked(deps)).toEqual([
      'Pick a rate to book',
      'Guest 1 (room 1): first name',
      'Guest 1 (room 1): last name',
      'Guest 2 (room 1): first name',
      'Guest 2 (room 1): last name',
      'Contact email',
      'Contact phone',
      'Book for GBP 300.00?',
    ]);
    expect(sdk.hotels.checkRate).toHaveBeenCalledWith({ rate_key: 'rk_cheap', provider: 'hotelbeds' });
    expect(sdk.hotels.book.mock.calls[0]?.[0]).toEqual({
      rate_key: 'rk_cheap',
      provider: 'hotelbeds',
      guests: [
        { room: 1, type: 'AD', first_name: 'Ada', last_name: 'Lovelace' },
        { room: 1, type: 'AD', first_name: 'Charles', last_name: 'Babbage' },
      ],
      contact_email: 'ada@example.org',
      contact_phone: '+447700900123',
    });
    // The booking's view, not its record.
    expect(io.stdout).toContain('hotel 77  confirmed  ref 1-7717778');
    expect(io.stdout).toContain('  room 1  Ada Lovelace');
  });

  it('spreads guests over the rooms so each has an adult; a child gives an age', async () => {
    const { sdk, ctx } = hotelWorld(
      [familyHotel, 'A', 'One', 'B', 'Two', 'C', 'Three', 'D', 'Kid', '9', 'a@b.c', '+4477', true],
      check(familyHotel),
    );
    await runHotelSearch(hotelOptions('interactive'), ctx);
    expect(sdk.hotels.book.mock.calls[0]?.[0]).toMatchObject({
      guests: [
        { room: 1, type: 'AD', first_name: 'A' },
        { room: 2, type: 'AD', first_name: 'B' },
        { room: 1, type: 'AD', first_name: 'C' },
        { room: 2, type: 'CH', first_name: 'D', age: 9 },
      ],
    });
  });

  it('a changed price is shown, and a no books nothing (exit 1)', async () => {
    const { sdk, ctx, io } = hotelWorld(
      [cheapHotel, ...twoGuests, false],
      check(hotelOffer('rk_cheap', 31_000), 30_000),
    );
    const error = await runHotelSearch(hotelOptions('interactive'), ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toBe('not booked');
    expect(io.stderr.join('\n')).toContain('The price changed from GBP 300.00 to GBP 310.00');
    expect(sdk.hotels.book).not.toHaveBeenCalled();
  });

  it('a rate gone since the search: exit 5 before any booking', async () => {
    const { sdk, ctx } = hotelWorld([cheapHotel, ...twoGuests], { ...check(cheapHotel), available: false });
    const error = await runHotelSearch(hotelOptions('interactive'), ctx).catch((e: unknown) => e);
    expect((error as CliError).exitCode).toBe(ExitCode.conflict);
    expect(sdk.hotels.book).not.toHaveBeenCalled();
  });

  it('"Done" books nothing; without a terminal there is no picker, only the hint', async () => {
    const done = hotelWorld([null]);
    await runHotelSearch(hotelOptions('interactive'), done.ctx);
    expect(done.sdk.hotels.checkRate).not.toHaveBeenCalled();
    expect(done.sdk.hotels.book).not.toHaveBeenCalled();

    const plain = hotelWorld([]);
    await runHotelSearch(hotelOptions('plain'), plain.ctx);
    expect(plain.io.stdout[2]).toMatch(/^1\s+GBP 300\.00\s+Palm View/);
    expect(plain.io.stderr.at(-1)).toContain('book with: travel hotel book --rate-key');
  });
});

describe('search transport: the picker books', () => {
  // Real quote ids run to hundreds of characters.
  const longQuote = `q_${'x'.repeat(300)}`;
  const cheap = transferOffer(longQuote, 4_000);

  function world(answers: unknown[]) {
    const stream = [
      { event: 'transport_offer', data: { offer: transferOffer('q_dear', 9_000) } },
      { event: 'transport_offer', data: { offer: cheap } },
      { event: 'done', data: { status: 'completed' } },
    ];
    const sdk = {
      transfers: {
        search: vi.fn(async () => ({ searchId: 'ts_1', stream: () => events(stream) })),
        quote: vi.fn(async () => check(cheap)),
        book: vi.fn(async (_body: unknown, _o: unknown) => booked(31, transferBooking(31))),
      },
    };
    return { sdk, ...fakeWorld({ sdk: sdk as never, interactive: answers.length > 0, answers }) };
  }

  it('asks for the lead passenger and a contact, quotes, books the full quote id', async () => {
    const { sdk, ctx, deps, io } = world([
      cheap,
      'Ada',
      'Lovelace',
      'ek2',
      'ada@example.org',
      '+447700900123',
      true,
    ]);
    await runTransportSearch(transportOptions('interactive'), ctx);
    expect(asked(deps)).toEqual([
      'Pick a transfer to book',
      'Lead passenger: first name',
      'Lead passenger: last name',
      'Arriving flight (e.g. EK2): the driver tracks it and waits if it lands late; leave empty when not met at an airport',
      'Contact email',
      'Contact phone',
      'Book for EUR 40.00?',
    ]);
    expect(sdk.transfers.quote).toHaveBeenCalledWith({
      quote_id: longQuote,
      provider: 'hotelbeds_transfers',
    });
    expect(sdk.transfers.book.mock.calls[0]?.[0]).toEqual({
      quote_id: longQuote,
      provider: 'hotelbeds_transfers',
      passengers: [{ first_name: 'Ada', last_name: 'Lovelace' }],
      contact: { email: 'ada@example.org', phone: '+447700900123' },
      flight_number: 'EK2',
    });
    expect(io.stdout).toContain('transfer 31  confirmed  conf HBT-123  ref TR-1');
    expect(io.stdout.join('\n')).not.toContain(longQuote);
  });

  it('without a terminal: the table shortens long quote ids, the hint points at --json', async () => {
    const { ctx, io, sdk } = world([]);
    await runTransportSearch(transportOptions('plain'), ctx);
    // 100 columns without a terminal: the quote column wraps onto a second line instead of overflowing.
    expect(io.stdout[2]).toMatch(
      /^1\s+EUR 40\.00\s+PRIVATE\s+Car Standard\s+Hotelbeds\s+0h 25m\s+hotelbeds_transfers\s+q_x+$/,
    );
    expect(io.stdout[3]).toMatch(/^\s+x*…$/);
    expect(`${io.stdout[2]?.split(/\s+/).at(-1)}${io.stdout[3]?.trim()}`).toMatch(/^q_x{22}…$/);
    for (const line of io.stdout) expect(line.length).toBeLessThanOrEqual(100);
    expect(io.stderr.at(-1)).toContain('full quotes in --json');
    expect(sdk.transfers.book).not.toHaveBeenCalled();
  });
});
