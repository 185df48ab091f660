/** search flight with a fake stream: the four output modes, supplier lines, ranking, picker. */
import { describe, expect, it, vi } from 'vitest';
import { type FlightSearchOptions, runFlightSearch } from '../src/commands/search-flight.ts';
import { offer } from './helpers/data.ts';
import { events, fakeWorld } from './helpers/fakes.ts';

const stream = [
  { event: 'offer', id: '1', data: { offer: offer('off_b', 52_000, 'amadeus') } },
  { event: 'offer', id: '2', data: { offer: offer('off_a', 41_000, 'duffel', 1) } },
  { event: 'supplier_done', id: '3', data: { supplier: 'amadeus', status: 'completed', offer_count: 1 } },
  { event: 'supplier_done', id: '4', data: { supplier: 'duffel', status: 'completed', offer_count: 1 } },
  { event: 'supplier_done', id: '5', data: { supplier: 'mystifly', status: 'timed_out', offer_count: 0 } },
  { event: 'done', id: '6', data: { status: 'partial', total_offers: 2 } },
];

const options = (mode: FlightSearchOptions['mode']): FlightSearchOptions => ({
  from: 'LHR',
  to: 'DXB',
  date: '2026-12-20',
  returnDate: undefined,
  adults: 1,
  children: 0,
  cabin: undefined,
  airline: undefined,
  currency: undefined,
  suppliers: [],
  limit: 20,
  timeoutSeconds: 30,
  mode,
  companyCode: undefined,
  userCode: undefined,
});

function world(interactive = false, answers: unknown[] = []) {
  const search = vi.fn(async () => ({ searchId: 'fs_1', stream: () => events(stream) }));
  return { search, ...fakeWorld({ sdk: { flights: { search } } as never, interactive, answers }) };
}

describe('runFlightSearch', () => {
  it('--json prints one document at the end, cheapest first', async () => {
    const { ctx, io, search } = world();
    await runFlightSearch(options('json'), ctx);
    expect(search).toHaveBeenCalledWith(
      expect.objectContaining({ companyCode: 'ACME', userCode: 'agent01', journeyType: 'OneWay' }),
    );
    expect(io.stdout).toHaveLength(1);
    const doc = JSON.parse(io.stdout[0] ?? '');
    expect(doc).toMatchObject({ search_id: 'fs_1', status: 'partial', total_offers: 2 });
    expect(doc.offers.map((o: { offer_id: string }) => o.offer_id)).toEqual(['off_a', 'off_b']);
    expect(doc.suppliers.mystifly).toEqual({ status: 'timed_out', offer_count: 0 });
  });

  it('--ndjson prints every event as it arrives, one line each', async () => {
    const { ctx, io } = world();
    await runFlightSearch(options('ndjson'), ctx);
    expect(io.stdout.map((l) => JSON.parse(l).event)).toEqual([
      'offer',
      'offer',
      'supplier_done',
      'supplier_done',
      'supplier_done',
      'done',
    ]);
  });

  it('without a terminal: a table on stdout, progress on stderr, no board, no prompt', async () => {
    const { ctx, io } = world();
    await runFlightSearch(options('plain'), ctx);
    expect(io.boards).toHaveLength(0);
    expect(io.stdout[0]).toMatch(/^#\s+price\s+carriers\s+stops\s+duration\s+supplier\s+refundable/);
    expect(io.stdout[2]).toContain('GBP 410.00');
    expect(io.stderr).toContain('mystifly: timed out (0 offers)');
  });

  it('on a terminal: a line per supplier that ends done / timed out, then the picker', async () => {
    const { ctx, io } = world(true, [null]);
    await runFlightSearch(options('interactive'), ctx);
    expect(io.boards[0]).toEqual({
      amadeus: { text: 'done · 1 offers', state: 'done' },
      duffel: { text: 'done · 1 offers', state: 'done' },
      mystifly: { text: 'timed out · 0 offers', state: 'warn' },
    });
  });

  it('a return trip sends two legs', async () => {
    const { ctx, search } = world();
    await runFlightSearch({ ...options('json'), returnDate: '2026-12-27', children: 1 }, ctx);
    expect(search).toHaveBeenCalledWith(
      expect.objectContaining({
        journeyType: 'Return',
        childAge: [8],
        searchAirLegs: [
          { origin: 'LHR', destination: 'DXB', departureDate: '2026-12-20' },
          { origin: 'DXB', destination: 'LHR', departureDate: '2026-12-27' },
        ],
      }),
    );
  });
});
