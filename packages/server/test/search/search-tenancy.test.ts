/**
 * Who reads a search, as for bookings: a customer only their own searches (and the offers in them); company
 * staff and admins their company's; a super_admin every one. Anything else is 404, as for a missing search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRoutes } from '../../src/domains/search/routes.ts';
import {
  type AuthContext,
  type HandlerTable,
  handlerTable,
  type RequestContext,
} from '../../src/kernel/types.ts';
import { resolveFlightOffer } from '../../src/search/resolve-offer.ts';
import { collect, ctx, flightBody, futureDate, type Harness, harness, userAuth } from './harness.ts';

let h: Harness;
let routes: HandlerTable;
beforeAll(async () => {
  h = await harness();
  routes = handlerTable(searchRoutes(h.search));
});
afterAll(() => h.close());

const who = (userId: string, role: AuthContext['role'], companyId: number | null = 1): AuthContext =>
  userAuth({
    userId,
    email: `${userId}@agency.test`,
    role,
    companyId,
    companyCode: companyId === 1 ? 'AGY' : companyId === null ? null : 'OTH',
  });
const alice = who('alice', 'customer');
const bob = who('bob', 'customer');
const staff = who('staff', 'company_staff');
const admin = who('admin', 'company_admin');
const outsider = who('outsider', 'company_staff', 2);
const root = who('root', 'super_admin', null);

type Op = (c: RequestContext) => Promise<unknown>;

/** Every read of a search: offer stream, grouped stream, batch and (hotel, transport) results. */
const reads = (r: HandlerTable, v: 'Flight' | 'Hotel' | 'Transport'): [string, Op][] => {
  const ops: [string, Op][] =
    v === 'Flight'
      ? [
          ['stream', async (c) => collect(await r.streamFlightOffers!(c))],
          ['stream-by-gds', async (c) => collect(await r.streamFlightOffersByGds!(c))],
          ['batch', async (c) => r.getFlightBatchResults!(c)],
        ]
      : [
          ['stream', async (c) => collect(await r[`stream${v}Offers`]!(c))],
          ['stream-by-provider', async (c) => collect(await r[`stream${v}OffersByProvider`]!(c))],
          ['batch', async (c) => r[`get${v}BatchResults`]!(c)],
          ['results', async (c) => r[`get${v}SearchResults`]!(c)],
        ];
  return ops;
};

async function expectReadable(v: 'Flight' | 'Hotel' | 'Transport', id: string, auth: AuthContext) {
  for (const [name, op] of reads(routes, v)) {
    const out = await op(
      ctx({ auth, params: { search_id: id }, query: { timeout: 30, page: 1, page_size: 5 } }),
    );
    if (Array.isArray(out)) expect([name, out.at(-1)?.event]).toEqual([name, 'done']);
    else expect([name, (out as { status: number }).status]).toEqual([name, 200]);
  }
}

async function expectUnknown(v: 'Flight' | 'Hotel' | 'Transport', id: string, auth: AuthContext) {
  for (const [name, op] of reads(routes, v)) {
    const err = await op(ctx({ auth, params: { search_id: id }, query: { timeout: 30 } })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect([name, err]).toMatchObject([name, { status: 404, code: 'search_not_found' }]);
  }
}

async function flightSearch(auth: AuthContext): Promise<string> {
  const r = await routes.searchFlights!(
    ctx({ auth, body: flightBody({ userCode: auth.email, companyCode: auth.companyCode ?? '' }) }),
  );
  const id = (r as { body: { searchId: string } }).body.searchId;
  await collect(await routes.streamFlightOffers!(ctx({ auth, params: { search_id: id } })));
  return id;
}

describe('search tenancy', () => {
  it('flight: a customer’s search is 404 to a colleague customer and another company, 200 to its owner, company staff, admins and super_admin', async () => {
    const id = await flightSearch(alice);
    for (const a of [alice, staff, admin, root]) await expectReadable('Flight', id, a);
    for (const a of [bob, outsider]) await expectUnknown('Flight', id, a);
  });

  it('flight: the offers of a colleague’s search do not resolve for a customer (404 offer_not_found)', async () => {
    const id = await flightSearch(alice);
    const b = await routes.getFlightBatchResults!(ctx({ auth: alice, params: { search_id: id } }));
    const offers = Object.values(
      (b as { body: { results_by_gds: Record<string, { offer_id: string }[]> } }).body.results_by_gds,
    ).flat();
    const offerId = offers[0]!.offer_id;
    for (const a of [alice, staff, admin, root])
      expect((await resolveFlightOffer(h.database.db, offerId, a, h.clock)).search_id).toBe(id);
    for (const a of [bob, outsider])
      await expect(resolveFlightOffer(h.database.db, offerId, a, h.clock)).rejects.toMatchObject({
        status: 404,
        code: 'offer_not_found',
      });
  });

  it('flight: a customer does not see company staff’s searches; staff see each other’s', async () => {
    const id = await flightSearch(staff);
    await expectReadable('Flight', id, admin);
    await expectReadable('Flight', id, who('staff2', 'company_staff'));
    await expectUnknown('Flight', id, alice);
  });

  it('a customer without a company sees only their own searches', async () => {
    const loner = who('loner', 'customer', null);
    const id = await flightSearch(loner);
    await expectReadable('Flight', id, loner);
    await expectUnknown('Flight', id, who('loner2', 'customer', null));
  });

  it('hotel and transfer searches follow the same rule', async () => {
    const hotel = await routes.searchHotels!(
      ctx({
        auth: alice,
        body: {
          destination: 'PMI',
          check_in: futureDate(40),
          check_out: futureDate(42),
          rooms: [{ adults: 2, children: 0, child_ages: [] }],
          currency: 'EUR',
        },
      }),
    );
    const hotelId = (hotel as { body: { search_id: string } }).body.search_id;
    const transfer = await routes.searchTransport!(
      ctx({
        auth: alice,
        body: {
          pickup_location: 'PMI',
          dropoff_location: 'Palma Centre',
          pickup_datetime: `${futureDate(40)}T10:00:00`,
          passengers: 2,
          currency: 'EUR',
        },
      }),
    );
    const transferId = (transfer as { body: { search_id: string } }).body.search_id;
    for (const [v, id] of [
      ['Hotel', hotelId],
      ['Transport', transferId],
    ] as const) {
      for (const a of [alice, staff, admin]) await expectReadable(v, id, a);
      for (const a of [bob, outsider]) await expectUnknown(v, id, a);
    }
  });
});
